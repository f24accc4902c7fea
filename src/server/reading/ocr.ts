import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { type GreyImage } from './deskew';
import { toPgm } from './preprocess';

/**
 * OCR with tesseract.js (Tesseract compiled to WebAssembly, in a worker thread of its own that tesseract.js
 * starts inside the reader process). The English model is the npm package @tesseract.js-data/eng, read from
 * node_modules: nothing is fetched, and with cacheMethod 'none' nothing is written beside the process.
 *
 * The "best_int" model (LSTM only, 3 MB): it loads twice as fast as the 11 MB one in the package's 4.0.0
 * folder and reads these documents as well.
 */
const MODEL_FOLDER = '4.0.0_best_int';

function modelDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(packageJson), MODEL_FOLDER);
}

export type OcrResult = { text: string; confidence: number };

export type OcrEngine = {
  recognize(image: GreyImage): Promise<OcrResult>;
  terminate(): Promise<void>;
};

/** Starts tesseract (half a second to a second: the WebAssembly core and the model). */
export async function startOcrEngine(): Promise<OcrEngine> {
  const worker: Worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: modelDirectory(),
    gzip: true,
    cacheMethod: 'none',
    // Failures are reported by the rejected promise; tesseract.js would otherwise print them too.
    errorHandler: () => undefined,
  });
  await worker.setParameters({
    tessedit_pageseg_mode: PSM.AUTO,
    // Pages are prepared at about 300 dpi; saying so spares tesseract a guess from the picture's header.
    user_defined_dpi: '300',
    // Tesseract's own notes ("Detected 26 diacritics") would go to the server's output between its log lines.
    debug_file: '/dev/null',
  });
  return {
    async recognize(image) {
      const { data } = await worker.recognize(toPgm(image));
      const text = data.text.trim();
      return { text, confidence: text ? Math.max(0, Math.min(1, data.confidence / 100)) : 0 };
    },
    async terminate() {
      await worker.terminate();
    },
  };
}
