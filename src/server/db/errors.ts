/**
 * PostgreSQL's unique_violation (23505), also when drizzle wraps the driver's error: since drizzle-orm 0.45
 * a failed query throws a DrizzleQueryError whose `cause` is the driver's error with its code.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; typeof current === 'object' && current !== null; current = (current as { cause?: unknown }).cause) {
    if ('code' in current && current.code === '23505') return true;
  }
  return false;
}
