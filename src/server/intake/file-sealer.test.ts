import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makePdf, makePng, PNG_HEADER } from '../../../tests/support/multipart';
import { inspectFile } from '../files';
import { decryptToBuffer } from '../platform/crypto/envelope';
import { createFileSealer, HEAD_BYTES, judgeSealed, type InspectFile, type SealOutcome } from './file-sealer';

const masterKey = randomBytes(32);

/** Writes `bytes` in pieces of `size`, keeping every piece of ciphertext (and where write() stopped giving any). */
function sealInPieces(bytes: Buffer, size: number, maxBytes = 1 << 20) {
  const sealer = createFileSealer(masterKey, maxBytes);
  const ciphertext: Buffer[] = [];
  let firstRefused: number | undefined;
  for (let at = 0; at < bytes.length; at += size) {
    const out = sealer.write(bytes.subarray(at, at + size));
    if (out === undefined) firstRefused ??= at;
    else ciphertext.push(out);
  }
  return { sealer, ciphertext: Buffer.concat(ciphertext), firstRefused, outcome: sealer.end() };
}

const sealed = (outcome: SealOutcome) => {
  if (outcome.kind !== 'sealed') throw new Error(`expected a sealed file, got ${outcome.kind}`);
  return outcome;
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('createFileSealer', () => {
  it('seals a file of exactly maxBytes', () => {
    const file = randomBytes(1_000);
    const { sealer, ciphertext, firstRefused, outcome } = sealInPieces(file, 300, 1_000);
    expect(firstRefused).toBeUndefined();
    expect(sealer.tooLarge).toBe(false);
    expect(ciphertext.length).toBe(1_000);
    expect(sealed(outcome).result.bytes).toBe(1_000);
  });

  it('calls a file one byte over maxBytes too large, from the chunk that crosses the cap on', () => {
    const sealer = createFileSealer(masterKey, 1_000);
    expect(sealer.write(randomBytes(600))?.length).toBe(600);
    expect(sealer.tooLarge).toBe(false);
    expect(sealer.write(randomBytes(401))).toBeUndefined();
    expect(sealer.tooLarge).toBe(true);
    // Nothing more once over, even a chunk that alone would fit.
    expect(sealer.write(randomBytes(1))).toBeUndefined();
    expect(sealer.end()).toEqual({ kind: 'too-large', bytesSeen: 1_002 });
  });

  it('calls a single chunk one byte over maxBytes too large', () => {
    const sealer = createFileSealer(masterKey, 1_000);
    expect(sealer.write(randomBytes(1_001))).toBeUndefined();
    expect(sealer.end()).toEqual({ kind: 'too-large', bytesSeen: 1_001 });
  });

  it.each([
    ['1-byte chunks', 1],
    ['7-byte chunks', 7],
    ['chunks of 4095', HEAD_BYTES - 1],
    ['one chunk', 1 << 20],
  ])('keeps the first HEAD_BYTES bytes as the head, written in %s', (_label, size) => {
    const file = randomBytes(HEAD_BYTES * 2 + 13);
    const head = sealed(sealInPieces(file, size).outcome).head;
    expect(head.length).toBe(HEAD_BYTES);
    expect(head.equals(file.subarray(0, HEAD_BYTES))).toBe(true);
  });

  it('keeps the whole file as the head when it is shorter than HEAD_BYTES', () => {
    const file = randomBytes(100);
    expect(sealed(sealInPieces(file, 9).outcome).head.equals(file)).toBe(true);
  });

  it('keeps its own copy of the file: a chunk reused after write() does not change it', () => {
    const sealer = createFileSealer(masterKey, 1 << 20);
    const chunk = Buffer.from('%PDF-1.7 and more');
    sealer.write(chunk);
    chunk.fill(0);
    const outcome = sealed(sealer.end());
    expect(outcome.head.toString('latin1')).toBe('%PDF-1.7 and more');
    expect(outcome.plaintext.toString('latin1')).toBe('%PDF-1.7 and more');
  });

  it('keeps a chunk said to stay as it is, and the same file comes out as from copies', () => {
    const file = randomBytes(300_000);
    const kept = createFileSealer(masterKey, 1 << 20);
    const copied = createFileSealer(masterKey, 1 << 20);
    for (let at = 0; at < file.length; at += 70_000) {
      expect(kept.write(file.subarray(at, at + 70_000), true)?.length).toBe(copied.write(file.subarray(at, at + 70_000))?.length);
    }
    const [a, b] = [sealed(kept.end()), sealed(copied.end())];
    expect(a.plaintext.equals(file)).toBe(true);
    expect(b.plaintext.equals(file)).toBe(true);
    expect(a.result.sha256).toBe(b.result.sha256);
  });

  it('gives the plaintext of a file over 4 KiB a buffer of its own, which another thread can take over whole', () => {
    for (const stays of [false, true]) {
      const sealer = createFileSealer(masterKey, 1 << 20);
      const file = randomBytes(5_000);
      sealer.write(file.subarray(0, 2_000), stays);
      sealer.write(file.subarray(2_000), stays);
      const { plaintext } = sealed(sealer.end());
      expect(plaintext.equals(file)).toBe(true);
      expect([plaintext.byteOffset, plaintext.buffer.byteLength]).toEqual([0, file.length]);
    }
  });

  it.each([
    ['1-byte chunks', 1],
    ['chunks of 4095', HEAD_BYTES - 1],
    ['one chunk', 1 << 20],
  ])('keeps the whole plaintext for the decoder, written in %s', (_label, size) => {
    const file = randomBytes(3 * HEAD_BYTES + 5);
    expect(sealed(sealInPieces(file, size).outcome).plaintext.equals(file)).toBe(true);
  });

  it.each([
    ['an empty file', 0, 64],
    ['a 1-byte file', 1, 64],
    ['a 300 KB file in 7-byte chunks', 300_000, 7],
    ['a 300 KB file in 64 KiB chunks', 300_000, 64 * 1024],
  ])('gives ciphertext that decrypts to the input, with its SHA-256 and size: %s', async (_label, size, chunk) => {
    const file = randomBytes(size);
    const { ciphertext, outcome } = sealInPieces(file, chunk);
    const { result } = sealed(outcome);
    expect(ciphertext.length).toBe(size);
    if (size > 16) expect(ciphertext.equals(file)).toBe(false);
    expect(result.bytes).toBe(size);
    expect(result.sha256).toBe(sha256(file));
    expect((await decryptToBuffer(masterKey, result, ciphertext)).equals(file)).toBe(true);
  });

  it('uses a fresh key for every file', () => {
    const file = randomBytes(64);
    const a = sealInPieces(file, 64);
    const b = sealInPieces(file, 64);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(sealed(a.outcome).result.wrappedKey.equals(sealed(b.outcome).result.wrappedKey)).toBe(false);
  });
});

describe('judgeSealed', () => {
  const seal = (bytes: Buffer, maxBytes = 1 << 20) => sealInPieces(bytes, 1_000, maxBytes).outcome;
  const inspect: InspectFile = (kind, bytes) => inspectFile(kind, bytes);
  /** For files refused before they are opened: the decoder must not be asked. */
  const neverInspect: InspectFile = () => Promise.reject(new Error('the decoder was asked about a file already refused'));

  it.each([
    ['a PDF', makePdf('a birth certificate'), 'birth.pdf', 'application/pdf', 'pdf'],
    ['a PDF named in capitals', makePdf('a waiver'), 'WAIVER.PDF', 'application/pdf', 'pdf'],
    ['a PDF without an extension', makePdf('a waiver'), 'waiver', 'application/pdf', 'pdf'],
    ['a PNG', makePng(60, 40, 3), 'scan.png', 'image/png', 'png'],
  ])('accepts %s with its type and extension', async (_label, bytes, originalFilename, mime, extension) => {
    const outcome = seal(bytes);
    const verdict = await judgeSealed(outcome, { originalFilename, maxBytes: 1 << 20 }, inspect);
    expect(verdict).toEqual({ kind: 'accepted', mime, extension, result: sealed(outcome).result });
  });

  it.each([
    ['a PNG cut short', makePng(60, 40, 4).subarray(0, 5_000), 'scan.png', 'This image is damaged or incomplete (it could not be opened); please take the photo again.'],
    ['a PNG signature and nothing of an image', Buffer.concat([PNG_HEADER, randomBytes(5_000)]), 'scan.png', 'This image is damaged or incomplete (it could not be opened); please take the photo again.'],
    ['a PDF cut short', makePdf('a waiver').subarray(0, 300), 'waiver.pdf', 'This PDF is damaged and cannot be opened; please export it again.'],
  ])('refuses %s once its decoder has opened it', async (_label, bytes, originalFilename, message) => {
    expect(await judgeSealed(seal(bytes), { originalFilename, maxBytes: 1 << 20 }, inspect)).toEqual({ kind: 'refused', code: 'CORRUPT_FILE', message, bytes: bytes.length });
  });

  it('fails, rather than refusing the file, when the decoder cannot be asked', async () => {
    await expect(judgeSealed(seal(makePdf('a waiver')), { originalFilename: 'waiver.pdf', maxBytes: 1 << 20 }, neverInspect)).rejects.toThrow('the decoder was asked');
  });

  it('refuses an empty file', async () => {
    expect(await judgeSealed(seal(Buffer.alloc(0)), { originalFilename: 'empty.pdf', maxBytes: 1 << 20 }, neverInspect)).toEqual({
      kind: 'refused',
      code: 'EMPTY_FILE',
      message: 'The file is empty',
      bytes: 0,
    });
  });

  it('refuses a file named for another type', async () => {
    const png = Buffer.concat([PNG_HEADER, Buffer.alloc(100)]);
    expect(await judgeSealed(seal(png), { originalFilename: 'photo.pdf', maxBytes: 1 << 20 }, neverInspect)).toEqual({
      kind: 'refused',
      code: 'EXTENSION_MISMATCH',
      message: 'The file is a PNG image but is named .pdf',
      bytes: 116,
    });
  });

  it('refuses a file that is not a PDF or an image', async () => {
    const executable = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1), Buffer.from('%PDF-1.7')]);
    expect(await judgeSealed(seal(executable), { originalFilename: 'setup.pdf', maxBytes: 1 << 20 }, neverInspect)).toEqual({
      kind: 'refused',
      code: 'UNSUPPORTED_TYPE',
      message: 'Attachment is not a PDF or image',
      bytes: 210,
    });
  });

  it('refuses a file over the cap, saying how large it was and what the limit is', async () => {
    const maxBytes = 256 * 1024;
    const pdf = makePdf('too big');
    const outcome = seal(Buffer.concat([pdf, Buffer.alloc(maxBytes + 1 - pdf.length, 0x20)]), maxBytes);
    expect(outcome).toEqual({ kind: 'too-large', bytesSeen: maxBytes + 1 });
    expect(await judgeSealed(outcome, { originalFilename: 'big.pdf', maxBytes }, neverInspect)).toEqual({
      kind: 'refused',
      code: 'TOO_LARGE',
      message: 'The file is 256.1 KB; the limit is 256 KB',
      bytes: maxBytes + 1,
    });
  });

  it('refuses a file one byte over a 20 MB cap without rounding it down to the limit', async () => {
    const maxBytes = 20 * 1024 * 1024;
    expect(await judgeSealed({ kind: 'too-large', bytesSeen: maxBytes + 1 }, { originalFilename: 'big.pdf', maxBytes }, neverInspect)).toEqual({
      kind: 'refused',
      code: 'TOO_LARGE',
      message: 'The file is 20.1 MB; the limit is 20 MB',
      bytes: maxBytes + 1,
    });
  });
});
