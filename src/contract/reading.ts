import { z } from 'zod';
import { ZDocType } from './domain';

/**
 * Reading a document: the text a stored document holds (its PDF text layer, or OCR of a scan or photo, on this
 * machine only), the facts found in it, and the checks of those facts against the registration. Reading runs
 * after the document is stored, never delays intake, and can be turned off in Settings → System.
 */

/** What was found in the document; each field null when it was not found (or the document was not read). */
export const ZExtracted = z.object({
  /** The type the content says it is. */
  docType: ZDocType.nullable(),
  /** The child's full name as the document prints it. */
  fullName: z.string().nullable(),
  /** YYYY-MM-DD. */
  dateOfBirth: z.string().nullable(),
  /** The date the document bears: a medical form's exam date, a residency letter's or a waiver's date. YYYY-MM-DD. */
  documentDate: z.string().nullable(),
  /** 0–1: how sure the reading is of the text (OCR's mean word confidence; 1 for a PDF's own text layer). */
  confidence: z.number().min(0).max(1).nullable(),
});
export type TExtracted = z.infer<typeof ZExtracted>;

export const NOTHING_EXTRACTED: TExtracted = { docType: null, fullName: null, dateOfBirth: null, documentDate: null, confidence: null };

/**
 * What a reviewer should look at twice:
 * - `type_mismatch`: the content says one type, the sender said another;
 * - `dob_mismatch`: the date of birth printed differs from the registration's;
 * - `name_mismatch`: the name printed is not the registered player's;
 * - `unreadable`: too blurred or dark to read (the family can be asked for a better photo);
 * - `expired`: a medical form whose exam date is more than 12 months old.
 */
export const READING_CHECK_KINDS = ['type_mismatch', 'dob_mismatch', 'name_mismatch', 'unreadable', 'expired'] as const;
export const ZReadingCheckKind = z.enum(READING_CHECK_KINDS);
export type TReadingCheckKind = z.infer<typeof ZReadingCheckKind>;
export const ZReadingCheck = z.object({ kind: ZReadingCheckKind, message: z.string() });
export type TReadingCheck = z.infer<typeof ZReadingCheck>;

/**
 * Where the reading of a document stands:
 * `waiting` (queued or running), `done`, `off` (not read: reading was turned off when the document arrived, or it
 * arrived before documents were read),
 * `failed` (the file could not be read; the document is reviewed by eye as before), `removed` (the file,
 * and its text with it, was deleted).
 */
export const READING_STATES = ['waiting', 'done', 'off', 'failed', 'removed'] as const;
export const ZReadingState = z.enum(READING_STATES);
export type TReadingState = z.infer<typeof ZReadingState>;

/** A medical exam older than this many months is flagged `expired`. */
export const MEDICAL_EXAM_VALID_MONTHS = 12;

/** The words a search must find inside documents: at least this long (shorter words match too much). */
export const MIN_CONTENT_SEARCH_WORD = 3;

/** The reason the review screen's one-click "Ask for a better photo" rejects an unreadable document with. */
export const UNREADABLE_REASON = 'The photo is too blurred or dark to read. Please take it again in good light, flat and in focus.';
