import { DOC_TYPE_LABELS, type TDocType, type TDocument, type TDocumentList, type TReadingCheck, type TReadingState } from '../../../contract';
import { formatCount } from '@/lib/format';
import { foldForSearch } from '@/lib/search-text';

/**
 * The Review screen's queue: the pending documents, oldest first, stepped through one at a time. A document
 * decided here leaves the queue at once (before the list is read again), and the next one takes its place.
 */

/** The documents still to show: the list as the server gave it, without those decided here since. */
export function remainingQueue<T extends { id: string }>(documents: readonly T[], decided: ReadonlySet<string>): T[] {
  const seen = new Set<string>();
  return documents.filter((document) => {
    // Pages read while decisions move the list can repeat a document: it is shown once.
    if (decided.has(document.id) || seen.has(document.id)) return false;
    seen.add(document.id);
    return true;
  });
}

/**
 * Where the current document is: the one with `currentId` while it is still in the queue; once it has left
 * (decided here or by someone else), the one that took its place (`lastIndex`), or the last one. -1 when empty.
 */
export function currentIndex(queue: ReadonlyArray<{ id: string }>, currentId: string | null, lastIndex: number): number {
  if (queue.length === 0) return -1;
  const found = currentId === null ? -1 : queue.findIndex((document) => document.id === currentId);
  if (found >= 0) return found;
  return Math.min(Math.max(lastIndex, 0), queue.length - 1);
}

/** J and K: one step, without wrapping; undefined at either end. */
export function stepIndex(index: number, length: number, direction: 'next' | 'previous'): number | undefined {
  const next = direction === 'next' ? index + 1 : index - 1;
  return next >= 0 && next < length ? next : undefined;
}

/** How many are still pending: the server's count, less those decided here that its last answer still counted. */
export function pendingLeft(serverTotal: number, listed: ReadonlyArray<{ id: string }>, decided: ReadonlySet<string>): number {
  const stillCounted = listed.filter((document) => decided.has(document.id)).length;
  return Math.max(0, serverTotal - stillCounted);
}

/** '3 of 12 pending'; '3 of about 24,200 pending' when the server's total is an estimate. */
export const queueCounter = (position: number, total: number, isEstimate = false): string =>
  `${formatCount(position)} of ${formatCount(total, isEstimate)} pending`;

/**
 * The queue's next page, or undefined at its end. A page that is not full ends it; past an estimated total the
 * full pages go on (a page past the real end answers no documents, which ends it); else the total tells.
 */
export function nextQueuePage(last: Pick<TDocumentList, 'page' | 'pageSize' | 'total' | 'totalIsEstimate'> & { documents: readonly unknown[] }): number | undefined {
  if (last.documents.length < last.pageSize) return undefined;
  if (last.totalIsEstimate) return last.page + 1;
  return last.page * last.pageSize < last.total ? last.page + 1 : undefined;
}

/** 'birth certificate', 'document' when the type is not known: as said in a sentence. */
export const docTypeWords = (docType: TDocType | null): string => (docType ? DOC_TYPE_LABELS[docType].toLowerCase() : 'document');

function leftWords(left: number, isEstimate: boolean): string {
  if (left === 0 && !isEstimate) return 'Nothing left to review.';
  const count = formatCount(left, isEstimate);
  return `${count.charAt(0).toUpperCase()}${count.slice(1)} left.`;
}

/**
 * What the live region says after a decision: 'Approved Ana Lopez's birth certificate. 9 left.', or
 * 'about 24,200 left.' when the count of those pending is an estimate.
 */
export function decisionAnnouncement(
  decision: 'approved' | 'rejected' | 'photo',
  playerName: string,
  docType: TDocType | null,
  left: number,
  leftIsEstimate = false,
): string {
  const what = `${playerName}’s ${docTypeWords(docType)}`;
  const done = decision === 'approved' ? `Approved ${what}.` : decision === 'rejected' ? `Rejected ${what}.` : `Asked for a better photo of ${what}.`;
  return `${done} ${leftWords(left, leftIsEstimate)}`;
}

/** The reading's confidence in words: 'Read with high confidence'. */
export function confidenceWords(confidence: number | null): string | null {
  if (confidence === null) return null;
  const level = confidence >= 0.8 ? 'high' : confidence >= 0.5 ? 'medium' : 'low';
  return `Read with ${level} confidence`;
}

/** Where the reading stands, in words; null once it is done (the facts speak then). */
export const READING_STATE_WORDS: Record<Exclude<TReadingState, 'done'>, string> = {
  waiting: 'Still being read…',
  off: 'Reading is turned off',
  failed: 'Could not be read; review by eye',
  removed: 'The file was removed, and what was read from it',
};

/** How the document was read, in words. */
export function readingWords(reading: TDocument['reading'], confidence: number | null): string {
  if (reading.state !== 'done') return READING_STATE_WORDS[reading.state];
  const how = reading.method === 'pdf-text' ? 'Read from the PDF’s own text' : reading.method === 'ocr' ? 'Read from the image (OCR)' : 'Read';
  const sure = confidenceWords(confidence);
  return sure ? `${how}. ${sure}.` : `${how}.`;
}

/**
 * A field of the document beside the registration's: 'same', 'close' (not the same, but could be a misreading),
 * 'differs', or 'unknown' when either side is missing.
 */
export type Comparison = 'same' | 'close' | 'differs' | 'unknown';

/** The words of a name, without case, accents or punctuation. */
const nameWords = (name: string): string[] =>
  foldForSearch(name)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');

/**
 * Whether the name printed is the registered player's: every word of the registered first and last name
 * appears in it (a middle name or a second surname on the document does not make it differ).
 */
export function compareNames(registered: string, printed: string | null): Comparison {
  if (printed === null || printed.trim() === '') return 'unknown';
  const printedWords = new Set(nameWords(printed));
  const wanted = nameWords(registered);
  if (wanted.length === 0) return 'unknown';
  return wanted.every((word) => printedWords.has(word)) ? 'same' : 'differs';
}

export const compareDates = (registered: string | null, printed: string | null): Comparison =>
  registered === null || printed === null ? 'unknown' : registered === printed ? 'same' : 'differs';

export const compareTypes = (declared: TDocType | null, found: TDocType | null): Comparison =>
  declared === null || found === null ? 'unknown' : declared === found ? 'same' : 'differs';

/**
 * The comparison shown. The server's check decides what differs (it knows which differences are only a misreading,
 * such as a day and month swapped); a difference it does not flag is shown as 'close', to be looked at.
 */
export function withCheck(comparison: Comparison, checks: readonly TReadingCheck[], kind: TReadingCheck['kind']): Comparison {
  if (checks.some((check) => check.kind === kind)) return 'differs';
  return comparison === 'differs' ? 'close' : comparison;
}

/**
 * The facts the approval step starts with, from what reading found: a certificate's date of birth, a form's or
 * letter's date. A certificate's date the server did not flag as different is the registered one (the step's own
 * default), possibly printed day first: the step keeps the registered date rather than swap it.
 */
export function approvalPrefill(
  docType: TDocType | null,
  document: Pick<TDocument, 'extracted' | 'reading' | 'checks'> | undefined,
): { birthDate?: string; documentDate?: string } {
  if (!document || document.reading.state !== 'done') return {};
  const { dateOfBirth, documentDate } = document.extracted;
  if (docType === 'birth_certificate') {
    const differs = document.checks.some((check) => check.kind === 'dob_mismatch');
    return dateOfBirth && differs ? { birthDate: dateOfBirth } : {};
  }
  if (docType === 'medical' || docType === 'residency') return documentDate ? { documentDate } : {};
  return {};
}

/** The one-click rejection is offered when reading found the document too blurred or dark. */
export const offersBetterPhoto = (checks: readonly TReadingCheck[]): boolean => checks.some((check) => check.kind === 'unreadable');
