import { AppError } from '../../platform/errors';
import { fileNameOf, hmacMatches, isHostUnder, isRecord, readJsonObject, textOf } from './body-fields';
import type { ProviderAdapter, ProviderAnswer } from './provider';

/**
 * Typeform's webhook, JSON (https://www.typeform.com/developers/webhooks/example-payload/):
 * `{ event_id, event_type: 'form_response', form_response: { form_id, token, submitted_at, hidden,
 * definition: { fields: [{ id, ref, type, title }] }, answers: [{ field: { id, ref, type }, type, <type>: value }] } }`.
 * The answer's value sits under its `type`: text, email, date (YYYY-MM-DD), phone_number, url, number,
 * boolean, choice `{ label }`, choices `{ labels }`, file_url. A question is keyed by its field id, which
 * stays when its title changes; hidden fields (`?season=2025` in the form's link) are answers keyed
 * `hidden:<name>`. `form_response.token` identifies the response: a resend carries the same one.
 *
 * Signed with the webhook's secret (https://www.typeform.com/developers/webhooks/secure-your-webhooks/):
 * `Typeform-Signature: sha256=<base64 of the HMAC-SHA256 of the raw body>`.
 *
 * Files are served by the Responses API (api.typeform.com), which wants a personal access token:
 * `Authorization: Bearer <token>`, the download key set in Settings → Integrations.
 */
export const typeform: ProviderAdapter = {
  id: 'typeform',
  authKind: 'signature',
  verify: (request, secret) => hmacMatches(request.headers['typeform-signature'], secret, request.rawBody, 'base64', 'sha256='),
  parse(request) {
    const body = readJsonObject(request, 'Typeform');
    if (body.event_type !== 'form_response') {
      throw new AppError('VALIDATION_FAILED', `Only form responses are received from Typeform; this delivery is "${String(body.event_type).slice(0, 40)}".`);
    }
    const response = body.form_response;
    if (!isRecord(response) || typeof response.token !== 'string' || response.token.trim() === '') {
      throw new AppError('VALIDATION_FAILED', 'This is not a Typeform response: it has no form_response.token.');
    }
    const definition = isRecord(response.definition) && Array.isArray(response.definition.fields) ? response.definition.fields.filter(isRecord) : [];
    const given = new Map<string, Record<string, unknown>>();
    for (const answer of Array.isArray(response.answers) ? response.answers.filter(isRecord) : []) {
      const id = isRecord(answer.field) ? answer.field.id : undefined;
      if (typeof id === 'string' && !given.has(id)) given.set(id, answer);
    }
    const answers: ProviderAnswer[] = definition.flatMap((field) => {
      if (typeof field.id !== 'string') return [];
      const label = typeof field.title === 'string' ? field.title : field.id;
      return [readAnswer(field.id, label, given.get(field.id))];
    });
    // An answer to a question the definition leaves out is kept, labelled by its ref.
    for (const [id, answer] of given) {
      if (definition.some((field) => field.id === id)) continue;
      const ref = isRecord(answer.field) && typeof answer.field.ref === 'string' ? answer.field.ref : id;
      answers.push(readAnswer(id, ref, answer));
    }
    if (isRecord(response.hidden)) {
      for (const [name, value] of Object.entries(response.hidden)) answers.push({ key: `hidden:${name}`, label: name, value: textOf(value), files: [] });
    }
    return { externalId: response.token, answers };
  },
  fileHosts: ['typeform.com'],
  downloadHeaders(downloadKey, url): Record<string, string> {
    return downloadKey !== undefined && isHostUnder(url.hostname, 'typeform.com') ? { authorization: `Bearer ${downloadKey}` } : {};
  },
};

function readAnswer(key: string, label: string, answer: Record<string, unknown> | undefined): ProviderAnswer {
  if (answer === undefined) return { key, label, value: null, files: [] };
  const type = typeof answer.type === 'string' ? answer.type : '';
  const value = answer[type];
  if (type === 'file_url') {
    return { key, label, value: null, files: typeof value === 'string' && value !== '' ? [{ kind: 'url', url: value, filename: fileNameOf(value, label) }] : [] };
  }
  if (type === 'choice' && isRecord(value)) return { key, label, value: textOf(value.label ?? value.other), files: [] };
  if (type === 'choices' && isRecord(value)) {
    const labels: unknown[] = Array.isArray(value.labels) ? value.labels : [];
    return { key, label, value: textOf([...labels, value.other]), files: [] };
  }
  return { key, label, value: textOf(value), files: [] };
}
