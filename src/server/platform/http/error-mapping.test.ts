import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { DATABASE_UNREACHABLE_MESSAGE, toApiError } from './error-mapping';

describe('toApiError', () => {
  it('keeps an AppError code, message and details with its status', () => {
    const error = new AppError('CONFLICT', 'Already reviewed', [{ path: 'status', message: 'is final' }]);
    expect(toApiError(error, 'r1')).toEqual({
      status: 409,
      body: { code: 'CONFLICT', message: 'Already reviewed', requestId: 'r1', details: [{ path: 'status', message: 'is final' }] },
    });
  });

  it('maps Fastify body errors to stable codes', () => {
    expect(toApiError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }), 'r').body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(toApiError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }), 'r').status).toBe(415);
    expect(toApiError(Object.assign(new Error("'/api/x/%ED' is not a valid url component"), { code: 'FST_ERR_BAD_URL', statusCode: 400 }), 'r').body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The address holds characters that cannot be read.',
      requestId: 'r',
    });
  });

  it('maps plain 4xx statuses from plugins by their meaning', () => {
    expect(toApiError(Object.assign(new Error('Forbidden'), { statusCode: 403 }), 'r').body.code).toBe('FORBIDDEN');
    expect(toApiError(Object.assign(new Error('Not Found'), { statusCode: 404 }), 'r').body.code).toBe('NOT_FOUND');
    expect(toApiError(Object.assign(new Error('Bad'), { statusCode: 400 }), 'r').body.code).toBe('VALIDATION_FAILED');
  });

  it('hides the details of an unexpected error behind a reference', () => {
    const result = toApiError(new TypeError('cannot read secretThing of undefined'), 'req-42');
    expect(result.status).toBe(500);
    expect(result.body.message).toBe('Something went wrong on our side. Reference: req-42');
    expect(JSON.stringify(result.body)).not.toContain('secretThing');
  });

  it('answers a lost database connection 503 with a plain message and nothing of the query', () => {
    const terminated = new pg.DatabaseError('terminating connection due to administrator command', 0, 'error');
    terminated.code = '57P01';
    const error = new DrizzleQueryError('insert into "players" values ($1)', ['guardian@example.org'], terminated);
    const result = toApiError(error, 'req-7');
    expect(result).toEqual({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNREACHABLE_MESSAGE, requestId: 'req-7' } });
    expect(JSON.stringify(result.body)).not.toMatch(/insert|guardian|administrator/);
  });

  it('keeps a failed query that is not a lost connection a 500', () => {
    const refused = new pg.DatabaseError('syntax error', 0, 'error');
    refused.code = '42601';
    expect(toApiError(new DrizzleQueryError('selec 1', [], refused), 'r').status).toBe(500);
  });

  it('treats a thrown non-error as internal', () => {
    expect(toApiError('boom', 'r').status).toBe(500);
  });
});
