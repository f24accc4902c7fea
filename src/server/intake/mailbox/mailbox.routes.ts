import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZMailboxActionResult, ZMailboxRecent, ZMailboxRecentQuery, ZMailboxStats, ZMailboxStatsQuery, ZMailboxStatus } from '../../../contract';
import type { MailboxService } from './mailbox.service';
import { principalOf } from '../../platform/http/access';

const ZSubmissionParams = z.object({ id: z.uuid('must be a submission id') });

/** The mailbox intake's HTTP calls, under `/api/gmail/…`, the paths the web app calls; any IMAP mailbox is served. */
export function registerMailboxRoutes(parent: FastifyInstance, deps: { mailbox: MailboxService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { mailbox } = deps;

  app.get('/api/gmail/status', { config: { access: 'read' }, schema: { response: { 200: ZMailboxStatus } } }, () => mailbox.status());
  app.post('/api/gmail/start', { config: { access: 'mailbox.configure' }, schema: { response: { 200: ZMailboxActionResult } } }, () => mailbox.start());
  app.post('/api/gmail/stop', { config: { access: 'mailbox.configure' }, schema: { response: { 200: ZMailboxActionResult } } }, () => mailbox.stop());
  app.post('/api/gmail/check', { config: { access: 'mailbox.check' }, schema: { response: { 200: ZMailboxActionResult } } }, () => mailbox.checkNow());
  app.get('/api/gmail/stats', { config: { access: 'read' }, schema: { querystring: ZMailboxStatsQuery, response: { 200: ZMailboxStats } } }, (request) =>
    mailbox.stats(request.query.range, principalOf(request)),
  );
  app.get('/api/gmail/recent', { config: { access: 'read' }, schema: { querystring: ZMailboxRecentQuery, response: { 200: ZMailboxRecent } } }, (request) =>
    mailbox.recent(request.query, principalOf(request)),
  );
  app.post(
    '/api/gmail/submissions/:id/retry',
    { config: { access: 'mailbox.check' }, schema: { params: ZSubmissionParams, response: { 200: ZMailboxActionResult } } },
    (request) => mailbox.retry(request.params.id, principalOf(request)),
  );
}
