/**
 * What a parsed e-mail means to the pipeline: which parts are documents (selectAttachments), who the
 * player is (readPlayerDetails), and which document each attachment is (attachmentDocType). Pure: the
 * mailbox adapter parses the message (mailparser decodes encoded words, charsets and transfer
 * encodings), and this module only reads the decoded strings and part facts, in any script.
 *
 * This file decides the player; the reading is done in mail-attachments.ts (which parts are documents),
 * mail-text.ts (the sender's own text), mail-key-values.ts (`Key: value` lines), mail-subject.ts (the
 * subject), mail-values.ts and mail-dates.ts (one field's value) and mail-doc-type.ts (which document
 * an attachment is).
 *
 * Where details come from, strongest first: `Key: value` lines of the sender's own text (quoted replies
 * left out, see readOwnText), then the subject, where a player name is only read from a clear pattern
 * (see readSubject). Values are never guessed: a date that could be two dates, a name that could be
 * words, or two children in one mail make the mail fail with a sentence staff can act on.
 */
import type { TDivision } from '../../../contract';
import { normaliseName } from '../../players';
import { parseBirthDate } from './mail-dates';
import { readKeyValues, type Field, type FoundValues } from './mail-key-values';
import { readSubject } from './mail-subject';
import { readOwnText, type MailSummary } from './mail-text';
import {
  parseDivision,
  parseGuardianName,
  parseName,
  parseNameParts,
  parsePhone,
  parseSenderAddress,
  parseSeason,
  type Parsed,
  type PlayerName,
} from './mail-values';

export {
  DECORATION_MAX_BYTES,
  MAX_MAIL_DOCUMENTS,
  NO_ATTACHMENTS_ERROR,
  NO_DOCUMENTS_ERROR,
  ONLY_ATTACHED_EMAIL_ERROR,
  selectAttachments,
  type AttachmentSelection,
  type MailPartInfo,
  type RefusedPartCode,
} from './mail-attachments';
export { attachmentDocType, type AttachmentDocType } from './mail-doc-type';
export { htmlToText, readOwnText, type MailSummary } from './mail-text';

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
