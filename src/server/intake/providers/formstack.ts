import { AppError } from '../../platform/errors';
import { fileNameOf, isHostUnder, isJsonType, isRecord, readFormFields, readJsonObject, sameSecret, textOf } from './body-fields';
import type { ProviderAdapter, ProviderAnswer, ProviderRequest } from './provider';

/**
 * Formstack's webhook (https://developers.formstack.com/docs/webhook-setup and
 * https://developers.formstack.com/docs/webhook-examples): a POST, URL-encoded or JSON as the webhook is set,
 * with `FormID`, `UniqueID` (the submission) and each field keyed by its name (the default, which is its
 * label), its id, or an API-friendly key. A field of parts (a name, an address) is an object in JSON and
 * "first = John\nlast = Smith" when URL-encoded; with "include field types" each field is
 * `{ value, field_type }` (or its parts and `field_type`). An upload is a link to the file.
 *
 * Formstack cannot sign a delivery: the webhook's Handshake Key, sent as the `HandshakeKey` field, is the
 * secret, compared in constant time. A field is keyed as Formstack keys it, so the mapping follows whichever
 * of the three the webhook uses.
 *
 * Files are on formstack.com, as links (https://developers.formstack.com/docs/submission-id-get: "File uploads
 * and signatures are both returned as URLs"); the download key, when set, is sent as the API's OAuth bearer token.
 */
export const formstack: ProviderAdapter = {
  id: 'formstack',
  authKind: 'handshake',
  verify(request, secret) {
    try {
      return sameSecret(textOf(readBody(request).HandshakeKey) ?? undefined, secret);
    } catch {
      return false;
    }
  },
  parse(request) {
    const body = readBody(request);
    const uniqueId = textOf(body.UniqueID)?.trim();
    if (!uniqueId) throw new AppError('VALIDATION_FAILED', 'This is not a Formstack webhook delivery: it has no UniqueID.');
    const answers: ProviderAnswer[] = Object.entries(body)
      .filter(([key]) => !RESERVED.has(key))
      .map(([key, value]) => readField(key, value));
    return { externalId: uniqueId, answers };
  },
  fileHosts: ['formstack.com'],
  downloadHeaders(downloadKey, url): Record<string, string> {
    return downloadKey !== undefined && isHostUnder(url.hostname, 'formstack.com') ? { authorization: `Bearer ${downloadKey}` } : {};
  },
};

/** Formstack's own fields of a delivery, not answers. */
const RESERVED = new Set(['FormID', 'UniqueID', 'HandshakeKey']);

/** The body as key → value, from JSON, or from a form with each field of parts turned into its object. */
function readBody(request: ProviderRequest): Record<string, unknown> {
  if (isJsonType(request.contentType)) return readJsonObject(request, 'Formstack');
  return Object.fromEntries([...readFormFields(request, 'Formstack')].map(([key, value]) => [key, partsOfText(value)]));
}

/** "first = John\nlast = Smith" as `{ first, last }`; any other text as it is. */
function partsOfText(value: string): string | Record<string, string> {
  const lines = value.split(/\r?\n/);
  const parts = lines.map((line) => /^([\w-]+) = (.*)$/.exec(line));
  if (lines.length < 2 || parts.some((part) => part === null)) return value;
  return Object.fromEntries(parts.flatMap((part) => (part?.[1] === undefined ? [] : [[part[1], part[2] ?? '']])));
}

function readField(key: string, raw: unknown): ProviderAnswer {
  const label = key;
  const typed = isRecord(raw) && typeof raw.field_type === 'string' ? raw.field_type : undefined;
  const value: unknown = isRecord(raw) ? ('value' in raw ? raw.value : Object.fromEntries(Object.entries(raw).filter(([part]) => part !== 'field_type'))) : raw;
  const text = typeof value === 'string' ? value.trim() : undefined;
  const isUpload = typed === 'file' || (typed === undefined && text !== undefined && isFormstackLink(text));
  if (isUpload && text) return { key, label, value: null, files: [{ kind: 'url', url: text, filename: fileNameOf(text, label.replace(/:$/, '')) }] };
  return { key, label, value: textOf(value, ' '), files: [] };
}

/** A link to a file kept by Formstack: what an upload field holds when the webhook does not send field types. */
function isFormstackLink(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && isHostUnder(url.hostname, 'formstack.com');
  } catch {
    return false;
  }
}
