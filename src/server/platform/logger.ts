import { pino, type DestinationStream, type LoggerOptions } from 'pino';
import { serializeErrorForLog } from './db/query-error-log';
import { redactQuery } from './http/log-safe-url';

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
  'res.headers["set-cookie"]',
  'masterKey',
  '*.masterKey',
  'token',
  '*.token',
];

/**
 * A `url` in any log line keeps its path and its query parameters' names, never their values: a search
 * string is a player's or a guardian's name, an e-mail address or a phone number (src/server/http/log-safe-url.ts).
 */
const serializers = {
  url: (url: unknown) => (typeof url === 'string' ? redactQuery(url) : url),
  // A failed query's bound values (names, e-mail addresses, search strings) never reach the log.
  err: serializeErrorForLog,
};

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers };
}

/** JSON lines to stdout, or to `destination` (tests capture them to prove what is never logged). */
export function createLogger(level: string, destination?: DestinationStream) {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
export type Logger = ReturnType<typeof createLogger>;
