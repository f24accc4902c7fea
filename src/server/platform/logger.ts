import { Writable } from 'node:stream';
import { pino, type DestinationStream, type LoggerOptions } from 'pino';
import { isColorSupported, PinoPretty } from 'pino-pretty';
import type { LogFormat } from './config';
import { serializeErrorForLog } from './db/query-error-log';
import { logSafeUrl } from './http/log-safe-url';

/**
 * Paths that could carry a secret anywhere in a log line. Request bodies are never logged, but a
 * mistaken `log.info({ body })` must still not leak a password.
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-clearbase-signature"]',
  'req.headers["typeform-signature"]',
  'req.headers["tally-signature"]',
  'req.headers.apikey',
  'res.headers["set-cookie"]',
  'masterKey',
  '*.masterKey',
  'backupPassphrase',
  '*.backupPassphrase',
  'token',
  '*.token',
];

/**
 * A `url` in any log line keeps its path and its query parameters' names, never their values: a search
 * string is a player's or a guardian's name, an e-mail address or a phone number; and never the token of a
 * form builder's webhook address (http/log-safe-url.ts).
 */
const serializers = {
  url: (url: unknown) => (typeof url === 'string' ? logSafeUrl(url) : url),
  // A failed query's bound values (names, e-mail addresses, search strings) never reach the log.
  err: serializeErrorForLog,
};

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers };
}

/** LOG_FORMAT when set; otherwise pretty for a person at a terminal, JSON for whatever reads a pipe or file. */
export function logFormatFor(configured: LogFormat | undefined, stdoutIsTerminal: boolean | undefined): LogFormat {
  return configured ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

/**
 * One readable line per event (an error's stack follows on its own lines). pino redacts and serializes
 * first and hands over the finished JSON line, so the pretty text holds only what a JSON line would.
 * Written synchronously, as JSON lines are, so the last lines before an exit are not lost.
 */
function prettyStream(destination: DestinationStream | undefined) {
  return PinoPretty({
    singleLine: true,
    translateTime: 'SYS:standard',
    ignore: 'pid,hostname',
    colorize: destination === undefined && isColorSupported,
    sync: true,
    // pino-pretty pipes into a real stream; a test's `{ write }` is wrapped in one.
    destination:
      destination === undefined
        ? 1
        : new Writable({
            write(chunk: Buffer, _encoding, done) {
              destination.write(chunk.toString());
              done();
            },
          }),
  });
}

/**
 * JSON lines to stdout, or to `destination` (tests capture them to prove what is never logged); with
 * format 'pretty', readable lines instead (main.ts chooses with logFormatFor).
 */
export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json') {
  if (format === 'pretty') return pino(loggerOptions(level), prettyStream(destination));
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
export type Logger = ReturnType<typeof createLogger>;
