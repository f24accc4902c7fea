import { fileNameOf, httpUrl, isFormEncoded, readForm, readJson, refusal, sameSecret, textOrNull } from './delivery-body';
import type { ProviderAdapter, ProviderAnswer, ProviderFile, ProviderRequest } from './provider';

/**
 * The Gravity Forms Webhooks Add-On (Form Settings → Webhooks, https://docs.gravityforms.com/triggering-webhooks-form-submissions/)
 * with Request Format JSON and Request Body "All Fields" posts the whole entry object
 * (https://docs.gravityforms.com/entry-object/): `id`, `form_id`, `date_created` and the other entry
 * properties, and each answer under its field id: "4" for a one-input field, "3.3" and "3.6" for the first
 * and last name inputs of a Name field, a File Upload field's link (or, for a multi-file field, a JSON array
 * of links, as text). The body carries no labels: each question is labelled by its key, and Settings →
 * Integrations maps the form's fields to those ids. With "Select Fields" instead, the registrar chooses each
 * key, so keys written as Clearbase's labels ("Player first name") are found without a mapping; the entry id
 * must then be sent under the key `id`. Requests sent as FORM (urlencoded) are read the same way.
 * Gravity Forms cannot sign, so the secret is the token of the webhook address. Files are served by the
 * WordPress site itself: its host must be listed in FORM_FILE_HOSTS.
 */

/** Entry properties that are not answers. */
const ENTRY_PROPERTIES = new Set([
  'id',
  'form_id',
  'created_by',
  'date_created',
  'date_updated',
  'is_starred',
  'is_read',
  'ip',
  'source_url',
  'post_id',
  'user_agent',
  'status',
  'currency',
  'payment_status',
  'payment_date',
  'payment_amount',
  'payment_method',
  'transaction_id',
  'is_fulfilled',
  'transaction_type',
  'source_id',
]);

/** Extensions of the documents a league collects, for upload links outside Gravity Forms' own folder. */
const DOCUMENT_EXTENSION = /\.(pdf|jpe?g|png|heic|heif|tiff?)$/i;

/**
 * Whether a link is an uploaded file: Gravity Forms keeps uploads under wp-content/uploads/gravity_forms/,
 * and its protected download links carry `gf-download`; a link ending in a document's extension is one too.
 */
function uploadOf(text: string): URL | undefined {
  const url = httpUrl(text);
  if (url === undefined) return undefined;
  const isUpload = url.pathname.includes('/gravity_forms/') || url.searchParams.has('gf-download') || DOCUMENT_EXTENSION.test(url.pathname);
  return isUpload ? url : undefined;
}

function fileOf(url: URL, key: string, index: number): ProviderFile {
  const download = url.searchParams.get('gf-download');
  const fallback = `field-${key}-${index + 1}`;
  const filename = download !== null ? (download.split('/').filter((part) => part !== '').at(-1) ?? fallback) : fileNameOf(url, fallback);
  return { kind: 'url', url: url.toString(), filename };
}

/** A multi-file upload's value: a JSON array of links, as text. */
function linksOf(text: string): string[] | undefined {
  if (!text.trim().startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function answerOf(key: string, raw: unknown): ProviderAnswer | undefined {
  const answer = (value: string | null, files: ProviderFile[] = []): ProviderAnswer => ({ key, label: key, value, files });
  const filesOf = (links: string[]) => {
    const uploads = links.map(uploadOf);
    return uploads.every((url) => url !== undefined) ? uploads.map((url, index) => fileOf(url, key, index)) : undefined;
  };
  if (raw === null || raw === undefined) return answer(null);
  if (typeof raw === 'number' || typeof raw === 'boolean') return answer(String(raw));
  if (Array.isArray(raw)) {
    const texts = raw.filter((item): item is string | number => typeof item === 'string' || typeof item === 'number').map(String);
    const files = texts.length > 0 ? filesOf(texts) : undefined;
    return files !== undefined ? answer(null, files) : answer(textOrNull(texts.join(', ')));
  }
  if (typeof raw !== 'string') return undefined;
  const links = linksOf(raw);
  if (links !== undefined) {
    const files = links.length > 0 ? filesOf(links) : [];
    if (files !== undefined) return answer(null, files);
  }
  const upload = uploadOf(raw);
  return upload !== undefined ? answer(null, [fileOf(upload, key, 0)]) : answer(textOrNull(raw));
}

function entryOf(request: ProviderRequest): Record<string, unknown> {
  if (isFormEncoded(request)) return Object.fromEntries(readForm(request));
  const json = readJson(request, 'Gravity Forms');
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw refusal('The Gravity Forms delivery is not an entry: set the webhook\'s Request Format to JSON and its Request Body to All Fields.');
  }
  return Object.fromEntries(Object.entries(json));
}

export const gravityAdapter: ProviderAdapter = {
  id: 'gravity',
  authKind: 'token',
  verify(request, secret) {
    return sameSecret(request.token, secret);
  },
  parse(request) {
    const entry = entryOf(request);
    const id = entry['id'];
    const externalId = typeof id === 'number' ? String(id) : typeof id === 'string' ? textOrNull(id) : null;
    if (externalId === null || externalId.length > 200) {
      throw refusal('The Gravity Forms delivery has no entry id. Send All Fields, or add a field value with the key "id" set to Entry ID.');
    }
    const answers = Object.entries(entry)
      .filter(([key]) => !ENTRY_PROPERTIES.has(key))
      .map(([key, value]) => answerOf(key, value))
      .filter((answer) => answer !== undefined);
    return { externalId, answers };
  },
  fileHosts: [],
};
