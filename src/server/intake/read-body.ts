import type { Readable } from 'node:stream';
import { AppError } from '../platform/errors';
import { deadlineError } from './intake-threads';

/**
 * A body small enough to hold in memory (a JSON submission naming its files by URL, a form builder's
 * delivery), refused past `maxBytes`, or with the deadline's reason once it aborts. A refused body is left
 * to drain; the route closes the connection after its answer.
 */
export function readSmallBody(body: Readable, maxBytes: number, deadline: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const settle = (error: Error | undefined) => {
      body.off('data', onData).off('end', onEnd).off('error', onCut).off('close', onCut);
      deadline?.removeEventListener('abort', onDeadline);
      if (error === undefined) {
        resolve(Buffer.concat(chunks, bytes));
        return;
      }
      body.resume();
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      bytes += buffer.length;
      if (bytes > maxBytes) {
        settle(new AppError('PAYLOAD_TOO_LARGE', `The request is larger than ${Math.round(maxBytes / 1_048_576)} MB.`));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => settle(undefined);
    // 'close' before 'end' is a connection cut mid-body.
    const onCut = () => settle(new AppError('VALIDATION_FAILED', 'The request body ended before it was complete.'));
    const onDeadline = () => settle(deadlineError(deadline));
    if (body.destroyed || body.readableAborted) {
      onCut();
      return;
    }
    if (deadline?.aborted) {
      onDeadline();
      return;
    }
    body.on('data', onData).on('end', onEnd).on('error', onCut).on('close', onCut);
    deadline?.addEventListener('abort', onDeadline, { once: true });
  });
}

/** A JSON body, or a 400 saying it is not JSON. */
export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
}
