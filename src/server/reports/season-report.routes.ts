import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSeasonReport, ZSeasonReportQuery } from '../../contract';
import type { SeasonReportService } from './season-report.service';
import { principalOf } from '../platform/http/access';

/** GET /api/reports/season (src/contract/season-report.ts). */
export function registerSeasonReportRoutes(parent: FastifyInstance, deps: { seasonReport: SeasonReportService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get('/api/reports/season', { config: { access: 'read' }, schema: { querystring: ZSeasonReportQuery, response: { 200: ZSeasonReport } } }, (request) =>
    deps.seasonReport.getSeasonReport(request.query, principalOf(request)),
  );
}
