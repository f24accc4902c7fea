import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SIGNATURE_HEADER } from '../intake/form-webhook';
import { receiveFormSubmission, type FormIntakeDeps } from '../intake/form-intake.service';

const ZIntakeResponse = z.object({
  submissionId: z.string(),
  duplicate: z.boolean(),
  documents: z.array(z.object({ id: z.string(), status: z.string(), duplicateOf: z.string().optional(), message: z.string().optional() })),
});

/**
 * POST /api/intake/form: the registration form's webhook, authenticated by its HMAC signature instead of
 * a session. The body is left unparsed here: the intake reads the raw stream to check the signature.
 */
export function registerIntakeRoutes(app: FastifyInstance, deps: { intake: FormIntakeDeps; maxFileBytes: number }): void {
  void app.register((scoped, _options, done) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (_request, _payload, next) => next(null));
    scoped.post(
      '/api/intake/form',
      // Public: authenticated by its HMAC signature over the raw body, not by a session.
      { config: { access: 'public' }, bodyLimit: deps.maxFileBytes * 5 + 1_048_576, schema: { response: { 202: ZIntakeResponse } } },
      async (request, reply) => {
        const result = await receiveFormSubmission(deps.intake, {
          body: request.raw,
          contentType: request.headers['content-type'] ?? '',
          signature: request.headers[SIGNATURE_HEADER] as string | undefined,
          receivedAt: new Date(),
        });
        return reply.status(202).send({ submissionId: result.submissionId, duplicate: !result.created, documents: result.documents });
      },
    );
    done();
  });
}
