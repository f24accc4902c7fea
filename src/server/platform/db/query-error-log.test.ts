import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { createLogger } from '../logger';

/** One log line written by the server's own logger, as text. */
function logged(fields: Record<string, unknown>): string {
  const lines: string[] = [];
  createLogger('info', { write: (line: string) => void lines.push(line) }).error(fields, 'request failed');
  return lines.join('');
}

function terminatedQuery(): DrizzleQueryError {
  const cause = new pg.DatabaseError('terminating connection due to administrator command', 0, 'error');
  cause.code = '57P01';
  return new DrizzleQueryError(
    'select "id" from "players" where ("guardian_email" = $1 or "last_name" ilike $2)',
    ['maeve.obrien@example.org', '%Zoë O’Brien%'],
    cause,
  );
}

describe('the log of a failed query', () => {
  it('keeps the SQL and the cause but not the values bound to it', () => {
    const line = logged({ err: terminatedQuery() });
    expect(line).not.toContain('maeve.obrien');
    expect(line).not.toContain('Brien%');
    expect(line).toContain('Failed query: select \\"id\\" from \\"players\\"');
    expect(line).toContain('params: [redacted]');
    expect(line).toContain('terminating connection due to administrator command');
    expect(JSON.parse(line)).toMatchObject({ err: { type: 'DrizzleQueryError', params: '[redacted]' } });
  });

  it('takes the values out of a failed query wrapped as the cause of another error', () => {
    const line = logged({ err: new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable right now.', undefined, { cause: terminatedQuery() }) });
    expect(line).not.toContain('maeve.obrien');
    expect(line).toContain('params: [redacted]');
  });

  it("takes out PostgreSQL's detail, which quotes the failing row", () => {
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (lower(email))=(maeve.obrien@example.org) already exists.',
    });
    const line = logged({ err: duplicate });
    expect(line).not.toContain('maeve.obrien');
    expect(line).toContain('users_email_key');
  });

  it('leaves any other error as pino writes it', () => {
    expect(JSON.parse(logged({ err: new TypeError('cannot read x of undefined') }))).toMatchObject({
      err: { type: 'TypeError', message: 'cannot read x of undefined' },
    });
  });
});
