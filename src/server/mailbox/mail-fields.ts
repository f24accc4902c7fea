/**
 * What a parsed e-mail means to the pipeline: which parts are documents (selectAttachments), who the
 * player is (readPlayerDetails), and which document each attachment is (attachmentDocType). Pure: the
 * mailbox adapter parses the message (mailparser decodes encoded words, charsets and transfer
 * encodings), and this module only reads the decoded strings and part facts, in any script.
 *
 * Where details come from, strongest first: `Key: value` lines of the sender's own text (quoted replies
 * left out, see readOwnText), then the subject, where a player name is only read from a clear pattern
 * (see readSubject). Values are never guessed: a date that could be two dates, a name that could be
 * words, or two children in one mail make the mail fail with a sentence staff can act on.
 */
import { z } from 'zod';
import { DIVISIONS, type TDivision, type TDocType } from '../../contract';
import { detectDocType } from '../files';
import { sanitizeOriginalFilename } from '../files';
import { normaliseName } from '../players';

/** One MIME part as mailparser lists it among `attachments` (size in decoded bytes). */
export type MailPartInfo = {
  filename: string | null;
  contentType: string;
  disposition: 'attachment' | 'inline' | null;
  contentId: string | null;
  size: number;
};

/** As many files as the form webhook takes in one submission: four documents, a few pages each. */
export const MAX_MAIL_DOCUMENTS = 12;

/**
 * Smaller images in the message body are decoration (logos, signatures, social icons, tracking pixels);
 * no legible photo or scan of a document is this small.
 */
export const DECORATION_MAX_BYTES = 20 * 1024;

export type RefusedPartCode = 'TOO_MANY_ATTACHMENTS' | 'WINMAIL_DAT' | 'ENCRYPTED_MAIL';

export type AttachmentSelection = {
  /** Parts to send through the pipeline, in message order, with a name safe to show. */
  documents: Array<{ index: number; filename: string }>;
  /** Files the sender meant as documents that will not be processed: record them as refused, with the message. */
  refused: Array<{ index: number; filename: string; code: RefusedPartCode; message: string }>;
  /** Parts that are not documents at all, and why. */
  skipped: Array<{ index: number; reason: string }>;
  /** Set when there is nothing to process: one sentence for the staff member. */
  error: string | null;
};

const SKIP = {
  attachedEmail: 'An attached e-mail (.eml), not a document',
  calendar: 'A calendar invitation, not a document',
  contactCard: 'A contact card, not a document',
  digitalSignature: "The e-mail's digital signature, not a document",
  bodyText: 'Text of the message, not a document',
  bodyImage: 'A small image in the message body (logo or signature), not a document',
  logo: 'A logo or signature image, not a document',
} as const;

const REFUSE: Record<RefusedPartCode, string> = {
  TOO_MANY_ATTACHMENTS: `Only the first ${MAX_MAIL_DOCUMENTS} attachments of an e-mail are processed; ask the sender to send this one again`,
  WINMAIL_DAT: 'Outlook packed the attachments into winmail.dat; ask the sender to send them again as ordinary attachments',
  ENCRYPTED_MAIL: 'The e-mail is encrypted (smime.p7m) and cannot be read; ask the sender to send it unencrypted',
};

export const NO_ATTACHMENTS_ERROR = 'No attachments found in the e-mail';
export const NO_DOCUMENTS_ERROR = 'No PDF or image attachments found in the e-mail';
export const ONLY_ATTACHED_EMAIL_ERROR = 'No documents found in the e-mail: attached e-mails (.eml) are not opened; ask the sender to attach the documents themselves';

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'jpe', 'jfif', 'png', 'gif', 'bmp', 'webp', 'heic', 'heif', 'tif', 'tiff', 'svg']);

/** Outlook's image001.png, Word's ~WRD0000.jpg, and what signatures and newsletters name their pictures. */
const LOGO_NAME = /^image\d{3}$|^~?wrd\d+$|logo|signature|^sig$|banner|icon|spacer|pixel|facebook|twitter|instagram|linkedin|youtube|tiktok/;

/**
 * Which parts of a message are documents. Skipped, as not documents: attached e-mails (message/rfc822,
 * .eml, .msg), calendar invitations, contact cards, digital signatures, the text parts of the body, and
 * decoration: images under DECORATION_MAX_BYTES that sit in the body (no attachment disposition) or are
 * named like a logo or signature (image001.png, logo.png …).
 *
 * A larger image in the body is kept as a document, even when it is inline and referenced by a cid:
 * Apple Mail and phone mail apps put photos inserted into a message exactly that way, and a parent who
 * pastes a photographed birth certificate into the body is sending it. A logo kept by mistake only
 * waits for review; a document skipped by mistake is lost without anyone seeing it.
 *
 * Whether a kept part really is a PDF or an image is the pipeline's job (from its bytes, never the
 * Content-Type): a .docx is passed on and refused there with a message staff can act on.
 * winmail.dat (Outlook's TNEF) and smime.p7m hold the real attachments where we cannot read them, and
 * parts past MAX_MAIL_DOCUMENTS are not processed: those are `refused`, so staff see them.
 */
export function selectAttachments(parts: readonly MailPartInfo[]): AttachmentSelection {
  const selection: AttachmentSelection = { documents: [], refused: [], skipped: [], error: null };
  parts.forEach((part, index) => {
    const filename = sanitizeOriginalFilename(part.filename?.trim() ? part.filename : `attachment-${index + 1}`);
    const verdict = judgePart(part, filename);
    if (verdict.kind === 'skip') {
      selection.skipped.push({ index, reason: verdict.reason });
    } else if (verdict.kind === 'refuse') {
      selection.refused.push({ index, filename, code: verdict.code, message: REFUSE[verdict.code] });
    } else if (selection.documents.length >= MAX_MAIL_DOCUMENTS) {
      selection.refused.push({ index, filename, code: 'TOO_MANY_ATTACHMENTS', message: REFUSE.TOO_MANY_ATTACHMENTS });
    } else {
      selection.documents.push({ index, filename });
    }
  });
  if (selection.documents.length === 0) selection.error = explainNoDocuments(selection);
  return selection;
}

type PartVerdict = { kind: 'document' } | { kind: 'skip'; reason: string } | { kind: 'refuse'; code: RefusedPartCode };

function judgePart(part: MailPartInfo, filename: string): PartVerdict {
  const type = part.contentType.toLowerCase().split(';')[0]?.trim() ?? '';
  const name = filename.toLowerCase();
  const extension = /\.([a-z0-9]{1,5})$/.exec(name)?.[1] ?? '';
  const stem = name.replace(/\.[a-z0-9]{1,5}$/, '');

  if (type === 'application/ms-tnef' || type === 'application/vnd.ms-tnef' || name === 'winmail.dat') {
    return { kind: 'refuse', code: 'WINMAIL_DAT' };
  }
  if (type === 'application/pkcs7-mime' || type === 'application/x-pkcs7-mime' || extension === 'p7m') {
    return { kind: 'refuse', code: 'ENCRYPTED_MAIL' };
  }
  if (type.startsWith('message/') || extension === 'eml' || extension === 'msg' || type === 'application/vnd.ms-outlook') {
    return { kind: 'skip', reason: SKIP.attachedEmail };
  }
  if (type === 'text/calendar' || type === 'application/ics' || extension === 'ics') {
    return { kind: 'skip', reason: SKIP.calendar };
  }
  if (type === 'text/vcard' || type === 'text/x-vcard' || type === 'text/directory' || extension === 'vcf') {
    return { kind: 'skip', reason: SKIP.contactCard };
  }
  if (
    ['application/pkcs7-signature', 'application/x-pkcs7-signature', 'application/pgp-signature', 'application/pgp-keys'].includes(type) ||
    extension === 'p7s'
  ) {
    return { kind: 'skip', reason: SKIP.digitalSignature };
  }
  if (type.startsWith('text/') && part.disposition !== 'attachment') {
    return { kind: 'skip', reason: SKIP.bodyText };
  }
  const isImage = type.startsWith('image/') || IMAGE_EXTENSIONS.has(extension);
  if (isImage && part.size < DECORATION_MAX_BYTES) {
    if (part.disposition !== 'attachment') return { kind: 'skip', reason: SKIP.bodyImage };
    if (LOGO_NAME.test(stem)) return { kind: 'skip', reason: SKIP.logo };
  }
  return { kind: 'document' };
}

function explainNoDocuments(selection: AttachmentSelection): string {
  const [refused] = selection.refused;
  if (refused) return refused.message;
  if (selection.skipped.some((part) => part.reason === SKIP.attachedEmail)) return ONLY_ATTACHED_EMAIL_ERROR;
  if (selection.skipped.some((part) => part.reason !== SKIP.bodyText)) return NO_DOCUMENTS_ERROR;
  return NO_ATTACHMENTS_ERROR;
}

// ---------------------------------------------------------------------------------------------------
// The message text: what the sender wrote, without quoted replies
// ---------------------------------------------------------------------------------------------------

/** The subject and body as mailparser decodes them; fromAddress is the bare sender address. */
export type MailSummary = { subject: string | null; text: string | null; html: string | null; fromAddress: string | null };

/** Enough for any message a parent writes; past that, reading costs time and finds nothing. */
const MAX_BODY_CHARACTERS = 100_000;
const MAX_SUBJECT_CHARACTERS = 1_000;

/**
 * The sender's own words: the plain-text body (or the HTML body turned into text when there is none),
 * without quoted lines (`>`), and cut at the start of the quoted conversation of a reply: an "On … wrote:"
 * line, "-----Original Message-----", or an Outlook header block (From: then Sent:/Date:). Quoted text is
 * someone else's words, often the league's own instructions with example values ("Player: Jane Doe") or
 * another family's details, and reading it could file documents under the wrong child; a parent who
 * answers a request must give the details in their own text.
 *
 * A forward is different: the forwarded message is what the sender is passing on, so the first header
 * block after "Forwarded message" (or in a mail whose subject starts with Fwd:/FW:) is read through.
 * Everything after a signature separator ("-- ") is left out, so a work signature's "Division: Sales"
 * never counts.
 */
export function readOwnText(mail: Pick<MailSummary, 'subject' | 'text' | 'html'>): string {
  const raw = mail.text?.trim() ? mail.text : mail.html ? htmlToText(mail.html) : '';
  const lines = cleanText(raw.slice(0, MAX_BODY_CHARACTERS)).split('\n');
  // A forward whose subject says so but has no marker line: its first separator starts the forwarded mail.
  let forwardExpected = FORWARD_SUBJECT.test(mail.subject ?? '');
  // Just past a forward's separator: the header block that follows ("From: … Date: …") belongs to it.
  let headerBelongs = false;
  const own: string[] = [];
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const trimmed = line.trim();
    if (trimmed.startsWith('>')) continue;
    if (line === '-- ' || trimmed === '--') break;
    if (FORWARD_MARKER.test(trimmed)) {
      forwardExpected = false;
      headerBelongs = true;
      continue;
    }
    if (isAttribution(trimmed, lines[at + 1]?.trim() ?? '')) break;
    const original = ORIGINAL_MESSAGE.test(trimmed);
    if (original || isHeaderBlock(lines, at)) {
      if (headerBelongs && !original) {
        headerBelongs = false;
        continue;
      }
      if (!forwardExpected) break;
      forwardExpected = false;
      headerBelongs = original;
      continue;
    }
    if (trimmed !== '' && !/^_{10,}$/.test(trimmed)) headerBelongs = false;
    own.push(line);
  }
  return own.join('\n');
}

const FORWARD_SUBJECT = /^\s*(?:\[[^\]]{0,30}\]\s*)*(?:fwd?|wg|tr|rv|enc)\s*:/i;
const FORWARD_MARKER = /^-*\s*(?:forwarded message|begin forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado)\s*:?\s*-*$/i;
const ORIGINAL_MESSAGE = /^-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|mensaje original)\s*-{2,}$/i;
// German and Dutch put the name after the verb: "Am 03.03.2025 um 10:00 schrieb League <l@x>:".
const ATTRIBUTION = /^(?:on|am|le|el|em|il|op)\s.*\b(?:wrote|schrieb|a écrit|escribió|escreveu|ha scritto|schreef)\b.*:$/i;
const HEADER_FROM = /^(?:\*?from|von|de|van|da)\*?\s*:\s*\S/i;
const HEADER_SENT = /^(?:\*?sent|date|gesendet|datum|envoyé|enviado|inviato)\*?\s*:\s*\S/i;

/**
 * "On Tue, Mar 3, 2025 at 10:00 AM Jane <jane@x> wrote:", which Gmail may wrap over two lines. A date or
 * time is required, so "On Monday my husband wrote:" in the sender's own text is not taken for one.
 */
function isAttribution(line: string, next: string): boolean {
  if (ATTRIBUTION.test(line) && /\d/.test(line)) return true;
  const joined = `${line} ${next}`;
  return line.length < 200 && ATTRIBUTION.test(joined) && /\d/.test(joined);
}

/** An Outlook reply or forward header: "From: …" with "Sent: …" or "Date: …" in the next few lines. */
function isHeaderBlock(lines: readonly string[], at: number): boolean {
  if (!HEADER_FROM.test(lines[at]?.trim() ?? '')) return false;
  return lines.slice(at + 1, at + 4).some((line) => HEADER_SENT.test(line.trim()));
}

/**
 * HTML to the lines a reader sees: source whitespace collapsed, block ends and <br> as line breaks, table
 * cells separated by a tab (so "<td>Player:</td><td>Jane Doe</td>" reads "Player:\tJane Doe"), quoted
 * replies (<blockquote>) dropped like `>` lines, then tags removed and entities decoded.
 */
export function htmlToText(html: string): string {
  const withoutHidden = html
    .slice(0, MAX_BODY_CHARACTERS * 4)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\s+/g, ' ');
  return decodeEntities(
    dropBlockquotes(withoutHidden)
      .replace(/<br\b[^>]*>/gi, '\n')
      .replace(/<\/t[dh]\s*>/gi, '\t')
      .replace(/<\/?(?:p|div|tr|li|ul|ol|dl|dt|dd|table|tbody|thead|h[1-6]|section|article|header|footer|pre|hr|center)\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  );
}

/** Text outside every <blockquote>, nested ones included; an unclosed one hides the rest. */
function dropBlockquotes(html: string): string {
  let depth = 0;
  let kept = '';
  let from = 0;
  for (const tag of html.matchAll(/<(\/?)blockquote\b[^>]*>/gi)) {
    if (depth === 0) kept += html.slice(from, tag.index);
    depth = tag[1] ? Math.max(0, depth - 1) : depth + 1;
    from = tag.index + tag[0].length;
    if (depth === 0) kept += '\n';
  }
  return depth === 0 ? kept + html.slice(from) : kept;
}

const NAMED_ENTITIES: Record<string, string> = {
  nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", szlig: 'ß', aelig: 'æ', AElig: 'Æ', oslash: 'ø',
  Oslash: 'Ø', eth: 'ð', ETH: 'Ð', thorn: 'þ', THORN: 'Þ', oelig: 'œ', OElig: 'Œ', ndash: '–', mdash: '—',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', hellip: '…', bull: '•', middot: '·', shy: '', zwnj: '\u200C', zwj: '\u200D',
};

/** The accent of &eacute;, &Ntilde; …, as a combining mark; the base letter plus it, composed, is the letter. */
const ENTITY_ACCENTS: Record<string, string> = { grave: '\u0300', acute: '\u0301', circ: '\u0302', tilde: '\u0303', uml: '\u0308', ring: '\u030A', cedil: '\u0327', caron: '\u030C' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '';
    }
    const named = NAMED_ENTITIES[name];
    if (named !== undefined) return named;
    const accented = /^([a-z])(grave|acute|circ|tilde|uml|ring|cedil|caron)$/i.exec(name);
    const accent = accented?.[2] ? ENTITY_ACCENTS[accented[2]] : undefined;
    return accented?.[1] && accent ? `${accented[1]}${accent}`.normalize('NFC') : entity;
  });
}

/**
 * Composed (NFC) text with Unix line ends; no-break and odd spaces as spaces; control, bidirectional and
 * zero-width characters removed, except the joiners some scripts need inside names (U+200C, U+200D).
 */
function cleanText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, ' ')
    .replace(/[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g, '')
    .replace(/[^\P{Cc}\n\t]/gu, '');
}

// ---------------------------------------------------------------------------------------------------
// Key: value lines
// ---------------------------------------------------------------------------------------------------

type Field = 'name' | 'firstName' | 'lastName' | 'birthDate' | 'division' | 'season' | 'guardianName' | 'guardianPhone';
type FoundValues = Partial<Record<Field, string[]>>;

/**
 * The keys a parent may write, compared after normaliseKey (case, accents, apostrophes, dots, '#', '/'
 * and '-' do not matter: "D.O.B.", "Player's Name", "Parent/Guardian", "Phone #"). A bare "Name" is not
 * here: in a parent's mail it is as often their own name as the child's.
 */
const KEYS: ReadonlyMap<string, Field> = new Map(
  (
    [
      ['name', ['player', 'player name', 'players name', 'player full name', 'name of player', 'child', 'child name', 'childs name', 'name of child']],
      ['firstName', ['first name', 'player first name', 'players first name', 'given name']],
      ['lastName', ['last name', 'player last name', 'players last name', 'surname', 'family name']],
      ['birthDate', ['date of birth', 'dob', 'birth date', 'birthdate', 'birthday', 'born', 'player dob', 'player date of birth', 'players date of birth', 'player birth date']],
      ['division', ['division', 'div', 'player division']],
      ['season', ['season']],
      ['guardianName', ['guardian', 'guardian name', 'guardians name', 'parent', 'parent name', 'parents name', 'parent guardian', 'parent guardian name', 'parent or guardian', 'legal guardian']],
      ['guardianPhone', ['phone', 'phone number', 'phone no', 'telephone', 'tel', 'cell', 'cell phone', 'mobile', 'mobile phone', 'guardian phone', 'parent phone', 'contact phone', 'contact number']],
    ] as ReadonlyArray<readonly [Field, readonly string[]]>
  ).flatMap(([field, keys]) => keys.map((key) => [key, field] as const)),
);

const KEY_WORD = String.raw`[\p{L}#][\p{L}\p{M}'’.#]*`;
// Words of a key are joined by one space, a slash or a hyphen; a tab separates cells, so it ends a value.
const KEY_BODY = String.raw`[*_]*(${KEY_WORD}(?:(?: | ?/ ?|-)${KEY_WORD}){0,4})[*_]*[ \t]*[:：]`;
/**
 * Something shaped like a key: one to five words and a colon (ASCII or full-width), at the start of a
 * line (after an optional bullet) or after a separator (, ; | • tab, a spaced dash, two spaces), so
 * "Player: Jane Doe, DOB: 2015-03-02 | Division: AA" is three pairs and a colon in the middle of a
 * sentence is not a key. Every key-shaped match ends the value before it, known or not
 * ("Coach: Smith" is not part of a name).
 */
const KEY_SHAPE = new RegExp(String.raw`(?<=^|[,;|•\t]|\s[-–—]\s|\s{2})\s*(?:[-*•·]\s+)?${KEY_BODY}`, 'gu');
/** A key right at a given position (sticky), used to split values at known keys after a plain space. */
const KEY_HERE = new RegExp(KEY_BODY, 'uy');

function normaliseKey(key: string): string {
  return key
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’.#]/g, '')
    .replace(/[\s/-]+/g, ' ')
    .trim();
}

/**
 * Every known key's values in order of appearance, each trimmed of separators and markdown emphasis.
 * Inside a known key's value, a known key after a plain space starts the next pair ("Player: Jane Doe
 * Division: AA"); in a line with no known key first, it does not, so "Regarding last season: we moved"
 * is prose, not a season. A known key that ends its line takes the next non-blank line as its value, as
 * form notifications and HTML tables with a row per label write it ("Player Name:" / "Jane Doe"),
 * unless that line is a key itself.
 */
function readKeyValues(text: string): FoundValues {
  const found: FoundValues = {};
  const lines = text.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const keys = [...line.matchAll(KEY_SHAPE)];
    for (const [position, match] of keys.entries()) {
      const field = KEYS.get(normaliseKey(match[1] ?? ''));
      if (!field) continue;
      const next = keys[position + 1];
      const value = line.slice(match.index + match[0].length, next?.index ?? line.length);
      if (next || /[^\s*_]/.test(value)) {
        addValue(found, field, value);
        continue;
      }
      // One blank line may sit between a label and its value, as HTML paragraphs turn out.
      const below = lines[at + 1]?.trim() === '' ? at + 2 : at + 1;
      if (below >= lines.length || lines[below]?.trim() === '' || startsWithKey(lines[below] ?? '')) continue;
      addValue(found, field, lines[below] ?? '');
      at = below;
    }
  }
  return found;
}

/** The line opens with a key, known or not: "Division:" under "Player:" is not the player's name. */
function startsWithKey(line: string): boolean {
  const [first] = line.matchAll(KEY_SHAPE);
  return first !== undefined && line.slice(0, first.index).trim() === '';
}

function addValue(found: FoundValues, field: Field, text: string): void {
  let current = field;
  let rest = text;
  for (;;) {
    const next = findKnownKey(rest);
    const value = rest
      .slice(0, next?.at ?? rest.length)
      .replace(/^[\s*_]+/, '')
      .replace(/[\s,;|•*_–—-]+$/, '');
    if (value !== '') (found[current] ??= []).push(value);
    if (!next) return;
    current = next.field;
    rest = rest.slice(next.end);
  }
}

/** The first known key after a space in a value, where it starts and where its colon ends. */
function findKnownKey(text: string): { field: Field; at: number; end: number } | undefined {
  for (const start of text.matchAll(/(?<=\s)[*_]*[\p{L}#]/gu)) {
    KEY_HERE.lastIndex = start.index;
    const key = KEY_HERE.exec(text);
    const field = key ? KEYS.get(normaliseKey(key[1] ?? '')) : undefined;
    if (key && field) return { field, at: start.index, end: start.index + key[0].length };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------------

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
type PlayerName = { firstName: string; lastName: string };

const MAX_NAME_CHARACTERS = 100;
/** A word of a name in any script: letters and marks (Devanagari vowel signs …), apostrophes, hyphens, dots, joiners. */
const NAME_WORD = /^[\p{L}\p{M}][\p{L}\p{M}'’.\-\u200C\u200D]*$/u;

/**
 * "Jane Doe" is first Jane, last Doe; every word after the first belongs to the last name ("Ana de la
 * Cruz" is Ana, "de la Cruz"). "Doe, Jane" is last, first. A trailing "(…)" or ", AA", " - Fall 2025"
 * qualifier is not part of the name. Names keep the case and script they were written in.
 */
function parseName(raw: string): Parsed<PlayerName> {
  const value = stripQualifiers(raw)
    .rest.replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim()
    // The full stop that ends a sentence, not the one of "Jr." or an initial.
    .replace(/(\p{L}{3})\.$/u, '$1');
  const comma = value.split(',').map((part) => part.trim());
  if (comma.length > 2) return { ok: false, message: `Player name "${quote(raw)}" is not a first and last name` };
  const [first, last] =
    comma.length === 2 ? [comma[1] ?? '', comma[0] ?? ''] : [value.split(' ')[0] ?? '', value.split(' ').slice(1).join(' ')];
  return checkName(raw, first, last);
}

/** "First Name:" and "Last Name:" lines, when the mail gives the name that way. */
function parseNameParts(first: string | undefined, last: string | undefined): Parsed<PlayerName> {
  if (!first) return { ok: false, message: 'No player first name found in the e-mail' };
  if (!last) return { ok: false, message: 'No player last name found in the e-mail' };
  return checkName(`${first} ${last}`, stripQualifiers(first).rest, stripQualifiers(last).rest);
}

function checkName(raw: string, firstName: string, lastName: string): Parsed<PlayerName> {
  if (firstName === '' || lastName === '') {
    return { ok: false, message: `Player name "${quote(raw)}" needs a first and a last name` };
  }
  const words = `${firstName} ${lastName}`.split(' ');
  if (!words.every((word) => NAME_WORD.test(word))) {
    return { ok: false, message: `Player name "${quote(raw)}" can only have letters, spaces, hyphens and apostrophes` };
  }
  if (firstName.length > MAX_NAME_CHARACTERS || lastName.length > MAX_NAME_CHARACTERS) {
    return { ok: false, message: `Player name "${quote(raw)}" is longer than ${MAX_NAME_CHARACTERS} characters` };
  }
  return { ok: true, value: { firstName, lastName } };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const ORDINAL = String.raw`(?:st|nd|rd|th)?`;

/**
 * The date formats a parent of a US league writes, first found in the value: 2015-03-02 (or 2015/03/02),
 * 03/02/2015 and 3-2-2015 (always month first), 2 March 2015 and March 2, 2015 (names or three-letter
 * abbreviations, with or without ordinals and commas). Two-digit years and dotted dates (02.03.2015,
 * day first in most of the world) are refused, not guessed: a wrong date would make another player.
 */
const DATE_FORMATS: ReadonlyArray<{ pattern: RegExp; order: 'ymd' | 'mdy' | 'dmy' | 'Mdy' }> = [
  { pattern: /(?<![\d/.-])(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?![\d/.-])/, order: 'ymd' },
  { pattern: /(?<![\d/.-])(\d{1,2})([-/])(\d{1,2})\2(\d{4})(?![\d/.-])/, order: 'mdy' },
  { pattern: new RegExp(String.raw`(?<![\p{L}\d])(\d{1,2})${ORDINAL}\s+(?:of\s+)?${MONTH},?\s+(\d{4})(?!\d)`, 'iu'), order: 'dmy' },
  { pattern: new RegExp(String.raw`(?<!\p{L})${MONTH}\s+(\d{1,2})${ORDINAL},?\s+(\d{4})(?!\d)`, 'iu'), order: 'Mdy' },
];

function parseBirthDate(raw: string, today: string): Parsed<string> {
  for (const { pattern, order } of DATE_FORMATS) {
    const match = pattern.exec(raw);
    if (!match) continue;
    const [year, month, day] =
      order === 'ymd' ? [match[1], match[3], match[4]]
      : order === 'mdy' ? [match[4], match[1], match[3]]
      : order === 'dmy' ? [match[3], monthNumber(match[2]), match[1]]
      : [match[3], monthNumber(match[1]), match[2]];
    const date = toIsoDate(Number(year), Number(month), Number(day));
    if (!date) {
      const hint = order === 'mdy' ? ' (dates are read as MM/DD/YYYY)' : '';
      return { ok: false, message: `Date of birth "${quote(raw)}" is not a real date${hint}` };
    }
    if (date > today) return { ok: false, message: `Date of birth "${quote(raw)}" is in the future` };
    if (date < '1900-01-01') return { ok: false, message: `Date of birth "${quote(raw)}" is before 1900` };
    return { ok: true, value: date };
  }
  return { ok: false, message: `Date of birth "${quote(raw)}" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY` };
}

function monthNumber(name: string | undefined): number {
  return MONTHS.indexOf((name ?? '').slice(0, 3).toLowerCase()) + 1;
}

/** YYYY-MM-DD when the day exists in that month and year, else null. */
function toIsoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const DIVISION_WORDS: ReadonlyMap<string, TDivision> = new Map<string, TDivision>([
  ...DIVISIONS.map((division) => [division.toLowerCase(), division] as const),
  ['triplea', 'AAA'],
  ['doublea', 'AA'],
  ['singlea', 'A'],
  ['peewees', 'Peewee'],
]);

/** A division of domain.ts in any case, spacing or hyphenation ("aa", "Pee-Wee", "Double A", "AA Division"). */
function parseDivision(raw: string): Parsed<TDivision> {
  const key = raw
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .replace(/\bdiv(ision)?\b\.?/g, ' ')
    .replace(/[\s.'’-]+/g, '');
  const division = DIVISION_WORDS.get(key);
  if (division) return { ok: true, value: division };
  return { ok: false, message: `Division "${quote(raw)}" is not one of ${DIVISIONS.join(', ')}` };
}

/** 'Fall Ball 2025', 'fall 2025', '2025 Fall', 'Autumn 2025' → 'fall-2025', as season ids are spelled (seeds, schema). */
const SEASON_NAME = /^(?:(spring|summer|fall|autumn|winter)(?:\s+ball)?\s*[-–]?\s*(\d{4})|(\d{4})\s*[-–]?\s*(spring|summer|fall|autumn|winter)(?:\s+ball)?)$/i;

/**
 * A year (that year's latest season), a season id, or a season's name, as ZFormFields takes them;
 * "current" or "this season" is the current season (null), as is no season at all.
 */
function parseSeason(raw: string): Parsed<string | null> {
  const value = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^(?:the )?(?:current|this)(?: season)?$/.test(value)) return { ok: true, value: null };
  if (/^\d{4}$/.test(value) || /^[a-z]+-\d{4}$/.test(value)) return { ok: true, value };
  const named = SEASON_NAME.exec(value);
  if (named) {
    const kind = (named[1] ?? named[4] ?? '').replace('autumn', 'fall');
    return { ok: true, value: `${kind}-${named[2] ?? named[3] ?? ''}` };
  }
  return { ok: false, message: `Season "${quote(raw)}" is not a year (2025) or a season such as Fall Ball 2025` };
}

/** A phone number as ZFormFields takes it; a label in parentheses ("(cell)") or after the number is dropped. */
function parsePhone(raw: string): string | null {
  const value = raw
    .replace(/\([^)]*\p{L}[^)]*\)/gu, ' ')
    .replace(/[\p{L}:]+\.?\s*$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  const digits = value.replace(/\D/g, '').length;
  return /^[+0-9 ().-]{5,40}$/.test(value) && digits >= 7 ? value : null;
}

/** The guardian's name as written, without an address in angle brackets; too long or an address only is no name. */
function parseGuardianName(raw: string): string | null {
  const value = raw.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return value !== '' && value.length <= 200 && /\p{L}/u.test(value) && !value.includes('@') ? value : null;
}

/** The sender's address when it is one ZFormFields would accept; mailparser gives it bare. */
function parseSenderAddress(raw: string | null): string | null {
  const address = (/<([^>]*)>/.exec(raw ?? '')?.[1] ?? raw ?? '').trim();
  return z.email().safeParse(address).success ? address : null;
}

/**
 * Division, season and date qualifiers written after a name: "Jane Doe (AA)", "Jane Doe, AA",
 * "Jane Doe - Fall 2025". Returns the name part and the qualifiers, which the subject reads too.
 */
function stripQualifiers(raw: string): { rest: string; qualifiers: string[] } {
  const qualifiers: string[] = [];
  let rest = raw.replace(/\s+/g, ' ').trim();
  for (;;) {
    const bracket = /\s*\(([^()]*)\)\s*$/.exec(rest);
    if (bracket) {
      qualifiers.unshift(bracket[1]?.trim() ?? '');
      rest = rest.slice(0, bracket.index).trim();
      continue;
    }
    const tail = /(?:\s*,|\s+[-–—|])\s*([^,\-–—|]+)$/.exec(rest);
    if (tail?.[1] && isQualifier(tail[1])) {
      qualifiers.unshift(tail[1].trim());
      rest = rest.slice(0, tail.index).trim();
      continue;
    }
    return { rest: rest.replace(/[\s,;:!]+$/, ''), qualifiers };
  }
}

function isQualifier(text: string): boolean {
  return parseDivision(text).ok || SEASON_NAME.test(text.trim()) || /\d/.test(text);
}

/** A value echoed in a message: printable and short. */
function quote(value: string): string {
  const printable = value.replace(/[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069"]/gu, '').trim();
  return printable.length > 60 ? `${printable.slice(0, 60)}…` : printable;
}

// ---------------------------------------------------------------------------------------------------
// The subject
// ---------------------------------------------------------------------------------------------------

/** Reply and forward prefixes in the languages parents' mail programs use, and "[External]"-style tags. */
const SUBJECT_PREFIX = /^(?:\s*(?:(?:re|fwd?|aw|wg|sv|vs|tr|rv|enc|antw|r)(?:\[\d+\])?\s*[:：]|\[[^\]]{0,30}\]))+\s*/i;

/** Words that say a subject is about registration documents; a name is only read next to one of them. */
const ANCHOR =
  /\b(?:registration|register(?:ing|ed)?|sign[- ]?ups?|enrol(?:l)?ments?|documents?|docs|forms?|paperwork|papers|files|attachments?|birth cert(?:ificate)?s?|certificates?|medical|physicals?|waivers?|residency|proof of (?:residence|residency|address))\b/i;

/** Title-case words that are not names, so "Registration - Payment Issue" gives no player. */
const NOT_NAME_WORDS = new Set(
  (
    'a an and are at about all by for from here hi hello dear in is it of on or our my his her their the this that to with you your ' +
    'son daughter child children kid kids boy girl player players team teams coach league club baseball softball tryout tryouts ' +
    'payment payments fee fees issue issues question questions help update updated info information request reminder schedule ' +
    'confirmation receipt invoice missing new urgent important please thanks thank attached copy copies scan scanned scans photo ' +
    'photos picture pictures image images page pages signed complete completed final follow up season spring summer fall autumn ' +
    'winter ball division practice game games uniform jersey refund proof address birth certificate'
  ).split(' '),
);
/** Lowercase words inside a name ("Ana de la Cruz", "Jan van der Berg"). */
const NAME_PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'da', 'di', 'du', 'dos', 'das', 'la', 'le', 'bin', 'al', 'el', 'ter', 'ten']);

/**
 * A name in a subject must look like one: two to four words of letters, each starting with a capital in
 * scripts that have capitals (CJK and Arabic have none), no digits, none of NOT_NAME_WORDS. "Doe, Jane"
 * counts as two words.
 */
function isNameLike(text: string): boolean {
  const words = text.replace(/\s*,\s*/, ' ').split(' ');
  if (words.length < 2 || words.length > 4) return false;
  return words.every((word, position) => {
    if (!NAME_WORD.test(word)) return false;
    const folded = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    if (NOT_NAME_WORDS.has(folded.replace(/['’]s$/, ''))) return false;
    const initial = word[0] ?? '';
    const cased = initial.toUpperCase() !== initial.toLowerCase();
    return !cased || initial === initial.toUpperCase() || (position > 0 && NAME_PARTICLES.has(word));
  });
}

/**
 * What the subject says. `Key: value` pairs first ("Player: Jane Doe, DOB: 2015-03-02"), then, when they
 * name no player, only these clear patterns, each needing a registration or document word (ANCHOR) and a
 * name-like player (isNameLike):
 * - "… for Jane Doe": "Documents for Jane Doe", "Birth certificate for Jane Doe (AA)";
 * - "Jane Doe's …": "Jane Doe's birth certificate";
 * - parts split by " - ", " | " or ": ", one of them anchored and exactly one a name:
 *   "Registration - Jane Doe - AA", "Jane Doe | Medical form", "Registration: Doe, Jane".
 * Two name-like parts ("Eagles Travel - Jane Doe - Registration") are no answer. With a pattern, a part
 * or qualifier that is a division or a date is read too ("Registration - Jane Doe - AA - 03/02/2015").
 * Anywhere in the subject: "(AA)", "AA Division", "Division AA" and a season's name ("Fall Ball 2025").
 */
function readSubject(subject: string | null): FoundValues {
  const text = cleanText((subject ?? '').slice(0, MAX_SUBJECT_CHARACTERS)).replace(/\s+/g, ' ').replace(SUBJECT_PREFIX, '').trim();
  const parts = text.split(/\s+[-–—|]\s+|\s*\|\s*/).map((part) => part.trim()).filter((part) => part !== '');
  const found = readKeyValues(parts.join('\n'));
  const add = (field: Field, value: string) => {
    if (!found[field]) found[field] = [value];
  };

  const unkeyed = parts.filter((part) => !hasKnownKey(part)).flatMap((part) => part.split(/[:：]\s+/));
  const qualifiers = unkeyed.flatMap((part) => (parseDivision(part).ok || isWholeDate(part) ? [part] : []));
  if (!found.name && !found.firstName && !found.lastName) {
    const anchored = unkeyed.some((part) => ANCHOR.test(part));
    const names = new Map<string, string[]>();
    for (const part of unkeyed) {
      const forName = /^(.+)\s+for\s+(.+)$/i.exec(part);
      const possessive = /^(.+?)['’]s\s+(.+)$/.exec(part);
      const candidate =
        forName?.[1] && forName[2] && ANCHOR.test(forName[1]) ? forName[2]
        : possessive?.[1] && possessive[2] && ANCHOR.test(possessive[2]) ? possessive[1]
        : anchored && !ANCHOR.test(part) ? part
        : null;
      if (candidate === null) continue;
      const stripped = stripQualifiers(candidate);
      if (isNameLike(stripped.rest)) names.set(stripped.rest, stripped.qualifiers);
    }
    const [only, ...others] = [...names];
    if (!only || others.length > 0) return withSubjectPhrases(text, found, add);
    add('name', only[0]);
    qualifiers.push(...only[1]);
  }
  for (const qualifier of qualifiers) {
    if (parseDivision(qualifier).ok) add('division', qualifier);
    else if (isWholeDate(qualifier)) add('birthDate', qualifier);
  }
  return withSubjectPhrases(text, found, add);
}

/** "(AA)", "AA Division", "Division AA" and a season's name, wherever they are in the subject. */
function withSubjectPhrases(text: string, found: FoundValues, add: (field: Field, value: string) => void): FoundValues {
  const division = /\(\s*([a-z]{1,4}|pee[\s-]?wees?)\s*\)|\b(aaa|aa|a|test|pee[\s-]?wees?)\s+division\b|\bdivision\s+(aaa|aa|a|test|pee[\s-]?wees?)\b/i.exec(text);
  const divisionText = division?.[1] ?? division?.[2] ?? division?.[3];
  // "a division" is an article, not the A division.
  if (divisionText && divisionText !== 'a' && parseDivision(divisionText).ok) add('division', divisionText);
  const season = /\b(?:(?:spring|summer|fall|autumn|winter)(?:\s+ball)?\s*[-–]?\s*\d{4}|\d{4}\s+(?:spring|summer|fall|autumn|winter)(?:\s+ball)?)\b/i.exec(text);
  if (season) add('season', season[0]);
  return found;
}

function hasKnownKey(text: string): boolean {
  return [...text.matchAll(KEY_SHAPE)].some((match) => KEYS.has(normaliseKey(match[1] ?? '')));
}

/** A part that is nothing but a date ("03/02/2015", "March 2, 2015"). */
function isWholeDate(text: string): boolean {
  return DATE_FORMATS.some(({ pattern }) => {
    const match = pattern.exec(text);
    return match !== null && text.replace(match[0], '').trim() === '';
  });
}

// ---------------------------------------------------------------------------------------------------
// Player details
// ---------------------------------------------------------------------------------------------------

/** The player as the e-mail gives it; season null means the current season (the recorder resolves it). */
export type MailPlayer = {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  birthDate: string;
  division: TDivision;
  season: string | null;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianPhone: string | null;
};

export type MailPlayerDetails =
  | { ok: true; player: MailPlayer }
  | {
      ok: false;
      /** One sentence a staff member can act on: what is missing, or the first value that is wrong. */
      error: string;
      /** Every problem, by field (playerName, playerBirthDate, division, season). */
      details: Array<{ path: string; message: string }>;
    };

type Decision<T> = { kind: 'found'; value: T } | { kind: 'conflict'; values: T[] } | { kind: 'invalid'; message: string } | { kind: 'missing' };

/**
 * The player from the sender's own text (readOwnText) and the subject (readSubject). For each field the
 * body wins over the subject: the first of them with a readable value gives it. Two different readable
 * values in that source are an error (two children in one mail: one e-mail per player), a value that
 * cannot be read is an error only when no source has a readable one. Name, date of birth and division
 * are required; season, guardian name and phone are optional, and a phone or guardian name that cannot
 * be read is left empty rather than failing the mail. The guardian's e-mail is the sender's address.
 *
 * `today` (YYYY-MM-DD) bounds the date of birth; it defaults to the current UTC date.
 */
export function readPlayerDetails(mail: MailSummary, options: { today?: string } = {}): MailPlayerDetails {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const sources = [readKeyValues(readOwnText(mail)), readSubject(mail.subject)];
  const values = <T>(field: Field, parse: (raw: string) => Parsed<T>) => sources.map((found) => (found[field] ?? []).map(parse));

  const name = decide(sources.map(nameCandidates), (a, b) => normaliseName(`${a.firstName} ${a.lastName}`) === normaliseName(`${b.firstName} ${b.lastName}`));
  const birthDate = decide(values('birthDate', (raw) => parseBirthDate(raw, today)));
  const division = decide(values('division', parseDivision));
  const season = decide(values('season', parseSeason));

  const missing: string[] = [];
  const details: Array<{ path: string; message: string }> = [];
  const check = <T>(path: string, label: string, decision: Decision<T>, conflict: (values: T[]) => string) => {
    if (decision.kind === 'missing' && label !== '') {
      missing.push(label);
      details.push({ path, message: `No ${label} found in the e-mail` });
    } else if (decision.kind === 'invalid') {
      details.push({ path, message: decision.message });
    } else if (decision.kind === 'conflict') {
      details.push({ path, message: conflict(decision.values) });
    }
  };
  check('playerName', 'player name', name, (names) => {
    const listed = names.map((n) => `${n.firstName} ${n.lastName}`).join(', ');
    return `The e-mail names more than one player (${listed}); send one e-mail per player`;
  });
  check('playerBirthDate', 'date of birth', birthDate, (dates) => `The e-mail gives more than one date of birth (${dates.join(', ')})`);
  check('division', 'division', division, (divisions) => `The e-mail gives more than one division (${divisions.join(', ')})`);
  check('season', '', season, (seasons) => `The e-mail gives more than one season (${seasons.join(', ')})`);

  if (name.kind !== 'found' || birthDate.kind !== 'found' || division.kind !== 'found' || details.length > 0) {
    const error = missing.length > 0 ? `No ${joinWithOr(missing)} found in the e-mail` : (details[0]?.message ?? 'The e-mail has no player details');
    return { ok: false, error, details };
  }
  const firstReadable = <T>(field: Field, parse: (raw: string) => T | null): T | null => {
    for (const found of sources) {
      for (const raw of found[field] ?? []) {
        const value = parse(raw);
        if (value !== null) return value;
      }
    }
    return null;
  };
  return {
    ok: true,
    player: {
      firstName: name.value.firstName,
      lastName: name.value.lastName,
      birthDate: birthDate.value,
      division: division.value,
      season: season.kind === 'found' ? season.value : null,
      guardianName: firstReadable('guardianName', parseGuardianName),
      guardianEmail: parseSenderAddress(mail.fromAddress),
      guardianPhone: firstReadable('guardianPhone', parsePhone),
    },
  };
}

function nameCandidates(found: FoundValues): Array<Parsed<PlayerName>> {
  if (found.name) return found.name.map(parseName);
  if (found.firstName || found.lastName) return [parseNameParts(found.firstName?.[0], found.lastName?.[0])];
  return [];
}

/** The first source with a readable value decides; see readPlayerDetails. */
function decide<T>(perSource: Array<Array<Parsed<T>>>, same: (a: T, b: T) => boolean = Object.is): Decision<T> {
  let invalid: string | undefined;
  for (const parsed of perSource) {
    const readable: T[] = [];
    for (const result of parsed) {
      if (!result.ok) invalid ??= result.message;
      else if (!readable.some((value) => same(value, result.value))) readable.push(result.value);
    }
    const [first] = readable;
    if (readable.length > 1) return { kind: 'conflict', values: readable };
    if (readable.length === 1) return { kind: 'found', value: first as T };
  }
  return invalid === undefined ? { kind: 'missing' } : { kind: 'invalid', message: invalid };
}

function joinWithOr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`;
}

// ---------------------------------------------------------------------------------------------------
// Document type of an attachment
// ---------------------------------------------------------------------------------------------------

export type AttachmentDocType = { docType: TDocType | null; from: 'filename' | 'subject' | 'body' | null };

/**
 * Which document an attachment is: from its file name first, then the subject (without Re:/Fwd:), then
 * the sender's own text (readOwnText), all with the pipeline's detectDocType. The subject and body
 * describe the whole mail, so they only speak for an attachment when it is the mail's only document
 * (`documentCount`: the documents selectAttachments kept); with more, null leaves it for review.
 */
export function attachmentDocType(filename: string, mail: MailSummary, documentCount: number): AttachmentDocType {
  const byName = detectDocType({ filename });
  if (byName.docType) return { docType: byName.docType, from: 'filename' };
  if (documentCount !== 1) return { docType: null, from: null };
  const subject = cleanText((mail.subject ?? '').slice(0, MAX_SUBJECT_CHARACTERS)).replace(/\s+/g, ' ').replace(SUBJECT_PREFIX, '');
  const bySubject = detectDocType({ text: subject });
  if (bySubject.docType) return { docType: bySubject.docType, from: 'subject' };
  const byBody = detectDocType({ text: readOwnText(mail) });
  if (byBody.docType) return { docType: byBody.docType, from: 'body' };
  return { docType: null, from: null };
}
