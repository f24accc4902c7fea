import { beforeAll, describe, expect, it } from 'vitest';
import { refusedCorpus, VALID_TYPES, validCorpus, writePdf, type RefusedFile, type ValidFile } from '../../../tests/support/file-corpus';
import { makePng } from '../../../tests/support/multipart';
import { INSPECTION_LIMITS, INSPECTION_MESSAGES, inspectFile, type FileInspection } from './inspect';
import { validateFile } from './validate';

const MAX_BYTES = 20 * 1024 * 1024;

/** What intake decides of a file: its first bytes, name and size, then its decoder. */
async function judge(filename: string, bytes: Buffer): Promise<FileInspection | { ok: false; code: string; message: string }> {
  const checked = validateFile({ head: bytes.subarray(0, 4096), filename, bytes: bytes.length, maxBytes: MAX_BYTES });
  if (!checked.ok) return checked;
  return inspectFile(checked.kind, bytes);
}

/** The sentence each refusal must carry: a parent reads it. */
const MESSAGES: Record<string, RegExp> = {
  CORRUPT_FILE: /^This (image is damaged or incomplete \(it could not be opened\); please take the photo again|PDF is damaged and cannot be opened; please export it again|PDF has no pages; please export it again)\.$/,
  PASSWORD_PROTECTED: /^This PDF is password-protected; please send it without a password\.$/,
  IMAGE_TOO_LARGE: /^This image is too large to open \([\d,]+ × [\d,]+ pixels\); please send a smaller photo or scan\.$/,
  TOO_MANY_PAGES: /^This PDF has [\d,]+ pages; at most 1,000 are accepted\. Please send only the pages that are needed\.$/,
  EXTENSION_MISMATCH: /^The file is an? [A-Za-z ]+ but is named \.\w+$/,
  UNSUPPORTED_TYPE: /^Attachment is not a PDF or image$/,
  EMPTY_FILE: /^The file is empty$/,
};

describe('inspectFile on a corpus made by real encoders', () => {
  let valid: ValidFile[] = [];
  let refused: RefusedFile[] = [];
  beforeAll(async () => {
    // A dozen of each type here (the integration test sends fifty of each through the webhook).
    valid = await validCorpus(12);
    refused = await refusedCorpus(valid);
  }, 180_000);

  it('opens every valid file of every accepted type', async () => {
    expect(new Set(valid.map((file) => file.type))).toEqual(new Set(VALID_TYPES));
    const wrong: string[] = [];
    for (const file of valid) {
      const verdict = await judge(file.filename, file.bytes);
      if (!verdict.ok) wrong.push(`${file.label} (${file.filename}): ${verdict.code} ${verdict.message}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses every cut, damaged, locked, misnamed or oversized file, with the reason in words', async () => {
    expect(refused.length).toBeGreaterThanOrEqual(200);
    const wrong: string[] = [];
    for (const file of refused) {
      const verdict = await judge(file.filename, file.bytes);
      if (verdict.ok) wrong.push(`${file.label}: accepted`);
      else if (!file.codes.includes(verdict.code)) wrong.push(`${file.label}: ${verdict.code} (wanted ${file.codes.join(' or ')})`);
      else if (!MESSAGES[verdict.code]?.test(verdict.message)) wrong.push(`${file.label}: "${verdict.message}"`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe('inspectFile', () => {
  it('says what a valid file holds', async () => {
    expect(await inspectFile('pdf', writePdf({ pages: 3, text: 'three pages' }).bytes)).toEqual({ ok: true, pages: 3 });
    expect(await inspectFile('png', makePng(33, 21))).toEqual({ ok: true, width: 33, height: 21 });
  });

  it('refuses a PDF with more pages than the limit before loading them', async () => {
    const pdf = writePdf({ pages: 3, text: 'three pages' }).bytes;
    expect(await inspectFile('pdf', pdf, { ...INSPECTION_LIMITS, maxPages: 2 })).toEqual({
      ok: false,
      code: 'TOO_MANY_PAGES',
      message: 'This PDF has 3 pages; at most 2 are accepted. Please send only the pages that are needed.',
    });
  });

  it('refuses an image larger than the limit without decoding it', async () => {
    expect(await inspectFile('png', makePng(300, 200), { ...INSPECTION_LIMITS, maxPixels: 50_000 })).toEqual({
      ok: false,
      code: 'IMAGE_TOO_LARGE',
      message: INSPECTION_MESSAGES.imageTooLarge(300, 200),
    });
    expect(INSPECTION_MESSAGES.imageTooLarge(16_384, 20_000)).toBe('This image is too large to open (16,384 × 20,000 pixels); please send a smaller photo or scan.');
  });

  it('refuses a file whose bytes are of another type than the one it was sniffed as', async () => {
    expect(await inspectFile('jpeg', makePng(10, 10))).toEqual({ ok: false, code: 'CORRUPT_FILE', message: INSPECTION_MESSAGES.corruptImage });
    expect(await inspectFile('heic', makePng(10, 10))).toEqual({ ok: false, code: 'CORRUPT_FILE', message: INSPECTION_MESSAGES.corruptImage });
    expect(await inspectFile('pdf', makePng(10, 10))).toEqual({ ok: false, code: 'CORRUPT_FILE', message: INSPECTION_MESSAGES.corruptPdf });
  });
});
