import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, formatApiErrorMessage, getErrorMessage, getQueryFn, queryKeyToUrl } from './api-client';
import * as apiClient from './api-client';
import { z } from 'zod';

describe('formatApiErrorMessage', () => {
  it('joins the status and the body text with a colon and a space', () => {
    expect(formatApiErrorMessage(500, 'Database down', 'Internal Server Error')).toBe('500: Database down');
  });

  it('falls back to the status text when the body is empty', () => {
    expect(formatApiErrorMessage(404, '', 'Not Found')).toBe('404: Not Found');
  });

  it('keeps a JSON body verbatim', () => {
    const body = '{"code":"UNAUTHENTICATED","message":"Sign in first."}';
    expect(formatApiErrorMessage(401, body, 'Unauthorized')).toBe(`401: ${body}`);
  });
});

describe('ApiError', () => {
  it('carries the status, the raw body and the parsed error code', () => {
    const body = JSON.stringify({ code: 'INVALID_PASSWORD', message: 'Invalid password. Please try again.' });
    const error = new ApiError(401, 'Unauthorized', body);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(`401: ${body}`);
    expect(error.status).toBe(401);
    expect(error.code).toBe('INVALID_PASSWORD');
    expect(error.body?.message).toBe('Invalid password. Please try again.');
  });

  it('leaves the code undefined when the body is not the standard error shape', () => {
    const error = new ApiError(502, 'Bad Gateway', '<html>proxy error</html>');
    expect(error.code).toBeUndefined();
    expect(error.body).toBeUndefined();
    expect(error.message).toBe('502: <html>proxy error</html>');
  });
});

describe('getErrorMessage', () => {
  it('prefers the message the server sent', () => {
    const error = new ApiError(429, 'Too Many Requests', JSON.stringify({ code: 'RATE_LIMITED', message: 'Slow down.' }));
    expect(getErrorMessage(error)).toBe('Slow down.');
  });

  it('uses the formatted message when the server sent no standard body', () => {
    expect(getErrorMessage(new ApiError(500, 'Internal Server Error', ''))).toBe('500: Internal Server Error');
  });

  it('uses the fallback for values that are not errors', () => {
    expect(getErrorMessage('nope', 'Fallback')).toBe('Fallback');
  });
});

describe('queryKeyToUrl', () => {
  it('joins path segments with a slash and adds the leading slash', () => {
    expect(queryKeyToUrl(['api', 'health'])).toBe('/api/health');
  });

  it('accepts a segment that is already a path', () => {
    expect(queryKeyToUrl(['/api/uploads/recent'])).toBe('/api/uploads/recent');
  });

  it('turns numbers into path segments and encodes unsafe characters', () => {
    expect(queryKeyToUrl(['api', 'documents', 42])).toBe('/api/documents/42');
    expect(queryKeyToUrl(['api', 'players', 'a b?'])).toBe('/api/players/a%20b%3F');
  });

  it('turns a plain object into the query string and skips empty values', () => {
    expect(queryKeyToUrl(['api', 'report', 'missing', { season: 2025, division: undefined, q: null }])).toBe(
      '/api/report/missing?season=2025',
    );
  });
});

describe('apiRequest and getQueryFn', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubFetch(response: Response) {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('sends credentials and a JSON body with a JSON content type', async () => {
    const fetchMock = stubFetch(new Response('{"authenticated":true}', { status: 200 }));
    await apiRequest('POST', '/api/auth/login', { password: 'x' });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/login');
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(init?.body).toBe('{"password":"x"}');
  });

  it('sends no content type when there is no body', async () => {
    const fetchMock = stubFetch(new Response('{}', { status: 200 }));
    await apiRequest('GET', '/api/health');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toBeUndefined();
  });

  it('throws an ApiError reading "<status>: <body>" on a non-OK answer', async () => {
    stubFetch(new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
    await expect(apiRequest('GET', '/api/stats')).rejects.toMatchObject({ name: 'ApiError', status: 500, message: '500: boom' });
  });

  it('parses the answer with the given schema', async () => {
    stubFetch(new Response('{"n":1,"extra":true}', { status: 200 }));
    await expect(apiRequest('GET', '/x', undefined, { schema: z.object({ n: z.number() }) })).resolves.toEqual({ n: 1 });
  });

  it('rejects an answer that does not match the schema', async () => {
    stubFetch(new Response('{"n":"one"}', { status: 200 }));
    await expect(apiRequest('GET', '/x', undefined, { schema: z.object({ n: z.number() }) })).rejects.toMatchObject({
      name: 'ResponseShapeError',
    });
  });

  it('resolves a 401 to null when the query function is told to', async () => {
    stubFetch(new Response('', { status: 401, statusText: 'Unauthorized' }));
    const queryFn = getQueryFn({ on401: 'returnNull' });
    const context = { queryKey: ['api', 'health'], signal: new AbortController().signal, meta: undefined } as const;
    await expect(queryFn(context as unknown as Parameters<typeof queryFn>[0])).resolves.toBeNull();
  });

  it('throws on a 401 by default', async () => {
    stubFetch(new Response('', { status: 401, statusText: 'Unauthorized' }));
    const queryFn = getQueryFn();
    const context = { queryKey: ['api', 'health'], signal: new AbortController().signal, meta: undefined } as const;
    await expect(queryFn(context as unknown as Parameters<typeof queryFn>[0])).rejects.toMatchObject({ status: 401 });
  });
});

describe('fileNameOfDisposition', () => {
  it('reads the UTF-8 name first, then the plain one', () => {
    const { fileNameOfDisposition } = apiClient;
    expect(fileNameOfDisposition(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe('résumé.pdf');
    expect(fileNameOfDisposition('attachment; filename="clearbase-report-fall-2025-20261126T0740Z.csv"')).toBe('clearbase-report-fall-2025-20261126T0740Z.csv');
    expect(fileNameOfDisposition('attachment; filename=plain.xlsx')).toBe('plain.xlsx');
    expect(fileNameOfDisposition(`attachment; filename="fallback.pdf"; filename*=UTF-8''%E0%A4%A.pdf`)).toBe('fallback.pdf');
    expect(fileNameOfDisposition('attachment')).toBeNull();
    expect(fileNameOfDisposition(null)).toBeNull();
  });
});
