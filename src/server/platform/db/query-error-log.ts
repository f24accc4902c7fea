import { stdSerializers } from 'pino';

/** drizzle's failed-query error: its message is `Failed query: <sql>\nparams: <values>`, and `params` holds the values. */
function isQueryError(value: unknown): value is Error & { params: unknown } {
  return value instanceof Error && 'query' in value && 'params' in value;
}

/**
 * The log's `err` serializer: pino's, with the values of a failed query taken out. drizzle puts every
 * bound value in the error (a guardian's e-mail address, a player's name, a search string), and a lost
 * database connection fails whatever query was running, so without this an outage would write them to
 * the log. The SQL text stays: it tells which query failed.
 */
export function serializeErrorForLog(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = stdSerializers.err(error);
  for (let current: unknown = error, steps = 0; current instanceof Error && steps < 10; current = current.cause, steps++) {
    if (!isQueryError(current)) continue;
    const raw = current.message;
    const safe = raw.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
    if (safe === raw) continue;
    serialized.message = serialized.message.split(raw).join(safe);
    serialized.stack = serialized.stack.split(raw).join(safe);
  }
  if (isQueryError(error)) serialized.params = '[redacted]';
  // PostgreSQL's own words about the failing row ('Key (email)=(…) already exists') quote its values.
  for (const key of ['detail', 'where']) if (key in serialized) serialized[key] = '[redacted]';
  return serialized;
}
