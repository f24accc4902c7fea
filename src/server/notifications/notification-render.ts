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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A calendar date (YYYY-MM-DD) as a short day: '1 Sep 2026'. */
export function formatShortDay(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  const name = MONTHS[(month ?? 1) - 1];
  return name && year && day ? `${day} ${name} ${year}` : isoDate;
}

/** What a family has to send for a player: the types missing (or lapsed), and the met ones lapsing soon, with their day. */
export type NeededDocuments = { missing: readonly TDocType[]; expiring: ReadonlyArray<{ docType: TDocType; on: string }> };

/**
 * The documents a reminder names: the missing ones, then those expiring soon with their day, e.g.
 * 'Birth Certificate and Medical Form (expires 1 Sep 2026)'.
 */
export function describeNeededDocuments(needed: NeededDocuments): string {
  const labels = [
    ...needed.missing.map((type) => DOC_TYPE_LABELS[type]),
    ...needed.expiring.map((item) => `${DOC_TYPE_LABELS[item.docType]} (expires ${formatShortDay(item.on)})`),
  ];
  if (labels.length <= 1) return labels[0] ?? 'none';
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) ?? ''}`;
}

/** 'Medical Form', 'Medical Form and Liability Waiver', 'Birth Certificate, Medical Form and Liability Waiver'. */
export const describeDocTypes = (types: readonly TDocType[]): string => describeNeededDocuments({ missing: types, expiring: [] });

/** A date as families read it: 'Friday, 14 November 2025' (UTC, the date field has no time). */
export function formatDeadline(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
