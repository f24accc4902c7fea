import { afterAll, describe, expect, it } from 'vitest';
import { makePdf, makePng } from '../../../tests/support/multipart';
import { INSPECTION_MESSAGES } from './inspect';
import { createFileInspector, type FileInspector } from './inspector';

const misbehaving = new URL('./test-threads/misbehaving-inspector.mjs', import.meta.url);
const broken = new URL('./test-threads/broken-inspector.mjs', import.meta.url);
const bytes = (text: string) => Buffer.from(text, 'latin1');
/** The stand-in's answer to a file it opens: its thread's id as the page count. */
const fine = { ok: true, pages: expect.any(Number) as number };

describe('createFileInspector', () => {
  const opened: FileInspector[] = [];
  const inspector = (options: Parameters<typeof createFileInspector>[0] = {}) => {
    const created = createFileInspector(options);
    opened.push(created);
    return created;
  };
  afterAll(() => Promise.all(opened.map((created) => created.close())));

  it('opens files in a thread of its own, one after another, and keeps the caller’s bytes', async () => {
    const files = inspector();
    const pdf = makePdf('a birth certificate');
    const photo = makePng(40, 30, 9);
    const answers = await Promise.all([files.inspect('pdf', pdf), files.inspect('png', photo), files.inspect('png', photo.subarray(0, 400))]);
    expect(answers).toEqual([
      { ok: true, pages: 1 },
      { ok: true, width: 40, height: 30 },
      { ok: false, code: 'CORRUPT_FILE', message: INSPECTION_MESSAGES.corruptImage },
    ]);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 60_000);

  it('moves bytes handed over to its thread, uncopied, when they are a whole buffer; copies any other', async () => {
    const files = inspector();
    const whole = Buffer.concat([makePdf('handed over', 10_000)]);
    expect([whole.byteOffset, whole.buffer.byteLength]).toEqual([0, whole.length]);
    const inLarger = Buffer.concat([makePdf('a part of a larger buffer', 10_000), Buffer.alloc(100)]);
    const part = inLarger.subarray(0, inLarger.length - 100);
    expect(await files.inspect('pdf', whole, { handOver: true })).toEqual({ ok: true, pages: 1 });
    expect(await files.inspect('pdf', part, { handOver: true })).toEqual({ ok: true, pages: 1 });
    // Moved: nothing is left here. Copied: the caller's bytes are untouched.
    expect(whole.length).toBe(0);
    expect(part.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 60_000);

  it('ends a thread whose decoder never returns, refuses that file, and opens the next in a new thread', async () => {
    const files = inspector({ entry: misbehaving, timeoutMs: 500 });
    const [looping, next] = await Promise.all([files.inspect('pdf', bytes('LOOP forever')), files.inspect('pdf', bytes('%PDF- fine'))]);
    expect(looping).toEqual({ ok: false, code: 'TOO_COMPLEX', message: INSPECTION_MESSAGES.tooComplexPdf });
    expect(next).toEqual(fine);
  }, 60_000);

  it('refuses the file whose decoder crashed its thread, and opens the next in a new thread', async () => {
    const files = inspector({ entry: misbehaving });
    expect(await files.inspect('heic', bytes('CRASH now'))).toEqual({ ok: false, code: 'TOO_COMPLEX', message: INSPECTION_MESSAGES.tooComplexImage });
    expect(await files.inspect('jpeg', bytes('fine'))).toEqual(fine);
  }, 60_000);

  it('refuses the file whose decoder ran its thread out of memory, and opens the next in a new thread', async () => {
    const files = inspector({ entry: misbehaving, maxHeapMb: 32 });
    expect(await files.inspect('tiff', bytes('HOARD memory'))).toEqual({ ok: false, code: 'TOO_COMPLEX', message: INSPECTION_MESSAGES.tooComplexImage });
    expect(await files.inspect('tiff', bytes('fine'))).toEqual(fine);
  }, 60_000);

  it('keeps its thread from one file to the next, and starts a new one after a file that asks for it', async () => {
    const files = inspector({ entry: misbehaving });
    const threadOf = async (text: string) => {
      const inspection = await files.inspect('heic', bytes(text));
      if (!inspection.ok || inspection.pages === undefined) throw new Error(`no answer for ${text}`);
      return inspection.pages;
    };
    const first = await threadOf('one');
    expect(await threadOf('two')).toBe(first);
    expect(await threadOf('RECYCLE after a large photo')).toBe(first);
    expect(await threadOf('three')).not.toBe(first);
  }, 60_000);

  it('fails, rather than refusing the file, when its thread cannot start: the fault is the server’s', async () => {
    const files = inspector({ entry: broken });
    await expect(files.inspect('pdf', makePdf('a waiver'))).rejects.toThrow('Cannot find package sharp');
    await expect(files.inspect('pdf', makePdf('a waiver'))).rejects.toThrow('Cannot find package sharp');
  }, 60_000);

  it('fails the files still waiting when it is closed, and takes no more', async () => {
    const files = createFileInspector({ entry: misbehaving, timeoutMs: 60_000 });
    const waiting = [files.inspect('pdf', bytes('LOOP forever')), files.inspect('pdf', bytes('%PDF- queued'))];
    const settled = Promise.allSettled(waiting);
    await files.close();
    expect((await settled).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await expect(files.inspect('pdf', bytes('%PDF- later'))).rejects.toThrow('closed');
  }, 60_000);
});
