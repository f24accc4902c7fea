import { FAMILY_DOC_STATE_LABELS, type TFamilyDocState, type TFamilyPage } from '../../../contract';

export type FamilyDocument = TFamilyPage['documents'][number];

/** How a card looks: the colours of its state badge. */
export type StateTone = 'missing' | 'waiting' | 'done' | 'refused';

export interface DocumentCardView {
  /** The state in a family's words: Missing, Under review, Accepted, Not accepted. */
  label: string;
  /** One line under it saying what the state means for the family. */
  explanation: string;
  tone: StateTone;
  /** Whether the card offers to send a file: a missing document, or one the league did not accept. */
  canSend: boolean;
  /** The reviewer's reason, shown prominently; only for a document not accepted. */
  reason: string | null;
}

const EXPLANATIONS: Record<TFamilyDocState, string> = {
  missing: 'We do not have this yet. Take a photo of it or choose a file.',
  under_review: 'We have it; a volunteer will check it.',
  accepted: 'All done, nothing more to do.',
  not_accepted: 'Please send it again.',
};

const TONES: Record<TFamilyDocState, StateTone> = {
  missing: 'missing',
  under_review: 'waiting',
  accepted: 'done',
  not_accepted: 'refused',
};

/** What one document's card says and offers, from its state on the page. */
export function documentCardView(document: FamilyDocument): DocumentCardView {
  const refused = document.state === 'not_accepted';
  const reason = refused ? (document.reason?.trim() ?? '') : '';
  return {
    label: FAMILY_DOC_STATE_LABELS[document.state],
    explanation: EXPLANATIONS[document.state],
    tone: TONES[document.state],
    canSend: document.state === 'missing' || refused,
    reason: refused ? reason || 'The reviewer gave no reason. Ask the league if you are not sure what to send.' : null,
  };
}

/** The line at the top of the page: how many documents are still to send, or that everything is in. */
export function pageSummary(documents: readonly FamilyDocument[]): string {
  const toSend = documentsToSend(documents);
  if (documents.length === 0) return 'There are no documents to send.';
  if (toSend === 0) {
    return documents.every((document) => document.state === 'accepted')
      ? 'Every document is accepted. Thank you!'
      : 'We have every document. A volunteer will check them.';
  }
  return toSend === 1 ? '1 document still to send.' : `${toSend} documents still to send.`;
}

/** The page's title: "Sam's documents for Spring 2026". */
export function pageTitle(firstName: string, seasonName: string): string {
  const name = firstName.trim();
  return `${name === '' ? 'Your' : `${name}’s`} documents for ${seasonName}`;
}

/** How many documents the family still has to send: missing ones and those not accepted. */
export const documentsToSend = (documents: readonly FamilyDocument[]): number =>
  documents.filter((document) => documentCardView(document).canSend).length;

/**
 * The deadline line around its date (shown bold between `before` and `after`): a request while there is time,
 * a plain "as soon as you can" once it has passed, and just the date when nothing is left to send. `today` and
 * the deadline are compared as calendar days (YYYY-MM-DD).
 */
export function deadlineWording(deadline: string, today: string, toSend: number): { before: string; after: string } {
  if (toSend === 0) return { before: 'Deadline: ', after: '' };
  if (deadline.slice(0, 10) < today) return { before: 'The deadline was ', after: '. Please send them as soon as you can.' };
  return { before: 'Please send them by ', after: '.' };
}

/** The reader's calendar day as YYYY-MM-DD. */
export function localDay(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
