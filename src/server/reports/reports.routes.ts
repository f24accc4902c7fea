import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZMissingReport,
  ZMissingReportQuery,
  ZPlayerReport,
  ZPlayerReportQuery,
  ZStats,
  ZStatsBreakdown,
  ZStatsQuery,
} from '../../contract';
import type { ReportsService } from './reports.service';
import { principalOf } from '../platform/http/access';

/** The dashboard's figures and the player reports (src/contract/reports.ts); the seasons are the seasons module's. */
export function registerReportRoutes(parent: FastifyInstance, deps: { reports: ReportsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reports } = deps;

  app.get('/api/stats', { config: { access: 'read' }, schema: { querystring: ZStatsQuery, response: { 200: ZStats } } }, (request) =>
    reports.getStats(request.query.season, principalOf(request)),
  );

  app.get('/api/stats/breakdown', { config: { access: 'read' }, schema: { querystring: ZStatsQuery, response: { 200: ZStatsBreakdown } } }, (request) =>
    reports.getBreakdown(request.query.season, principalOf(request)),
  );

  app.get('/api/report/missing', { config: { access: 'read' }, schema: { querystring: ZMissingReportQuery, response: { 200: ZMissingReport } } }, (request) =>
    reports.getMissingReport(request.query, principalOf(request)),
  );

  app.get('/api/report/player', { config: { access: 'read' }, schema: { querystring: ZPlayerReportQuery, response: { 200: ZPlayerReport } } }, (request) =>
    reports.getPlayerReport(request.query.player_id, request.query.season, principalOf(request)),
  );
}
