import type { z } from 'zod';
import { AppError } from '../../platform/errors';
import { fieldErrors } from '../form/form-webhook';
import { sameSecret as sameSecretAnyLength } from './body-fields';
import type { ProviderRequest } from './provider';

/**
 * Small pieces the Google Forms, Cognito Forms, Gravity Forms and Wufoo adapters share: reading a body,
 * comparing a secret, and turning a provider's field names into the question labels a registrar wrote.
 */

/**
 * Whether `given` is `secret`, in constant time whatever either length (body-fields' comparison, which hashes
 * both first). An empty value never matches, whatever the other side holds.
 */
export function sameSecret(given: string | undefined, secret: string): boolean {
  return given !== undefined && given !== '' && secret !== '' && sameSecretAnyLength(given, secret);
}

export function refusal(message: string, details?: Array<{ path: string; message: string }>): AppError {
  return new AppError('VALIDATION_FAILED', message, details);
}

/** The body as JSON, or a refusal naming the provider. */
export function readJson(request: ProviderRequest, providerName: string): unknown {
  try {
    return JSON.parse(request.rawBody.toString('utf8')) as unknown;
  } catch {
    throw refusal(`The ${providerName} delivery is not JSON. Check that the webhook posts JSON to Clearbase.`);
  }
}

export function isFormEncoded(request: ProviderRequest): boolean {
  return request.contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/** The body as `application/x-www-form-urlencoded` fields. */
export function readForm(request: ProviderRequest): URLSearchParams {
  return new URLSearchParams(request.rawBody.toString('utf8'));
}

/** A zod schema's verdict on a provider body, refused with every bad field named. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, providerName: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = fieldErrors(result.error);
  throw refusal(`The ${providerName} delivery is not in the expected shape. ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}

/** A trimmed text, or null when nothing was answered. */
export function textOrNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** An http(s) address, or undefined for anything else. */
export function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The file name an address ends with (decoded), or `fallback` when it ends with none. */
export function fileNameOf(url: URL, fallback: string): string {
  const last = url.pathname.split('/').filter((part) => part !== '').at(-1);
  if (last === undefined) return fallback;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * A PascalCase field name written back as words, as the registrar labelled the question: "PlayerDateOfBirth"
 * reads "Player date of birth", "ParentGuardianEmail" reads "Parent guardian email" (the mapper compares
 * labels without case, spaces or punctuation, so that matches "Parent/guardian e-mail"). Acronyms stay
 * whole: "PlayerDOB" reads "Player DOB".
 */
export function labelFromFieldName(name: string): string {
  const words = name
    .replace(/[_\s]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
  return words.map((word, index) => (index === 0 || /^[A-Z0-9]{2,}$/.test(word) ? word : word.toLowerCase())).join(' ');
}

/**
 * The label of one part of a name question: "Player name" gives "Player first name" and "Player last name",
 * the labels the form's player fields are found by; "Player" gives the same.
 */
export function namePartLabel(questionLabel: string, part: 'first' | 'last'): string {
  const base = questionLabel.trim().replace(/\s*\bname$/i, '');
  return base === '' ? `${part === 'first' ? 'First' : 'Last'} name` : `${base} ${part} name`;
}
