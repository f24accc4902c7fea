import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BACKUP_RUN_PATH, BACKUP_SCHEDULE_PATH, BACKUPS_PATH, ZBackupScheduleInput, ZBackupState } from '../../contract';
import { actorOf } from '../platform/http/access';
import type { NightlyBackups } from './nightly-backup';

/** Settings → System → Backups: admins only. */
export function registerBackupRoutes(parent: FastifyInstance, deps: { backups: NightlyBackups }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { backups } = deps;

  app.get(BACKUPS_PATH, { config: { access: 'settings.manage' }, schema: { response: { 200: ZBackupState } } }, () => backups.state());

  app.put(BACKUP_SCHEDULE_PATH, { config: { access: 'settings.manage' }, schema: { body: ZBackupScheduleInput, response: { 200: ZBackupState } } }, (request) =>
    backups.setSchedule(request.body.schedule, actorOf(request)),
  );

  app.post(BACKUP_RUN_PATH, { config: { access: 'settings.manage' }, schema: { response: { 202: ZBackupState } } }, async (request, reply) =>
    reply.code(202).send(await backups.runNow(actorOf(request))),
  );
}
