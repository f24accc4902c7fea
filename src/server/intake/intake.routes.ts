import type { FastifyInstance } from 'fastify';
import { ZDocument } from '../../contract';
import type { DocumentsService } from '../documents';
import { actorOf } from '../platform/http/access';
import { AppError } from '../platform/errors';
import { SIGNATURE_HEADER } from './form/form-webhook';
import { receiveFormSubmission, type FormIntakeDeps } from './form/form-intake.service';
import { registerRawBodyRoutes, startBodyDeadline, ZIntakeResponse } from './intake-route';
import { runTestSubmission } from './test-submission';
import { perAddressRateLimit } from '../platform/http/rate-limit';

/**
 * POST /api/intake/form: the registration form's webhook, authenticated by its HMAC signature instead of
 * a session. The body is left unparsed here: the intake reads the raw stream to check the signature.
 *
 * Abuse limits: requests per client address per minute (429 with Retry-After, counted by this instance),
 * and a time limit for the whole body to arrive (408), so a slow sender cannot hold a connection and its
 * staged files for minutes. Any answer sent before the body has fully arrived closes the connection:
 * the rest of a refused body is not read.
 */
export function registerIntakeRoutes(
  app: FastifyInstance,
  deps: { intake: FormIntakeDeps; maxFileBytes: number; documents: Pick<DocumentsService, 'readDocumentUnscoped'> },
): void {
  // A POST: it records a submission and stores a file, so a prefetch, a crawler or a reload must not run it.
  app.post('/api/admin/test', { config: { access: 'settings.manage' }, schema: { response: { 200: ZDocument } } }, (request) =>
    runTestSubmission({ ...deps.intake, readDocument: (id) => deps.documents.readDocumentUnscoped(id) }, actorOf(request)),
  );
  registerRawBodyRoutes(app, (scoped) => {
    scoped.post(
      '/api/intake/form',
      {
        bodyLimit: deps.maxFileBytes * 5 + 1_048_576,
        schema: { response: { 202: ZIntakeResponse } },
        config: {
          // Public: authenticated by its HMAC signature over the raw body, not by a session.
          access: 'public',
          rateLimit: perAddressRateLimit(deps.intake.rateLimitPerMinute, 'form submissions'),
        },
      },
      async (request, reply) => {
        const deadline = startBodyDeadline(request.raw, deps.intake.bodyTimeoutMs);
        try {
          const result = await receiveFormSubmission(deps.intake, {
            body: request.raw,
            contentType: request.headers['content-type'] ?? '',
            signature: request.headers[SIGNATURE_HEADER] as string | undefined,
            receivedAt: new Date(),
            deadline: deadline.signal,
          });
          return reply.status(202).send({ submissionId: result.submissionId, duplicate: !result.created, documents: result.documents });
        } catch (error) {
          // Worth a warning: a form provider with the wrong secret loses every submission. Never the body.
          if (error instanceof AppError && error.code === 'UNAUTHENTICATED') request.log.warn('form webhook refused: missing or wrong signature');
          throw error;
        } finally {
          deadline.clear();
        }
      },
    );
  });
}
