import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../platform/errors';
import { parseJsonBody } from '../read-body';
import type { ProviderRequest } from './provider';

/**
 * What every adapter needs to read a delivery and check its proof: the body as JSON or as form fields, and
 * constant-time comparisons of secrets and signatures.
 */

export const isJsonType = (contentType: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim());
export const isUrlEncodedType = (contentType: string) => /^application\/x-www-form-urlencoded\b/i.test(contentType.trim());
export const isMultipartType = (contentType: string) => /^multipart\/form-data\b/i.test(contentType.trim());

/** The content types a delivery may come in; anything else is refused (415) before its body is read. */
export const isDeliveryType = (contentType: string) => isJsonType(contentType) || isUrlEncodedType(contentType) || isMultipartType(contentType);

/** The body as a JSON object; a delivery in another content type, or not an object, is refused in words. */
export function readJsonObject(request: ProviderRequest, provider: string): Record<string, unknown> {
  if (!isJsonType(request.contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${provider} sends its deliveries as application/json; this one came as ${describeType(request.contentType)}.`);
  }
  const body = parseJsonBody(request.rawBody);
  if (!isRecord(body)) throw new AppError('VALIDATION_FAILED', `This is not a ${provider} delivery: its body is not a JSON object.`);
  return body;
}

/**
 * The fields of a form-encoded or multipart body (a field sent twice keeps its last value). Multipart file
 * parts are passed over: a form builder names its files by link.
 */
export function readFormFields(request: ProviderRequest, provider: string): Map<string, string> {
  if (isUrlEncodedType(request.contentType)) return new Map(new URLSearchParams(request.rawBody.toString('utf8')));
  if (isMultipartType(request.contentType)) return readMultipartFields(request.rawBody, request.contentType);
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${provider} sends its deliveries as a form (multipart/form-data or application/x-www-form-urlencoded); this one came as ${describeType(request.contentType)}.`,
  );
}

const describeType = (contentType: string) => contentType.split(';', 1)[0]?.trim() || 'no content type';

const MAX_PARTS = 1_000;

/** The text parts of a multipart/form-data body held in memory, by name. */
export function readMultipartFields(body: Buffer, contentType: string): Map<string, string> {
  const boundary = /boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) throw new AppError('VALIDATION_FAILED', 'The multipart body names no boundary.');
  const malformed = () => new AppError('VALIDATION_FAILED', 'The multipart body is malformed or incomplete.');
  const delimiter = Buffer.from(`--${marker}`);
  const fields = new Map<string, string>();
  let at = body.indexOf(delimiter);
  if (at === -1) throw malformed();
  for (let parts = 0; ; parts++) {
    let start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return fields;
    if (parts >= MAX_PARTS) throw new AppError('VALIDATION_FAILED', `The multipart body has more than ${MAX_PARTS} parts.`);
    start += body[start] === 0x0d ? 2 : 1; // the line break after the delimiter
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), start);
    if (next === -1) throw malformed();
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) throw malformed();
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(headers)?.[1] ?? '';
    const name = /(?:^|;)\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? /(?:^|;)\s*name=([^;\s]+)/i.exec(disposition)?.[1];
    const isFile = /(?:^|;)\s*filename\*?=/i.test(disposition);
    if (name !== undefined && !isFile) fields.set(name, part.subarray(headerEnd + 4).toString('utf8'));
    at = next + 2;
  }
}

/** Whether `given` is `secret`, compared in constant time whatever their lengths. */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/** Whether a signature header is `prefix` + the HMAC-SHA256 of `data` under `secret`, in `encoding`. Constant-time. */
export function hmacMatches(given: string | undefined, secret: string, data: Buffer | string, encoding: 'base64' | 'hex', prefix = ''): boolean {
  const expected = `${prefix}${createHmac('sha256', secret).update(data).digest(encoding)}`;
  return sameSecret(given?.trim(), expected);
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value of a delivery as text: strings as they are, numbers and booleans written out, lists and objects by their parts. */
export function textOf(value: unknown, separator = ', '): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const parts = (Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [])
    .map((part) => textOf(part, separator))
    .filter((part): part is string => part !== null && part.trim() !== '');
  return parts.length === 0 ? null : parts.join(separator);
}

/** The file name at the end of a link (decoded), or `fallback` when it has none with an extension. */
export function fileNameOf(url: string, fallback: string): string {
  let segment = '';
  try {
    segment = new URL(url).pathname.split('/').pop() ?? '';
    segment = decodeURIComponent(segment);
  } catch {
    // a malformed link or escape: the fallback names it, and the download refuses the link itself
  }
  return /\.[a-z0-9]{1,8}$/i.test(segment) ? segment : fallback;
}

/** Whether a host is `domain` or one of its subdomains. */
export const isHostUnder = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
