import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ELIGIBILITY_PACKET_PATH, ZEligibilityPacketQuery } from '../../contract';
import type { EligibilityService } from './eligibility.service';
import { principalOf } from '../platform/http/access';
import { contentDisposition } from '../platform/http/content-disposition';

/** GET /api/reports/eligibility.pdf: a division's eligibility packet (src/contract/eligibility.ts), answered whole like the report's files. */
export function registerEligibilityRoutes(parent: FastifyInstance, deps: { eligibility: EligibilityService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(ELIGIBILITY_PACKET_PATH, { config: { access: 'read' }, schema: { querystring: ZEligibilityPacketQuery } }, async (request, reply) => {
    const file = await deps.eligibility.packetPdf(request.query, principalOf(request));
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.fileName))
      .header('content-length', file.body.length)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  });
}
