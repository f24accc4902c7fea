/**
 * The text of a message as the sender wrote it: the body without quoted replies and signatures, HTML
 * turned into the lines a reader sees, and control and invisible characters cleaned out.
 */

/** The subject and body as mailparser decodes them; fromAddress is the bare sender address. */
export type MailSummary = { subject: string | null; text: string | null; html: string | null; fromAddress: string | null };

/** Enough for any message a parent writes; past that, reading costs time and finds nothing. */
const MAX_BODY_CHARACTERS = 100_000;

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
export function cleanText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, ' ')
    .replace(/[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g, '')
    .replace(/[^\P{Cc}\n\t]/gu, '');
}
