import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZFamilyUploadResult } from '../../../contract';
import { UploadLimitReached, ZFamilyTokenParams } from '../../upload-links';
import { registerRawBodyRoutes, startBodyDeadline } from '../intake-route';
import { receiveFamilyUpload, type FamilyIntakeDeps } from './family-upload';
import { perAddressRateLimit } from '../../platform/http/rate-limit';

/**
 * POST /api/family/:token/uploads: a family sends one document through its upload link. The link is checked,
 * and its hour's uploads counted, before the body is read; the body then has a time limit to arrive (408),
 * and requests per address per minute are limited too (429, this instance). Any answer sent before the
 * body has fully arrived closes the connection.
 */
export function registerFamilyUploadRoutes(app: FastifyInstance, deps: { family: FamilyIntakeDeps }): void {
  const { family } = deps;
  registerRawBodyRoutes(app, (parent) => {
    const scoped = parent.withTypeProvider<ZodTypeProvider>();
    scoped.post(
      '/api/family/:token/uploads',
      {
        schema: { params: ZFamilyTokenParams, response: { 202: ZFamilyUploadResult } },
        config: {
          // Public: a family has no account; the link's token in the path is the credential (decision 028).
          access: 'public',
          rateLimit: perAddressRateLimit(family.rateLimitPerMinute, 'uploads'),
        },
      },
      async (request, reply) => {
        const receivedAt = new Date();
        const deadline = startBodyDeadline(request.raw, family.bodyTimeoutMs, 'The upload');
        try {
          const link = await family.uploadLinks.linkForUpload(request.params.token);
          const result = await receiveFamilyUpload(family, {
            link,
            body: request.raw,
            contentType: request.headers['content-type'] ?? '',
            receivedAt,
            deadline: deadline.signal,
          });
          return reply.status(202).send(result);
        } catch (error) {
          if (error instanceof UploadLimitReached) void reply.header('retry-after', String(error.retryAfterSeconds));
          throw error;
        } finally {
          deadline.clear();
        }
      },
    );
  });
}
