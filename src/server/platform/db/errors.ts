import { setTimeout as sleep } from 'node:timers/promises';

/** Walks an error and its `cause` chain (and an AggregateError's errors), innermost last. */
function* errorChain(error: unknown, depth = 0): Generator<object> {
  // A cap, not a count: a cause that points back at its own error must not loop forever.
  for (let current: unknown = error, steps = 0; typeof current === 'object' && current !== null && steps < 10; steps++) {
    yield current;
    if (current instanceof AggregateError && depth < 2) {
      for (const inner of current.errors) yield* errorChain(inner, depth + 1);
    }
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * PostgreSQL's unique_violation (23505), also when drizzle wraps the driver's error: since drizzle-orm 0.45
 * a failed query throws a DrizzleQueryError whose `cause` is the driver's error with its code.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (const current of errorChain(error)) {
    if ('code' in current && current.code === '23505') return true;
  }
  return false;
}

/**
 * Codes that mean the session is gone or could not be had, not that the statement was wrong:
 * PostgreSQL's class 08 (connection exception), the server shutting down or terminating the session
 * (57P01 admin_shutdown, as pg_terminate_backend and a fast shutdown send; 57P02 crash_shutdown;
 * 57P03 cannot_connect_now while it starts or recovers; 57P05 idle_session_timeout), too many
 * connections (53300), and the socket errors Node reports for a server it cannot reach.
 */
const UNREACHABLE_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * What node-postgres and its pool throw, with no code, when a connection drops or cannot be made: the
 * socket closed under a query, a client used after its connection failed (drizzle's rollback after a
 * dropped transaction throws this one, in place of the first error), no connection within the timeout.
 */
const UNREACHABLE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'timeout expired',
];

/**
 * Whether a failure means the database could not be reached (the connection dropped, was terminated, or
 * could not be opened) rather than that the query itself was refused: the request can be answered "try
 * again", and the same work may succeed once the pool has a new connection. Looks through drizzle's
 * wrapper, which keeps the driver's error in `cause`.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const current of errorChain(error)) {
    if ('code' in current && typeof current.code === 'string' && UNREACHABLE_CODES.has(current.code)) return true;
    if ('message' in current && typeof current.message === 'string' && UNREACHABLE_MESSAGES.includes(current.message)) return true;
  }
  return false;
}

/** Waits before each try of a read after a lost connection: at once, then twice more while the pool reconnects. */
const RECHECK_DELAYS_MS = [0, 200, 1_000];

/**
 * A read made right after a connection was lost, to learn what became of the work it carried (a commit
 * whose answer never came may have gone through): tried again twice while the pool opens a new connection.
 * Answers `{ answer }`, or undefined when the database still cannot be asked.
 */
export async function readAfterConnectionLoss<T>(read: () => Promise<T>): Promise<{ answer: T } | undefined> {
  for (const delayMs of RECHECK_DELAYS_MS) {
    if (delayMs > 0) await sleep(delayMs);
    try {
      return { answer: await read() };
    } catch {
      // Still unreachable, or not yet: ask again after the next wait.
    }
  }
  return undefined;
}
