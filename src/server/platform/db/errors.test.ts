import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable, isUniqueViolation } from './errors';

/** The driver's error for an ErrorResponse from the server, as node-postgres builds it. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

/** What drizzle throws for a failed query: its own error, the driver's in `cause`. */
const wrapped = (cause: Error) => new DrizzleQueryError('insert into "submissions" values ($1)', ['a value'], cause);

describe('isDatabaseUnreachable', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['57P05', 'terminating connection due to idle-session timeout'],
    ['08000', 'connection exception'],
    ['08001', 'could not establish connection'],
    ['08003', 'connection does not exist'],
    ['08004', 'server rejected the connection'],
    ['08006', 'connection failure'],
    ['53300', 'sorry, too many clients already'],
  ])('recognises the server error %s (%s), bare and inside drizzle\'s wrapper', (code, message) => {
    expect(isDatabaseUnreachable(serverError(code, message))).toBe(true);
    expect(isDatabaseUnreachable(wrapped(serverError(code, message)))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'timeout exceeded when trying to connect',
  ])('recognises the driver error "%s", bare and wrapped', (message) => {
    expect(isDatabaseUnreachable(new Error(message))).toBe(true);
    expect(isDatabaseUnreachable(wrapped(new Error(message)))).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'])('recognises the socket error %s', (code) => {
    const socketError = Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });
    expect(isDatabaseUnreachable(socketError)).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated due to connection timeout', { cause: socketError }))).toBe(true);
  });

  it('recognises a refused connection reported as an AggregateError of one attempt per address', () => {
    const attempts = ['::1', '127.0.0.1'].map((host) => Object.assign(new Error(`connect ECONNREFUSED ${host}:5432`), { code: 'ECONNREFUSED' }));
    expect(isDatabaseUnreachable(new AggregateError(attempts))).toBe(true);
  });

  it('finds the cause further down a chain', () => {
    const deep = new Error('outer', { cause: new Error('middle', { cause: serverError('57P01', 'terminating connection') }) });
    expect(isDatabaseUnreachable(deep)).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(serverError('23505', 'duplicate key value violates unique constraint'))],
    ['a syntax error', wrapped(serverError('42601', 'syntax error at or near "selec"'))],
    ['a statement timeout', wrapped(serverError('57014', 'canceling statement due to statement timeout'))],
    ['a serialization failure', wrapped(serverError('40001', 'could not serialize access'))],
    ['a plain programming error', new TypeError('cannot read properties of undefined')],
    ['an error whose message only mentions a connection', new Error('Connection terminated unexpectedly while parsing the form')],
    ['a thrown string', 'Connection terminated unexpectedly'],
    ['null', null],
  ])('does not take %s for a lost database', (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });

  it('stops on a cause chain that loops back on itself', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    expect(isDatabaseUnreachable(first)).toBe(false);
  });
});

describe('isUniqueViolation', () => {
  it('recognises 23505 bare and wrapped, and nothing else', () => {
    expect(isUniqueViolation(serverError('23505', 'duplicate key'))).toBe(true);
    expect(isUniqueViolation(wrapped(serverError('23505', 'duplicate key')))).toBe(true);
    expect(isUniqueViolation(wrapped(serverError('57P01', 'terminating connection')))).toBe(false);
  });
});
