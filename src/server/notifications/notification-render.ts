import { DOC_TYPE_LABELS, findPlaceholders, NOTIFICATION_PLACEHOLDERS, type TDocType, type TPlaceholder } from '../../contract';

/** The values of one message's placeholders; one left out renders empty. */
export type PlaceholderValues = Partial<Record<TPlaceholder, string>>;

/** A template's text names a placeholder Clearbase does not know. Saved templates are checked, so this is a safety net. */
export class UnknownPlaceholderError extends Error {
  constructor(readonly names: string[]) {
    super(`Unknown placeholder${names.length > 1 ? 's' : ''} ${names.map((name) => `{{${name}}}`).join(', ')} in the template.`);
    this.name = 'UnknownPlaceholderError';
  }
}

const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

function assertKnown(template: string): void {
  const unknown = findPlaceholders(template).filter((name) => !(name in NOTIFICATION_PLACEHOLDERS));
  if (unknown.length > 0) throw new UnknownPlaceholderError(unknown);
}

/** Plain text (the text part of an e-mail, chat messages, subjects): values go in as they are. */
export function renderText(template: string, values: PlaceholderValues): string {
  assertKnown(template);
  return template.replace(PLACEHOLDER_PATTERN, (_match, name: string) => values[name as TPlaceholder] ?? '');
}

/**
 * The HTML part of an e-mail. The template is plain text too, so both it and every value are escaped (a
 * guardian named `<b>Sam</b>` reads as typed, never as markup), and line breaks become <br>.
 */
export function renderHtml(template: string, values: PlaceholderValues): string {
  assertKnown(template);
  const parts: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER_PATTERN)) {
    parts.push(escapeHtml(template.slice(last, match.index)));
    parts.push(escapeHtml(values[(match[1] ?? '') as TPlaceholder] ?? ''));
    last = match.index + match[0].length;
  }
  parts.push(escapeHtml(template.slice(last)));
  const body = parts.join('').replace(/\r?\n/g, '<br>\n');
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#111">${body}</body></html>`;
}

/** 'Medical Form', 'Medical Form and Liability Waiver', 'Birth Certificate, Medical Form and Liability Waiver'. */
export function describeDocTypes(types: readonly TDocType[]): string {
  const labels = types.map((type) => DOC_TYPE_LABELS[type]);
  if (labels.length <= 1) return labels[0] ?? 'none';
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) ?? ''}`;
}

/** A date as families read it: 'Friday, 14 November 2025' (UTC, the date field has no time). */
export function formatDeadline(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
