import type { TDocType, TExtracted, TReadingCheck } from '../../contract';

/** How a document's text was read: its PDF's own text layer, or OCR of its images (scans, photos, image-only PDFs). */
export type ReadMethod = 'pdf-text' | 'ocr';

/** The text of one document, as reading found it. */
export type TextRead = {
  /** Pages' text in order, separated by blank lines. */
  text: string;
  /** 0–1: OCR's mean word confidence; 1 for a PDF's own text layer; null when there was no text at all. */
  confidence: number | null;
  method: ReadMethod;
  pages: number;
  /** Wall-clock seconds the reading took. */
  seconds: number;
};

/** Reads documents off the main thread, on this machine only (no network). */
export interface DocumentReader {
  /** The file's plain bytes and its type as validation found it (application/pdf, image/jpeg, image/png, image/heic, image/tiff…). */
  read(file: { bytes: Buffer; mime: string }): Promise<TextRead>;
  /** Ends the reader process; a later read starts it again. */
  close(): Promise<void>;
}

/** The registration a document is checked against. */
export type RegistrationFacts = { firstName: string; lastName: string; birthDate: string };

/** What the checks are computed from: recomputed on every read of the document, so a corrected registration clears them. */
export type CheckInput = {
  extracted: TExtracted;
  /** Whether enough text could be read to judge the document (isReadable). */
  readable: boolean;
  /** The type the sender declared (or the file name suggested); null when undetected. */
  declaredType: TDocType | null;
  registration: RegistrationFacts;
  /** YYYY-MM-DD, the day expiry is judged on. */
  today: string;
};

export type ReadingChecks = (input: CheckInput) => TReadingCheck[];
