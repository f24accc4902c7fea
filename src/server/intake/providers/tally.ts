import { AppError } from '../../platform/errors';
import { hmacMatches, isRecord, readJsonObject, textOf } from './body-fields';
import type { ProviderAdapter, ProviderAnswer, ProviderFile } from './provider';

/**
 * Tally's webhook, JSON (https://tally.so/help/webhooks, "Example webhook event"):
 * `{ eventId, eventType: 'FORM_RESPONSE', createdAt, data: { responseId, submissionId, respondentId, formId,
 * formName, createdAt, fields: [{ key, label, type, value, options? }] } }`. A question is keyed by its
 * `key` (`question_…`), which stays when its label changes. A choice question (DROPDOWN, MULTIPLE_CHOICE,
 * CHECKBOXES, MULTI_SELECT, RANKING) answers with the ids of its `options` `[{ id, text }]`; a FILE_UPLOAD
 * with `[{ id, name, url, mimeType, size }]`, links to storage.tally.so that carry their own access token.
 * `responseId` identifies the response: a resend carries the same one.
 *
 * Signed with the webhook's signing secret: `Tally-Signature: <base64 of the HMAC-SHA256 of the JSON
 * payload>`. Tally's own example computes it over JSON.stringify of the parsed payload, which is the body
 * as sent; both that and the raw body are accepted.
 */
export const tally: ProviderAdapter = {
  id: 'tally',
  authKind: 'signature',
  verify(request, secret) {
    const signature = request.headers['tally-signature'];
    if (hmacMatches(signature, secret, request.rawBody, 'base64')) return true;
    try {
      return hmacMatches(signature, secret, JSON.stringify(JSON.parse(request.rawBody.toString('utf8'))), 'base64');
    } catch {
      return false;
    }
  },
  parse(request) {
    const body = readJsonObject(request, 'Tally');
    if (body.eventType !== 'FORM_RESPONSE') {
      throw new AppError('VALIDATION_FAILED', `Only form responses (FORM_RESPONSE) are received from Tally; this delivery is "${String(body.eventType).slice(0, 40)}".`);
    }
    const data = body.data;
    const responseId = isRecord(data) ? (data.responseId ?? data.submissionId) : undefined;
    if (!isRecord(data) || typeof responseId !== 'string' || responseId.trim() === '' || !Array.isArray(data.fields)) {
      throw new AppError('VALIDATION_FAILED', 'This is not a Tally form response: it has no data.responseId or no data.fields.');
    }
    const seen = new Set<string>();
    const answers: ProviderAnswer[] = [];
    for (const field of data.fields.filter(isRecord)) {
      if (typeof field.key !== 'string' || seen.has(field.key)) continue;
      seen.add(field.key);
      answers.push(readField(field.key, field));
    }
    return { externalId: responseId, answers };
  },
  fileHosts: ['tally.so'],
};

const CHOICE_TYPES = new Set(['DROPDOWN', 'MULTIPLE_CHOICE', 'CHECKBOXES', 'MULTI_SELECT', 'RANKING']);

function readField(key: string, field: Record<string, unknown>): ProviderAnswer {
  const label = typeof field.label === 'string' && field.label.trim() !== '' ? field.label : key;
  if (field.type === 'FILE_UPLOAD') {
    const files: ProviderFile[] = (Array.isArray(field.value) ? field.value.filter(isRecord) : []).flatMap((file) =>
      typeof file.url === 'string' ? [{ kind: 'url' as const, url: file.url, filename: typeof file.name === 'string' ? file.name : label }] : [],
    );
    return { key, label, value: null, files };
  }
  if (typeof field.type === 'string' && CHOICE_TYPES.has(field.type) && Array.isArray(field.options)) {
    const options = new Map<unknown, unknown>(field.options.filter(isRecord).map((option) => [option.id, option.text]));
    const ids: unknown[] = Array.isArray(field.value) ? field.value : [field.value];
    const chosen = ids.map((id) => options.get(id) ?? id);
    return { key, label, value: textOf(chosen), files: [] };
  }
  return { key, label, value: textOf(field.value), files: [] };
}
