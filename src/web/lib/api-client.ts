import type { QueryFunction, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZApiError, type TApiError, type TErrorCode } from '../../contract';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A failed call reads "<status>: <body text, or the status text when the body is empty>". */
export function formatApiErrorMessage(status: number, bodyText: string, statusText: string): string {
  return `${status}: ${bodyText || statusText}`;
}

/** A non-OK answer from the API; `code` and `body` are set when the server sent its standard error shape. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: TErrorCode | undefined;
  readonly body: TApiError | undefined;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(formatApiErrorMessage(status, bodyText, statusText));
    this.status = status;
    this.bodyText = bodyText;
    this.body = parseApiErrorBody(bodyText);
    this.code = this.body?.code;
  }
}

/** The server answered 2xx but not with the shape the contract promises. */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`Unexpected response from ${url}`, { cause });
    this.url = url;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function parseApiErrorBody(bodyText: string): TApiError | undefined {
  if (!bodyText) return undefined;
  try {
    const parsed = ZApiError.safeParse(JSON.parse(bodyText));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A message fit for people: the server's own message when it sent one, else the raw error text. */
export function getErrorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiError) return error.body?.message ?? error.message;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  let bodyText = '';
  try {
    bodyText = await response.text();
  } catch {
    // The status line alone still tells the caller what happened.
  }
  throw new ApiError(response.status, response.statusText, bodyText);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  return JSON.parse(text) as unknown;
}

function parseWith<S extends z.ZodType>(schema: S, data: unknown, url: string): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new ResponseShapeError(url, result.error);
  return result.data;
}

export interface ApiRequestOptions<S extends z.ZodType | undefined = undefined> {
  /** Parses the JSON answer; without it the answer is returned as `unknown`. */
  schema?: S;
  signal?: AbortSignal;
}

/**
 * Sends one call with the session cookie and returns the parsed JSON answer (null when empty).
 * Non-OK answers throw an {@link ApiError}.
 */
export async function apiRequest<S extends z.ZodType>(
  method: HttpMethod,
  url: string,
  body: unknown,
  options: ApiRequestOptions<S> & { schema: S },
): Promise<z.output<S>>;
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
  options?: ApiRequestOptions<z.ZodType | undefined>,
): Promise<unknown>;
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
  options: ApiRequestOptions<z.ZodType | undefined> = {},
): Promise<unknown> {
  const init: RequestInit = { method, credentials: 'include', signal: options.signal ?? null };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  await throwIfNotOk(response);
  let data: unknown;
  try {
    data = await readJson(response);
  } catch (error) {
    throw new ResponseShapeError(url, error);
  }
  return options.schema ? parseWith(options.schema, data, url) : data;
}

/** A file the API answered: its bytes, and the name the server gave it (Content-Disposition), if any. */
export interface ApiFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * GETs a file the server makes (an exported report) with the session cookie; POSTs for one whose asking
 * changes something (a file handed out once). A non-OK answer throws an {@link ApiError}, whose message for
 * people (getErrorMessage) is the server's.
 */
export async function fetchApiFile(url: string, signal?: AbortSignal, method: 'GET' | 'POST' = 'GET'): Promise<ApiFile> {
  const response = await fetch(url, { method, credentials: 'include', signal: signal ?? null });
  await throwIfNotOk(response);
  return { blob: await response.blob(), fileName: fileNameOfDisposition(response.headers.get('content-disposition')) };
}

/** The file name of a Content-Disposition header: its UTF-8 `filename*` when there is one, else its `filename`. */
export function fileNameOfDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: the plain name below still names the file.
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? /filename=([^;]+)/i.exec(header)?.[1]?.trim() ?? null;
}

type QueryParamValue = string | number | boolean | null | undefined;

function isQueryParams(segment: unknown): segment is Record<string, QueryParamValue> {
  return typeof segment === 'object' && segment !== null && !Array.isArray(segment);
}

/**
 * Turns a query key into the URL it reads. String and number segments are path segments
 * joined with '/'; a segment that is a plain object becomes the query string,
 * skipping null and undefined values. `['api', 'stats', { season: 2025 }]` → `/api/stats?season=2025`.
 */
export function queryKeyToUrl(queryKey: QueryKey): string {
  const path: string[] = [];
  const params = new URLSearchParams();
  for (const segment of queryKey) {
    if (typeof segment === 'string') {
      for (const part of segment.split('/')) if (part) path.push(encodeURIComponent(part));
    } else if (typeof segment === 'number') {
      path.push(String(segment));
    } else if (isQueryParams(segment)) {
      for (const [name, value] of Object.entries(segment)) {
        if (value !== undefined && value !== null) params.append(name, String(value));
      }
    }
  }
  const search = params.toString();
  return `/${path.join('/')}${search ? `?${search}` : ''}`;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

export interface QueryFnOptions<S extends z.ZodType | undefined = undefined> {
  /** 'returnNull' resolves a 401 to null instead of throwing; the default throws. */
  on401?: UnauthorizedBehavior;
  schema?: S;
}

/** The default query function: GET the URL built from the query key and parse the JSON. */
export function getQueryFn<S extends z.ZodType>(
  options: QueryFnOptions<S> & { schema: S; on401: 'returnNull' },
): QueryFunction<z.output<S> | null>;
export function getQueryFn<S extends z.ZodType>(
  options: QueryFnOptions<S> & { schema: S },
): QueryFunction<z.output<S>>;
export function getQueryFn(options?: QueryFnOptions): QueryFunction<unknown>;
export function getQueryFn(options: QueryFnOptions<z.ZodType | undefined> = {}): QueryFunction<unknown> {
  const { on401 = 'throw', schema } = options;
  return async ({ queryKey, signal }) => {
    const url = queryKeyToUrl(queryKey);
    try {
      return await apiRequest('GET', url, undefined, { schema, signal });
    } catch (error) {
      if (on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  };
}
