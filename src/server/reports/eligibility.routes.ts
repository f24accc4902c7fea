import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ELIGIBILITY_PACKET_PATH, ZEligibilityPacketQuery } from '../../contract';
import type { EligibilityService } from './eligibility.service';
import { principalOf } from '../platform/http/access';
import { sendReportFile } from './season-report.routes';

/** GET /api/reports/eligibility.pdf: a division's eligibility packet (src/contract/eligibility.ts), answered whole like the report's files. */
export function registerEligibilityRoutes(parent: FastifyInstance, deps: { eligibility: EligibilityService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(ELIGIBILITY_PACKET_PATH, { config: { access: 'read' }, schema: { querystring: ZEligibilityPacketQuery } }, async (request, reply) => {
    return sendReportFile(reply, await deps.eligibility.packetPdf(request.query, principalOf(request)));
  });
}
