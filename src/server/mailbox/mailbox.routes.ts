import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZMailboxActionResult, ZMailboxRecent, ZMailboxRecentQuery, ZMailboxStats, ZMailboxStatsQuery, ZMailboxStatus } from '../../contract';
import type { MailboxService } from './mailbox.service';

const ZSubmissionParams = z.object({ id: z.uuid('must be a submission id') });

/** The mailbox intake calls (`/api/gmail/…`: the paths keep the name Gmail, but any IMAP mailbox is served). */
export function registerMailboxRoutes(parent: FastifyInstance, deps: { mailbox: MailboxService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { mailbox } = deps;

  app.get('/api/gmail/status', { schema: { response: { 200: ZMailboxStatus } } }, () => mailbox.status());
  app.post('/api/gmail/start', { schema: { response: { 200: ZMailboxActionResult } } }, () => mailbox.start());
  app.post('/api/gmail/stop', { schema: { response: { 200: ZMailboxActionResult } } }, () => mailbox.stop());
  app.post('/api/gmail/check', { schema: { response: { 200: ZMailboxActionResult } } }, () => mailbox.checkNow());
  app.get('/api/gmail/stats', { schema: { querystring: ZMailboxStatsQuery, response: { 200: ZMailboxStats } } }, (request) =>
    mailbox.stats(request.query.range),
  );
  app.get('/api/gmail/recent', { schema: { querystring: ZMailboxRecentQuery, response: { 200: ZMailboxRecent } } }, (request) =>
    mailbox.recent(request.query),
  );
  app.post(
    '/api/gmail/submissions/:id/retry',
    { schema: { params: ZSubmissionParams, response: { 200: ZMailboxActionResult } } },
    (request) => mailbox.retry(request.params.id),
  );
}
