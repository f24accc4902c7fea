import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSeasonReport, ZSeasonReportExportQuery, ZSeasonReportQuery } from '../../contract';
import type { ReportFile, SeasonReportService } from './season-report.service';
import { principalOf } from '../platform/http/access';
import { contentDisposition } from '../platform/http/content-disposition';

/** GET /api/reports/season and its export as a file (src/contract/season-report.ts). */
export function registerSeasonReportRoutes(parent: FastifyInstance, deps: { seasonReport: SeasonReportService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get('/api/reports/season', { config: { access: 'read' }, schema: { querystring: ZSeasonReportQuery, response: { 200: ZSeasonReport } } }, (request) =>
    deps.seasonReport.getSeasonReport(request.query, principalOf(request)),
  );

  app.get('/api/reports/season/export', { config: { access: 'read' }, schema: { querystring: ZSeasonReportExportQuery } }, async (request, reply) => {
    const { format, ...query } = request.query;
    return sendReportFile(reply, await deps.seasonReport.exportSeasonReport(query, format, principalOf(request)));
  });
}

/** Answers a report file whole: its type, its name as an attachment, never cached, never sniffed. */
export function sendReportFile(reply: FastifyReply, file: ReportFile): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('content-length', file.body.length)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}
