import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM } from 'tesseract.js';
import type { DocumentReader, TextRead } from '../src/server/reading/types';

/**
 * A reader for the reading bench until the document reader lands: tesseract.js with the reader's model and
 * options, on a page made grey, stretched to full contrast and brought to at most 300 dpi for a letter page.
 * Images only (the corpus has no PDFs).
 */
export async function createStandInReader(): Promise<DocumentReader> {
  const langPath = path.join(path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', errorHandler: () => undefined });
  await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' });
  return {
    async read(file): Promise<TextRead> {
      const started = performance.now();
      const image = await sharp(file.bytes).rotate().greyscale().normalise().resize({ width: 2550, withoutEnlargement: true }).png().toBuffer();
      const { data } = await worker.recognize(image);
      const text = data.text.trim();
      return {
        text,
        confidence: text ? Math.max(0, Math.min(1, data.confidence / 100)) : null,
        method: 'ocr',
        pages: 1,
        seconds: (performance.now() - started) / 1000,
      };
    },
    async close() {
      await worker.terminate();
    },
  };
}
