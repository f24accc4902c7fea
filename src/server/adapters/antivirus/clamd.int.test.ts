import { createServer, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startClamd, type StartedClamd } from '../../../../scripts/services/start-clamd';
import { IN_CI } from '../../../../tests/support/test-env';
import { createClamdAntivirus } from './clamd';
import { EICAR_TEST_STRING } from './fake-antivirus';
import { antivirusCheck } from '../../health/scanning-check';
import { AntivirusUnavailableError } from './port';

const EICAR = Buffer.from(EICAR_TEST_STRING, 'latin1');

let clamd: StartedClamd | undefined;
let smallClamd: StartedClamd | undefined;
let notStarted = '';

beforeAll(async () => {
  // The second clamd accepts at most 1 MiB, to provoke the StreamMaxLength answer cheaply.
  const [main, small] = await Promise.allSettled([startClamd(), startClamd({ streamMaxLength: '1M' })]);
  if (main.status === 'fulfilled' && small.status === 'fulfilled') {
    [clamd, smallClamd] = [main.value, small.value];
    return;
  }
  await Promise.all([main, small].map((started) => (started.status === 'fulfilled' ? started.value.stop() : Promise.resolve())));
  const failed = main.status === 'rejected' ? main : (small as PromiseRejectedResult);
  notStarted = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
  if (IN_CI) throw new Error(`clamd is required in CI and did not start: ${notStarted}`);
  process.stderr.write(`\n!!! clamd did not start (${notStarted}): clamd integration tests are SKIPPED.\n\n`);
});

afterAll(async () => {
  await Promise.all([clamd?.stop(), smallClamd?.stop()]);
});

function running(context: TestContext, which: StartedClamd | undefined = clamd): StartedClamd {
  if (!which) context.skip(`clamd did not start: ${notStarted}`);
  return which;
}

describe('clamd adapter against a real clamd (EICAR-only database)', () => {
  it('finds a PDF-like file clean', async (context) => {
    const antivirus = createClamdAntivirus({ url: running(context).url });
    await expect(antivirus.scan(pdfLike(200 * 1024))).resolves.toEqual({ clean: true });
  });

  it('finds the EICAR test string on its own, over the unix socket and over TCP', async (context) => {
    const { url, tcpUrl } = running(context);
    for (const location of [url, tcpUrl]) {
      const result = await createClamdAntivirus({ url: location }).scan(EICAR);
      expect(result).toEqual({ clean: false, signature: 'Eicar-Test-Signature-NDB.UNOFFICIAL' });
    }
  });

  it('finds EICAR inside a PDF, 100 KB in', async (context) => {
    const antivirus = createClamdAntivirus({ url: running(context).url });
    const infected = pdfLike(100 * 1024, EICAR);
    expect(infected.indexOf(EICAR)).toBeGreaterThan(100 * 1024);
    const result = await antivirus.scan(Readable.from(chunksOf(infected, 16 * 1024)));
    expect(result).toMatchObject({ clean: false, signature: expect.stringMatching(/Eicar/) as unknown });
  });

  it('finds EICAR inside a deflated ZIP archive, where its bytes never appear as such', async (context) => {
    const antivirus = createClamdAntivirus({ url: running(context).url });
    const zip = zipOf([
      { name: 'readme.txt', content: Buffer.from('Registration documents\n'.repeat(50)) },
      { name: 'forms/birth-certificate.com', content: EICAR },
    ]);
    expect(zip.includes(EICAR)).toBe(false);
    const result = await antivirus.scan(zip);
    expect(result).toMatchObject({ clean: false, signature: expect.stringMatching(/Eicar/) as unknown });
    // The same archive without the test file is clean: the detection came from unpacking, not from the zip itself.
    await expect(antivirus.scan(zipOf([{ name: 'readme.txt', content: Buffer.from('hello') }]))).resolves.toEqual({ clean: true });
  });

  it('scans a 5 MB stream chunk by chunk as it is produced', async (context) => {
    const antivirus = createClamdAntivirus({ url: running(context).url });
    const total = 5 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'clean scanned bytes ');
    let produced = 0;
    let reads = 0;
    const source = new Readable({
      highWaterMark: chunk.length,
      read() {
        reads += 1;
        if (produced >= total) return this.push(null);
        produced += chunk.length;
        this.push(chunk);
      },
    });
    await expect(antivirus.scan(source)).resolves.toEqual({ clean: true });
    expect(produced).toBe(total);
    expect(reads).toBeGreaterThanOrEqual(total / chunk.length);
  });

  it('reads the ClamAV version with ping, and the health check reports it without the socket path', async (context) => {
    const { url } = running(context);
    const antivirus = createClamdAntivirus({ url });
    const { version } = await antivirus.ping();
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    await expect(antivirusCheck(antivirus)()).resolves.toEqual({ status: 'ok', message: `ClamAV ${version} on its local socket` });
  });

  it('names StreamMaxLength when a file is larger than clamd accepts, and clamd keeps working', async (context) => {
    const antivirus = createClamdAntivirus({ url: running(context, smallClamd).url });
    const error = await antivirus.scan(Readable.from(chunksOf(pdfLike(3 * 1024 * 1024), 64 * 1024))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ reason: 'size-limit', message: expect.stringMatching(/StreamMaxLength/) as unknown });
    await expect(antivirus.scan(EICAR)).resolves.toMatchObject({ clean: false });
  });

  it('fails fast and readably when nothing listens at the url, for scans and for the health check', async () => {
    const url = `tcp://127.0.0.1:${await closedPort()}`;
    const antivirus = createClamdAntivirus({ url, timeoutMs: 5_000 });
    const started = Date.now();
    const error = await antivirus.scan(EICAR).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ reason: 'unreachable', message: `clamd at ${url} is not reachable: connect ECONNREFUSED ${url.slice(6)}` });
    await expect(antivirusCheck(antivirus)()).rejects.toThrow(/is not reachable/);
  });
});

/** PDF-shaped bytes: a header, one stream object of `size` filler bytes, an optional payload after it, a trailer. */
function pdfLike(size: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const filler = Buffer.alloc(size, 'BT /F1 12 Tf 72 712 Td (Player registration form) Tj ET\n');
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Length ${size} >>\nstream\n`),
    filler,
    Buffer.from('\nendstream\nendobj\n2 0 obj\n<< /Type /EmbeddedFile >>\nstream\n'),
    payload,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

function* chunksOf(buffer: Buffer, size: number): Generator<Buffer> {
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

/** A minimal ZIP writer (deflated entries, no extras): enough for clamd to unpack, with no dependency. */
function zipOf(entries: { name: string; content: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, content } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const compressed = deflateRawSync(content);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(8, 8); // method: deflate
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, compressed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
