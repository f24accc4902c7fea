import type { TExtracted, TReadingCheck, TReadingState } from '../../contract';
import type { Db } from '../platform/db/client';
import { readingChecks } from './checks';
import { findReadingOfDocument } from './reading.repository';

/** What reading found in a document, with the checks against its registration, as the API shows it. */
export type DocumentReadingView = {
  state: TReadingState;
  method: 'pdf-text' | 'ocr' | null;
  readAt: Date | null;
  extracted: TExtracted | null;
  checks: TReadingCheck[];
};

/** A document that arrived before documents were read: shown as not read (reading was not on for it). */
export const NOT_READ: DocumentReadingView = { state: 'off', method: null, readAt: null, extracted: null, checks: [] };

/**
 * The reading of a document, its checks computed now against the registration as it is now (a corrected date
 * of birth clears a mismatch at once) and `today` (YYYY-MM-DD, for an exam that is too old).
 */
export async function documentReadingView(db: Db, documentId: string, today: string): Promise<DocumentReadingView> {
  const reading = await findReadingOfDocument(db, documentId);
  if (!reading) return NOT_READ;
  const checks =
    reading.state === 'done' && reading.extracted
      ? readingChecks({ extracted: reading.extracted, readable: reading.readable ?? true, declaredType: reading.docType, registration: reading.player, today })
      : [];
  return { state: reading.state, method: reading.method, readAt: reading.readAt, extracted: reading.extracted, checks };
}
