import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../platform/errors';

/** What an intake route answers the sender of a recorded submission (202). */
export const ZIntakeResponse = z.object({
  submissionId: z.string(),
  duplicate: z.boolean(),
  documents: z.array(z.object({ id: z.string(), status: z.string(), duplicateOf: z.string().optional(), message: z.string().optional() })),
});

/**
 * Registers routes that read their own raw body (to check a signature over its bytes, or to keep it as it
 * came): no body parser runs. Any answer sent before the body has fully arrived closes the connection, so
 * the rest of a refused body is not read.
 */
export function registerRawBodyRoutes(app: FastifyInstance, register: (scoped: FastifyInstance) => void): void {
  void app.register((scoped, _options, done) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', (_request, _payload, next) => next(null));
    scoped.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete) reply.header('connection', 'close');
    });
    register(scoped);
    done();
  });
}


/**
 * Aborts with a 408 AppError when the body has not fully arrived `ms` after the handler started. Once it
 * has, the rest of the request (downloads, recording) is not under this limit.
 */
export function startBodyDeadline(raw: IncomingMessage, ms: number, what = 'The form'): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const seconds = Math.round(ms / 1000);
  const timer = setTimeout(() => {
    // complete: every byte has been received (read or not); readableEnded covers inject(), which never sets it.
    if (raw.complete || raw.readableEnded) return;
    controller.abort(new AppError('REQUEST_TIMEOUT', `${what} took too long to send: its whole body must arrive within ${seconds} seconds.`));
  }, ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
