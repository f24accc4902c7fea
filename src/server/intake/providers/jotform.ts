import { AppError } from '../../platform/errors';
import { fileNameOf, isHostUnder, isRecord, readFormFields, sameSecret } from './body-fields';
import type { ProviderAdapter, ProviderAnswer, ProviderFile } from './provider';

/**
 * Jotform's webhook (Settings → Integrations → WebHooks; https://www.jotform.com/help/245-how-to-setup-a-webhook-with-jotform/):
 * a multipart/form-data POST with `formID`, `submissionID`, `formTitle`, `pretty` and `rawRequest`, the
 * submitted form as JSON. Jotform cannot sign a delivery, so the secret is a token in the webhook address.
 *
 * rawRequest keys each answer `q<N>_<name>`, where `<name>` is the question's unique name (made from the
 * first words of its label when the question was added, and kept when the label changes): the stable key
 * of the mapping. Names, dates and addresses are objects of their parts (`{ month, day, year }`). An upload
 * question appears under `temp_upload` as `q<N>_<name>`, and its files as links under `<name>`.
 *
 * Labels are not in rawRequest: they are in `pretty`, "Label:answer, Label:answer" in the form's order
 * (uploads last, as their file names), both of which may hold ", " and ":". Each answered question's label is
 * found by walking `pretty` with the answers as rawRequest has them, in the same order; a question not found
 * there (unanswered, or written differently) is labelled from its unique name, and a mapping set in
 * Settings → Integrations finds it whatever its label.
 *
 * Files stay on jotform.com; a form set to require a login to view uploads is downloaded with the account's
 * API key in the APIKEY header (https://api.jotform.com/docs/#authentication).
 */
export const jotform: ProviderAdapter = {
  id: 'jotform',
  authKind: 'token',
  verify: (request, secret) => sameSecret(request.token, secret),
  parse(request) {
    const fields = readFormFields(request, 'Jotform');
    const submissionId = fields.get('submissionID')?.trim();
    const raw = fields.get('rawRequest');
    if (!submissionId || raw === undefined) {
      throw new AppError('VALIDATION_FAILED', 'This is not a Jotform webhook delivery: it has no submissionID or no rawRequest.');
    }
    let answers: unknown;
    try {
      answers = JSON.parse(raw) as unknown;
    } catch {
      throw new AppError('VALIDATION_FAILED', 'The Jotform delivery’s rawRequest is not valid JSON.');
    }
    if (!isRecord(answers)) throw new AppError('VALIDATION_FAILED', 'The Jotform delivery’s rawRequest is not a JSON object.');
    return { externalId: submissionId, answers: readAnswers(answers, fields.get('pretty') ?? '') };
  },
  fileHosts: ['jotform.com'],
  downloadHeaders(downloadKey, url): Record<string, string> {
    return downloadKey !== undefined && isHostUnder(url.hostname, 'jotform.com') ? { APIKEY: downloadKey } : {};
  },
};

const QUESTION_KEY = /^q(\d+)_(.+)$/;

type Read = { answer: ProviderAnswer; pretty: string };

function readAnswers(raw: Record<string, unknown>, pretty: string): ProviderAnswer[] {
  const texts: Read[] = [];
  const uploads: Read[] = [];
  const uploadKeys = isRecord(raw.temp_upload) ? Object.keys(raw.temp_upload).filter((key) => QUESTION_KEY.test(key)) : [];
  for (const [key, value] of Object.entries(raw)) {
    const name = QUESTION_KEY.exec(key)?.[2];
    if (name === undefined || uploadKeys.includes(key)) continue;
    const links = uploadLinks(value, /^https:\/\/[^/]+\/uploads\//);
    if (links) uploads.push(upload(key, name, links));
    else texts.push({ answer: { key, label: labelFromName(name), value: answerText(value), files: [] }, pretty: partsOf(value).join(' ') });
  }
  for (const key of uploadKeys) {
    const name = QUESTION_KEY.exec(key)?.[2] ?? key;
    uploads.push(upload(key, name, uploadLinks(raw[name], /^https?:\/\//) ?? []));
  }
  // pretty lists the other answers first, then the uploads.
  const ordered = [...texts, ...uploads];
  const labels = labelsFromPretty(pretty, ordered);
  return ordered.map(({ answer }) => ({ ...answer, label: labels.get(answer.key) ?? answer.label }));
}

function upload(key: string, name: string, links: string[]): Read {
  const files: ProviderFile[] = links.map((url) => ({ kind: 'url', url, filename: fileNameOf(url, labelFromName(name)) }));
  return { answer: { key, label: labelFromName(name), value: null, files }, pretty: files.map((file) => file.filename).join(' ') };
}

/**
 * The links of an upload question, every item of the list a link of this form: any link under `temp_upload`'s
 * name; only links to Jotform's `/uploads/` for an answer that is not declared an upload.
 */
function uploadLinks(value: unknown, form: RegExp): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const links = value.filter((item): item is string => typeof item === 'string' && form.test(item));
  return links.length === value.length ? links : undefined;
}

/** An answer's parts as Jotform wrote them: a text, each item of a list, each part of a name, date or address. */
function partsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(partsOf);
  return isRecord(value) ? Object.values(value).flatMap(partsOf) : [];
}

/**
 * An answer as text: a date's parts as YYYY-MM-DD, a list's items joined by commas, a name's or an address's
 * parts by spaces, HTML escapes undone; null when unanswered.
 */
function answerText(value: unknown): string | null {
  if (isRecord(value) && isDateParts(value)) {
    const { year, month, day } = value;
    return year && month && day ? `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` : null;
  }
  const text = Array.isArray(value) ? value.flatMap(partsOf).join(', ') : partsOf(value).join(' ');
  return text === '' ? null : decodeEntities(text);
}

const isDateParts = (value: Record<string, unknown>): value is { year: string; month: string; day: string } =>
  typeof value.year === 'string' && typeof value.month === 'string' && typeof value.day === 'string';

const ENTITIES: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>', '#039': "'", '#39': "'" };
const decodeEntities = (text: string) => text.replace(/&(quot|apos|amp|lt|gt|#0?39);/g, (whole, name: string) => ENTITIES[name] ?? whole);

/** "parentguardianEmail" → "Parentguardian email": a question's unique name, worded as a label. */
function labelFromName(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Each answer's label from `pretty`: walking it from the start, an answer's entry is the first ":<answer>"
 * that ends the text or is followed by ", ", and its label is what lies between the previous entry and it.
 * An answer not found is skipped, leaving the walk where it was.
 */
function labelsFromPretty(pretty: string, answers: readonly Read[]): Map<string, string> {
  const labels = new Map<string, string>();
  let cursor = 0;
  for (const { answer, pretty: written } of answers) {
    if (written === '') continue;
    const needle = `:${written}`;
    let at = pretty.indexOf(needle, cursor);
    while (at !== -1 && !(at + needle.length === pretty.length || pretty.startsWith(', ', at + needle.length))) {
      at = pretty.indexOf(needle, at + 1);
    }
    if (at === -1) continue;
    const label = decodeEntities(pretty.slice(cursor, at)).trim();
    if (label !== '') labels.set(answer.key, label);
    cursor = at + needle.length + 2;
  }
  return labels;
}
