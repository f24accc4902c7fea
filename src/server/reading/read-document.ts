import type { OcrEngine } from './ocr';
import { imagePages, UnreadableFile, visitPdfPages } from './page-images';
import { prepareForOcr, type PageSource } from './preprocess';
import type { TextRead } from './types';

/** How far reading goes into a document. */
export type ReadLimits = {
  /** Pages read by OCR (the slow part: seconds each); later pages without a text layer are left. */
  maxOcrPages: number;
  /** Pages read in all; a text layer is cheap, but a 300-page PDF is not a registration document. */
  maxPages: number;
};

type PageRead = { text: string; confidence: number; ocr: boolean };

/** What a read found, before its time is measured by the caller. */
export type DocumentText = Omit<TextRead, 'seconds'>;

/**
 * Reads a document's text: each PDF page's own text layer where it has one, OCR of the page's picture
 * where it has none, OCR of every picture of an image file. `ocr` starts tesseract when first needed (a
 * PDF with a text layer never loads it). Throws UnreadableFile for a file that cannot be decoded.
 */
export async function readDocument(file: { bytes: Uint8Array; mime: string }, limits: ReadLimits, ocr: () => Promise<OcrEngine>): Promise<DocumentText> {
  const reads: PageRead[] = [];
  let ocrPages = 0;
  const recognize = async (source: () => Promise<PageSource>): Promise<PageRead> => {
    // tesseract starts (the first time) while the page is prepared.
    const starting = ocr();
    starting.catch(() => undefined);
    let prepared;
    try {
      prepared = await prepareForOcr(await source());
    } catch {
      throw new UnreadableFile('damaged');
    }
    const engine = await starting;
    const { text, confidence } = await engine.recognize(prepared);
    return { text, confidence, ocr: true };
  };

  if (file.mime === 'application/pdf') {
    await visitPdfPages(file.bytes, async (page, number) => {
      if (page.kind === 'text') reads.push({ text: page.text, confidence: 1, ocr: false });
      else if (ocrPages < limits.maxOcrPages) {
        ocrPages++;
        reads.push(await recognize(page.source));
      }
      return number < limits.maxPages;
    });
  } else {
    const { sources } = await imagePages(file.bytes, file.mime, Math.min(limits.maxOcrPages, limits.maxPages));
    for (const source of sources) reads.push(await recognize(() => Promise.resolve(source)));
  }
  return combine(reads);
}

/** Pages' text in order, one blank line apart; confidence is the pages' own, weighed by how much text each gave. */
export function combine(reads: readonly PageRead[]): DocumentText {
  const withText = reads.filter((read) => read.text.length > 0);
  const characters = withText.reduce((sum, read) => sum + read.text.length, 0);
  const confidence = characters === 0 ? null : withText.reduce((sum, read) => sum + read.confidence * read.text.length, 0) / characters;
  return {
    text: withText.map((read) => read.text).join('\n\n'),
    confidence: confidence === null ? null : Math.round(confidence * 1000) / 1000,
    method: reads.some((read) => read.ocr) ? 'ocr' : 'pdf-text',
    pages: reads.length,
  };
}
