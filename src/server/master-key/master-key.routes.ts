import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MASTER_KEY_CONFIRM_PATH, MASTER_KEY_PATH, MASTER_KEY_SHEET_PATH, ZMasterKeyBackup, ZMasterKeyConfirm } from '../../contract';
import { actorOf } from '../platform/http/access';
import type { MasterKeyBackupService } from './master-key.service';

/** Settings → Security → Master key: admins only, the sheet by POST (it is handed out once, so asking for it changes state). */
export function registerMasterKeyRoutes(parent: FastifyInstance, deps: { masterKeyBackup: MasterKeyBackupService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { masterKeyBackup } = deps;

  app.get(MASTER_KEY_PATH, { config: { access: 'settings.manage' }, schema: { response: { 200: ZMasterKeyBackup } } }, () => masterKeyBackup.status());

  app.post(MASTER_KEY_SHEET_PATH, { config: { access: 'settings.manage' } }, async (request, reply) => {
    const sheet = await masterKeyBackup.downloadSheet(actorOf(request));
    // Never kept by a browser or proxy cache, nor offered to another page: it is the one copy of the key outside the server.
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${sheet.fileName}"`)
      .header('content-length', sheet.body.length)
      .header('cache-control', 'no-store, max-age=0')
      .header('pragma', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(sheet.body);
  });

  app.post(MASTER_KEY_CONFIRM_PATH, { config: { access: 'settings.manage' }, schema: { body: ZMasterKeyConfirm, response: { 200: ZMasterKeyBackup } } }, (request) =>
    masterKeyBackup.confirm(request.body.characters, actorOf(request)),
  );
}
