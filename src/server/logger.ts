import { pino, type LoggerOptions } from 'pino';

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

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

export function createLogger(level: string) {
  return pino(loggerOptions(level));
}
export type Logger = ReturnType<typeof createLogger>;
