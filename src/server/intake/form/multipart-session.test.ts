import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMultipart, makePdf, makePng, type Part } from '../../../../tests/support/multipart';
import { inspectFile } from '../../files';
import { decryptToBuffer } from '../../platform/crypto/envelope';
import type { InspectFile, SealVerdict } from '../file-sealer';
import { signBody } from './form-webhook';
import { createMultipartSession, MAX_FILES, type SessionFileEvent, type SessionOutcome } from './multipart-session';

const SECRET = 'form-webhook-secret-for-session-tests';
const masterKey = randomBytes(32);
const MAX_FILE_BYTES = 200_000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A small deterministic generator, so a "random" chunking is the same on every run. */
function seededSizes(seed: number, max: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return 1 + (state % max);
  };
}

type Chunking = (offset: number) => number;

/** The decoders, in this thread (the intake thread runs them in its file inspector's), counting the files opened. */
let opened = 0;
const inspect: InspectFile = (kind, bytes) => {
  opened++;
  return inspectFile(kind, bytes);
};

/**
 * Feeds `body` to a fresh session in pieces whose sizes `chunking` decides, and collects what it says.
 * The body is signed as a form provider signs it unless `signature` says otherwise.
 */
async function runSession(
  body: Buffer,
  contentType: string,
  chunking: Chunking = () => body.length || 1,
  maxFileBytes = MAX_FILE_BYTES,
  options: { signature?: string; inspect?: InspectFile } = {},
) {
  const events: SessionFileEvent[] = [];
  const session = createMultipartSession({
    contentType,
    secret: SECRET,
    signature: options.signature ?? signBody(SECRET, body),
    masterKey,
    maxFileBytes,
    inspect: options.inspect ?? inspect,
    emit: (event) => events.push(event),
  });
  for (let at = 0; at < body.length; ) {
    const size = chunking(at);
    await session.write(body.subarray(at, at + size));
    at += size;
  }
  const outcome = await session.end();
  return { events, outcome, files: filesOf(events) };
}

type SessionFile = { fieldName: string; originalFilename: string; ciphertext: Buffer; verdict: SealVerdict | undefined };

/** Each file's start, ciphertext and verdict, by position. */
function filesOf(events: SessionFileEvent[]): SessionFile[] {
  const files: SessionFile[] = [];
  const pieces = new Map<number, Buffer[]>();
  for (const event of events) {
    if (event.type === 'file-start') {
      files[event.position] = { fieldName: event.fieldName, originalFilename: event.originalFilename, ciphertext: Buffer.alloc(0), verdict: undefined };
      pieces.set(event.position, []);
    } else if (event.type === 'file-data') {
      pieces.get(event.position)?.push(event.chunk);
    } else {
      const file = files[event.position];
      if (file) file.verdict = event.verdict;
    }
  }
  for (const [position, chunks] of pieces) {
    const file = files[position];
    if (file) file.ciphertext = Buffer.concat(chunks);
  }
  return files;
}

/** Each position's events must go start, data…, end, each exactly once; returns the positions in start order. */
function expectOrderedPerFile(events: SessionFileEvent[]): number[] {
  const state = new Map<number, 'started' | 'ended'>();
  const started: number[] = [];
  for (const event of events) {
    const now = state.get(event.position);
    if (event.type === 'file-start') {
      expect(now, `file ${event.position} started twice`).toBeUndefined();
      state.set(event.position, 'started');
      started.push(event.position);
    } else {
      expect(now, `file ${event.position} got ${event.type} while ${now ?? 'not started'}`).toBe('started');
      if (event.type === 'file-end') state.set(event.position, 'ended');
    }
  }
  expect([...state.values()].every((s) => s === 'ended')).toBe(true);
  return started;
}

/** A file of a body that will be refused (unsigned, malformed): sealed, never opened. */
const notOpened = (bytes: number): SealVerdict => ({ kind: 'refused', code: 'NOT_OPENED', message: 'The file was not opened: the request was refused.', bytes });

const accepted = (verdict: SealVerdict | undefined) => {
  if (verdict?.kind !== 'accepted') throw new Error(`expected an accepted file, got ${JSON.stringify(verdict)}`);
  return verdict;
};

const verdictDigest = (outcome: SessionOutcome, files: SessionFile[]) => ({
  fields: outcome.fields,
  hmacHex: outcome.hmacHex,
  bytes: outcome.bytes,
  parseError: outcome.parseError,
  unknownField: outcome.unknownField,
  files: files.map((file) => ({
    fieldName: file.fieldName,
    originalFilename: file.originalFilename,
    verdict: file.verdict?.kind === 'accepted' ? { kind: 'accepted', sha256: file.verdict.result.sha256, bytes: file.verdict.result.bytes, mime: file.verdict.mime } : file.verdict,
  })),
});

const birth = makePdf('birth certificate of Ada', 30_000);
const medical = makePng(150, 150, 5);
const waiver = makePdf('waiver', 10);
const formParts: Part[] = [
  { name: 'submissionId', value: 'form-42' },
  { name: 'playerFirstName', value: 'Zoë' },
  { name: 'birth_certificate', filename: 'Ada birth.pdf', content: birth, contentType: 'application/pdf' },
  { name: 'playerLastName', value: "O'Brien" },
  { name: 'medical', filename: 'physical.png', content: medical, contentType: 'image/png' },
  { name: 'document', filename: 'C:\\forms\\waiver.pdf', content: waiver },
];

describe('createMultipartSession', () => {
  it('parses the fields and seals each file, telling start, ciphertext and verdict of each in order', async () => {
    const { body, contentType } = buildMultipart(formParts);
    const { events, outcome, files } = await runSession(body, contentType, seededSizes(1, 9_000));

    expect(outcome).toEqual({
      hmacHex: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      bytes: body.length,
      fields: { submissionId: 'form-42', playerFirstName: 'Zoë', playerLastName: "O'Brien" },
      parseError: null,
      unknownField: null,
      unstorableFilenameField: null,
    });
    expect(expectOrderedPerFile(events)).toEqual([0, 1, 2]);
    expect(files.map((file) => [file.fieldName, file.originalFilename])).toEqual([
      ['birth_certificate', 'Ada birth.pdf'],
      ['medical', 'physical.png'],
      ['document', 'waiver.pdf'],
    ]);
    expect(files.map((file) => file.verdict?.kind === 'accepted' && [file.verdict.mime, file.verdict.extension])).toEqual([
      ['application/pdf', 'pdf'],
      ['image/png', 'png'],
      ['application/pdf', 'pdf'],
    ]);

    for (const [position, original] of [birth, medical, waiver].entries()) {
      const file = files[position];
      if (!file) throw new Error(`no file at ${position}`);
      const { result } = accepted(file.verdict);
      expect(result).toMatchObject({ sha256: sha256(original), bytes: original.length });
      expect(file.ciphertext.length).toBe(original.length);
      expect(file.ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
      expect((await decryptToBuffer(masterKey, result, file.ciphertext)).equals(original)).toBe(true);
    }
  });

  it('computes the HMAC of the signature over the raw body', async () => {
    const { body, contentType } = buildMultipart(formParts);
    const { outcome } = await runSession(body, contentType);
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, body));
  });

  it('gives the same fields, file events, file hashes and HMAC whether fed in 1-byte, 7-byte, random or one chunk', async () => {
    const { body, contentType } = buildMultipart(formParts);
    const inOne = await runSession(body, contentType);
    expect(expectOrderedPerFile(inOne.events)).toEqual([0, 1, 2]);
    const whole = verdictDigest(inOne.outcome, inOne.files);
    expect(whole.files.map((file) => file.verdict)).toEqual([
      { kind: 'accepted', sha256: sha256(birth), bytes: birth.length, mime: 'application/pdf' },
      { kind: 'accepted', sha256: sha256(medical), bytes: medical.length, mime: 'image/png' },
      { kind: 'accepted', sha256: sha256(waiver), bytes: waiver.length, mime: 'application/pdf' },
    ]);
    for (const chunking of [() => 1, () => 7, seededSizes(7, 3_000), seededSizes(99, 70_000)]) {
      const { events, outcome, files } = await runSession(body, contentType, chunking);
      expect(expectOrderedPerFile(events)).toEqual([0, 1, 2]);
      expect(verdictDigest(outcome, files)).toEqual(whole);
    }
    // Five sessions, one in 1-byte chunks of a 110 KB body: a hundred thousand writes, on a machine that may be busy.
  }, 30_000);

  it('hands each decoder exactly the file, however the body is cut, a boundary split across pieces included', async () => {
    // A file's bytes are kept where the body's pieces hold them, or copied when the parser hands them from a
    // buffer of its own (what may have started a boundary): either way the decoder must see the file as sent.
    const { body, contentType } = buildMultipart(formParts);
    const boundaryAt = body.indexOf(Buffer.from(`\r\n--${/boundary=(.+)$/.exec(contentType)?.[1] ?? ''}`), body.indexOf(birth.subarray(-20)));
    expect(boundaryAt).toBeGreaterThan(0);
    const splitInBoundary: Chunking = (at) => (at < boundaryAt + 5 ? boundaryAt + 5 - at : body.length);
    for (const chunking of [() => 1, () => 7, seededSizes(3, 5_000), splitInBoundary]) {
      const handed: Buffer[] = [];
      const capture: InspectFile = (kind, bytes) => {
        handed.push(Buffer.from(bytes));
        return inspectFile(kind, bytes);
      };
      const { files } = await runSession(body, contentType, chunking, MAX_FILE_BYTES, { inspect: capture });
      expect(files.map((file) => file.verdict?.kind)).toEqual(['accepted', 'accepted', 'accepted']);
      expect(handed.map(sha256)).toEqual([birth, medical, waiver].map(sha256));
    }
  }, 30_000);

  it('accepts a file of exactly maxFileBytes', async () => {
    const pdf = makePdf('at the cap');
    const exact = Buffer.concat([pdf, Buffer.alloc(MAX_FILE_BYTES - pdf.length, 0x20)]);
    const { body, contentType } = buildMultipart([{ name: 'medical', filename: 'm.pdf', content: exact }]);
    const { files } = await runSession(body, contentType, () => 16_384);
    expect(accepted(files[0]?.verdict).result).toMatchObject({ bytes: MAX_FILE_BYTES, sha256: sha256(exact) });
  });

  it('refuses a file over maxFileBytes as too large, and still seals the next one', async () => {
    const pdf = makePdf('one byte over');
    const over = Buffer.concat([pdf, Buffer.alloc(MAX_FILE_BYTES + 1 - pdf.length, 0x20)]);
    const { body, contentType } = buildMultipart([
      { name: 'residency', filename: 'big.pdf', content: over },
      { name: 'medical', filename: 'm.pdf', content: waiver },
    ]);
    const { events, outcome, files } = await runSession(body, contentType, () => 16_384);
    expect(outcome.parseError).toBeNull();
    expect(files[0]?.verdict).toEqual({ kind: 'refused', code: 'TOO_LARGE', message: 'The file is 195.4 KB; the limit is 195.3 KB', bytes: MAX_FILE_BYTES + 1 });
    // Nothing past the cap comes out: at most the ciphertext of the bytes before the crossing chunk.
    expect(files[0]?.ciphertext.length).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(accepted(files[1]?.verdict).result.sha256).toBe(sha256(waiver));
    expectOrderedPerFile(events);
  });

  it('refuses a file far over maxFileBytes as too large, judged on the bytes read up to the cap', async () => {
    const { body, contentType } = buildMultipart([{ name: 'residency', filename: 'huge.pdf', content: makePdf('huge', 5 * MAX_FILE_BYTES) }]);
    const { outcome, files } = await runSession(body, contentType, () => 65_536);
    expect(outcome.parseError).toBeNull();
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, body));
    // The parser stops the part one byte past the cap, so that is the size the verdict knows of.
    expect(files[0]?.verdict).toEqual({ kind: 'refused', code: 'TOO_LARGE', message: 'The file is 195.4 KB; the limit is 195.3 KB', bytes: MAX_FILE_BYTES + 1 });
  });

  it.each([
    ['one big chunk', () => Number.MAX_SAFE_INTEGER],
    ['7-byte chunks', () => 7],
  ])('reports a body cut before its closing boundary, hashes every byte fed and ends every file it started (%s)', async (_label, chunking) => {
    const { body, contentType } = buildMultipart(formParts);
    // Cut inside the second file: the first is complete, the second is not.
    const cut = body.subarray(0, body.indexOf(medical) + 20_000);
    const { events, outcome, files } = await runSession(cut, contentType, chunking);
    expect(outcome.parseError).toBe('The multipart body is malformed or incomplete: Unexpected end of multipart data.');
    expect(outcome.bytes).toBe(cut.length);
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, cut));
    expect(expectOrderedPerFile(events)).toEqual([0, 1]);
    // The request will be refused: no file is opened. The cut one is cut off, or ended by the parser first.
    expect(files[0]?.verdict).toEqual(notOpened(birth.length));
    expect(files[1]?.fieldName).toBe('medical');
    expect(files[1]?.verdict).toMatchObject({ kind: 'refused', code: expect.stringMatching(/^(INCOMPLETE|NOT_OPENED)$/) as string });
  });

  it('reports a body cut just before the closing boundary', async () => {
    const { body, contentType } = buildMultipart(formParts);
    const closing = body.lastIndexOf(Buffer.from('\r\n--'));
    const cut = body.subarray(0, closing);
    const { events, outcome, files } = await runSession(cut, contentType, () => 4_096);
    expect(outcome.parseError).toBe('The multipart body is malformed or incomplete: Unexpected end of multipart data.');
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, cut));
    expect(expectOrderedPerFile(events)).toEqual([0, 1, 2]);
    expect(files.slice(0, 2).map((file) => file.verdict)).toEqual([notOpened(birth.length), notOpened(medical.length)]);
  });

  it('names a file field that is not a document type, and seals no file for it', async () => {
    const { body, contentType } = buildMultipart([
      { name: 'submissionId', value: 'form-43' },
      { name: 'passport', filename: 'p.pdf', content: makePdf('passport') },
      { name: 'medical', filename: 'm.pdf', content: waiver },
      { name: 'selfie', filename: 's.png', content: medical },
    ]);
    const { events, outcome, files } = await runSession(body, contentType, () => 1_000);
    expect(outcome.unknownField).toBe('passport');
    expect(outcome.parseError).toBeNull();
    expect(outcome.fields).toEqual({ submissionId: 'form-43' });
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, body));
    expect(expectOrderedPerFile(events)).toEqual([0]);
    expect(files.map((file) => file.fieldName)).toEqual(['medical']);
    expect(files[0]?.verdict).toEqual(notOpened(waiver.length));
  });

  it('names the first file field whose file name holds a NUL byte, however the name is written', async () => {
    const { body, contentType } = buildMultipart([
      { name: 'submissionId', value: 'form-45' },
      { name: 'medical', filename: 'fine.pdf', content: waiver },
      { name: 'birth_certificate', filename: 'birth\u0000.pdf', content: birth },
      { name: 'waiver', filename: 'waiver\u0000.pdf', content: waiver },
    ]);
    const { outcome, files } = await runSession(body, contentType, () => 1_000);
    expect(outcome.unstorableFilenameField).toBe('birth_certificate');
    expect(outcome.parseError).toBeNull();
    // The display name never holds it, whatever the owner decides.
    expect(files.map((file) => file.originalFilename)).toEqual(['fine.pdf', 'birth.pdf', 'waiver.pdf']);

    const encoded = Buffer.from(
      body.toString('latin1').replace('filename="birth\u0000.pdf"', "filename*=UTF-8''birth%00.pdf").replace('filename="waiver\u0000.pdf"', 'filename="waiver.pdf"'),
      'latin1',
    );
    expect((await runSession(encoded, contentType, () => 1_000)).outcome.unstorableFilenameField).toBe('birth_certificate');
  });

  it.each([
    ['one big chunk', () => Number.MAX_SAFE_INTEGER],
    ['100-byte chunks', () => 100],
  ])(`refuses more than ${MAX_FILES} files, still hashing the whole body (%s)`, async (_label, chunking) => {
    const parts: Part[] = Array.from({ length: MAX_FILES + 2 }, (_, index) => ({ name: 'document', filename: `f${index}.pdf`, content: makePdf(`file ${index}`) }));
    const { body, contentType } = buildMultipart([...parts, { name: 'submissionId', value: 'form-44' }]);
    const { events, outcome } = await runSession(body, contentType, chunking);
    expect(outcome.parseError).toBe('At most 12 files per submission.');
    expect(outcome.bytes).toBe(body.length);
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, body));
    expect(expectOrderedPerFile(events)).toEqual(Array.from({ length: MAX_FILES }, (_, index) => index));
  });

  it('opens no file of a body whose signature does not match: its sender is not trusted', async () => {
    const { body, contentType } = buildMultipart(formParts);
    const before = opened;
    const { files } = await runSession(body, contentType, () => 10_000, MAX_FILE_BYTES, { signature: `sha256=${'0'.repeat(64)}` });
    expect(opened).toBe(before);
    expect(files.map((file) => file.verdict)).toEqual([notOpened(birth.length), notOpened(medical.length), notOpened(waiver.length)]);
    expect((await runSession(body, contentType, () => 10_000, MAX_FILE_BYTES, { signature: '' })).files[0]?.verdict).toEqual(notOpened(birth.length));
    expect(opened).toBe(before);
  });

  it('refuses a damaged file of a signed body with the reason its decoder gives, and keeps the others', async () => {
    const cutPhoto = medical.subarray(0, 40_000);
    const cutPdf = makePdf('waiver').subarray(0, 200);
    const { body, contentType } = buildMultipart([
      { name: 'birth_certificate', filename: 'birth.pdf', content: birth },
      { name: 'medical', filename: 'physical.png', content: cutPhoto },
      { name: 'waiver', filename: 'waiver.pdf', content: cutPdf },
    ]);
    const { files } = await runSession(body, contentType, () => 8_192);
    expect(accepted(files[0]?.verdict).result.sha256).toBe(sha256(birth));
    expect(files[1]?.verdict).toEqual({
      kind: 'refused',
      code: 'CORRUPT_FILE',
      message: 'This image is damaged or incomplete (it could not be opened); please take the photo again.',
      bytes: cutPhoto.length,
    });
    expect(files[2]?.verdict).toEqual({ kind: 'refused', code: 'CORRUPT_FILE', message: 'This PDF is damaged and cannot be opened; please export it again.', bytes: 200 });
  });

  it('fails the body, rather than refusing its files, when the file inspector cannot start', async () => {
    const { body, contentType } = buildMultipart(formParts);
    const broken: InspectFile = () => Promise.reject(new Error('the file inspector thread did not start in time'));
    await expect(runSession(body, contentType, () => 10_000, MAX_FILE_BYTES, { inspect: broken })).rejects.toThrow('did not start in time');
  });

  it('reports a content type without a boundary as a parse error without throwing, and still hashes the body', async () => {
    const { body } = buildMultipart(formParts);
    const { events, outcome } = await runSession(body, 'multipart/form-data', () => 10_000);
    expect(outcome).toEqual({
      hmacHex: signBody(SECRET, body).slice('sha256='.length),
      bytes: body.length,
      fields: {},
      parseError: 'The multipart body cannot be read: Multipart: Boundary not found.',
      unknownField: null,
      unstorableFilenameField: null,
    });
    expect(events).toEqual([]);
  });

  it('reports garbage as a parse error', async () => {
    const body = randomBytes(5_000);
    const { events, outcome } = await runSession(body, 'multipart/form-data; boundary=abc', () => 1_000);
    expect(outcome.parseError).toBe('The multipart body is malformed or incomplete: Unexpected end of multipart data.');
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, body));
    expect(events).toEqual([]);
  });

  it('hashes an empty body', async () => {
    const { outcome } = await runSession(Buffer.alloc(0), 'multipart/form-data; boundary=abc');
    expect(outcome.bytes).toBe(0);
    expect(`sha256=${outcome.hmacHex}`).toBe(signBody(SECRET, ''));
    expect(outcome.parseError).toBe('The multipart body is malformed or incomplete: Unexpected end of multipart data.');
  });
});
