import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createClamdAntivirus, formatClamdAddress, parseClamdUrl, parseScanReply, parseVersionReply } from './clamd';
import { AntivirusUnavailableError } from './port';

describe('parseClamdUrl', () => {
  it('reads host and port of a tcp url', () => {
    expect(parseClamdUrl('tcp://127.0.0.1:3310')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 3310 });
    expect(parseClamdUrl('tcp://clamav.internal:9999/')).toEqual({ kind: 'tcp', host: 'clamav.internal', port: 9999 });
  });

  it("uses clamd's usual port 3310 when a tcp url has none", () => {
    expect(parseClamdUrl('tcp://clamav')).toEqual({ kind: 'tcp', host: 'clamav', port: 3310 });
  });

  it('reads a bracketed IPv6 host and writes it back bracketed', () => {
    const address = parseClamdUrl('tcp://[::1]:3310');
    expect(address).toEqual({ kind: 'tcp', host: '::1', port: 3310 });
    expect(formatClamdAddress(address)).toBe('tcp://[::1]:3310');
  });

  it('reads a unix socket path written as unix:/path or unix:///path', () => {
    expect(parseClamdUrl('unix:/run/clamav/clamd.ctl')).toEqual({ kind: 'unix', path: '/run/clamav/clamd.ctl' });
    expect(parseClamdUrl('unix:///run/clamav/clamd.ctl')).toEqual({ kind: 'unix', path: '/run/clamav/clamd.ctl' });
  });

  it('formats a parsed url back into the location shown to operators', () => {
    expect(formatClamdAddress(parseClamdUrl(' tcp://localhost:3310 '))).toBe('tcp://localhost:3310');
    expect(formatClamdAddress(parseClamdUrl('unix:///tmp/c.sock'))).toBe('unix:/tmp/c.sock');
  });

  it.each([
    ['', /it is empty/],
    ['127.0.0.1:3310', /scheme must be tcp:\/\/ or unix:/],
    ['http://127.0.0.1:3310', /scheme must be tcp:\/\/ or unix:/],
    ['tcp:127.0.0.1:3310', /scheme must be tcp:\/\/ or unix:/],
    ['tcp://:3310', /malformed/],
    ['tcp://127.0.0.1:99999', /malformed/],
    ['tcp://127.0.0.1:0', /port 0 is out of range/],
    ['tcp://127.0.0.1:3310/scan', /no path/],
    ['tcp://127.0.0.1:3310?x=1', /no query/],
    ['tcp://user:secret@127.0.0.1:3310', /no user name or password/],
    ['unix:', /must be absolute/],
    ['unix:clamd.sock', /must be absolute/],
    ['unix://run/clamd.sock', /must be absolute/],
    ['unix:/run/clamav/', /names a directory/],
  ])('refuses %j with a message saying what is wrong and what to write', (url, reason) => {
    expect(() => parseClamdUrl(url)).toThrow(reason);
    expect(() => parseClamdUrl(url)).toThrow(/use tcp:\/\/host:port .* or unix:\/path/);
  });

  it('refuses a bad url when the adapter is created, not at the first scan', () => {
    expect(() => createClamdAntivirus({ url: 'clamd:3310' })).toThrow(/Invalid clamd url "clamd:3310"/);
  });
});

describe('parseScanReply', () => {
  it('reads a clean answer, with or without the NUL terminator', () => {
    expect(parseScanReply('stream: OK')).toEqual({ kind: 'clean' });
    expect(parseScanReply('stream: OK\0')).toEqual({ kind: 'clean' });
  });

  it('reads the signature of a detection', () => {
    expect(parseScanReply('stream: Eicar-Test-Signature-NDB.UNOFFICIAL FOUND\0')).toEqual({
      kind: 'found',
      signature: 'Eicar-Test-Signature-NDB.UNOFFICIAL',
    });
    expect(parseScanReply('stream: Win.Test.EICAR_HDB-1 FOUND')).toEqual({ kind: 'found', signature: 'Win.Test.EICAR_HDB-1' });
  });

  it('drops the (md5:size) suffix that ExtendedDetectionInfo adds to a signature', () => {
    expect(parseScanReply('stream: Eicar-Signature(44d88612fea8a8f36de82e1278abb02f:68) FOUND')).toEqual({
      kind: 'found',
      signature: 'Eicar-Signature',
    });
  });

  it('recognises the StreamMaxLength refusal', () => {
    expect(parseScanReply('INSTREAM size limit exceeded. ERROR\0')).toEqual({ kind: 'size-limit' });
  });

  it('reads any other ERROR answer as an error with its text', () => {
    expect(parseScanReply("stream: Can't allocate memory ERROR")).toEqual({ kind: 'error', message: "Can't allocate memory" });
    expect(parseScanReply('UNKNOWN COMMAND ERROR')).toEqual({ kind: 'error', message: 'UNKNOWN COMMAND' });
  });

  it('reports anything else as unexpected rather than guessing a verdict', () => {
    expect(parseScanReply('PONG')).toEqual({ kind: 'unexpected', reply: 'PONG' });
    expect(parseScanReply('HTTP/1.1 400 Bad Request')).toEqual({ kind: 'unexpected', reply: 'HTTP/1.1 400 Bad Request' });
    expect(parseScanReply('')).toEqual({ kind: 'unexpected', reply: '' });
  });
});

describe('parseVersionReply', () => {
  it('returns the version after "ClamAV ", with the signature database part when there is one', () => {
    expect(parseVersionReply('ClamAV 1.4.6\0')).toBe('1.4.6');
    expect(parseVersionReply('ClamAV 1.0.7/27400/Tue Sep 30 08:43:01 2025')).toBe('1.0.7/27400/Tue Sep 30 08:43:01 2025');
  });

  it('returns null for an answer that is not a ClamAV version', () => {
    expect(parseVersionReply('PONG')).toBeNull();
    expect(parseVersionReply('')).toBeNull();
  });
});

/**
 * The protocol side of the adapter against a small in-process stand-in for clamd on a unix socket: what goes
 * over the wire, backpressure, and every way an exchange can fail. The real clamd is in clamd.int.test.ts.
 */
describe('clamd adapter against a scripted server', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(handle: (socket: Socket) => void): Promise<{ url: string; server: Server }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cb-clamd-unit-'));
    const socketPath = path.join(dir, 'clamd.sock');
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      handle(socket);
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    });
    return { url: `unix:${socketPath}`, server };
  }

  /** Decodes an INSTREAM request as it arrives; calls back with the command, chunk sizes and the bytes. */
  function decodeInstream(socket: Socket, done: (request: { command: string; chunkSizes: number[]; body: Buffer }) => void): void {
    let pending = Buffer.alloc(0);
    let command: string | undefined;
    const chunkSizes: number[] = [];
    const body: Buffer[] = [];
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      if (command === undefined) {
        const end = pending.indexOf(0);
        if (end < 0) return;
        command = pending.subarray(0, end).toString();
        pending = pending.subarray(end + 1);
      }
      while (pending.length >= 4) {
        const size = pending.readUInt32BE(0);
        if (pending.length < 4 + size) return;
        if (size === 0) {
          done({ command, chunkSizes, body: Buffer.concat(body) });
          return;
        }
        chunkSizes.push(size);
        body.push(pending.subarray(4, 4 + size));
        pending = pending.subarray(4 + size);
      }
    });
  }

  it('sends zINSTREAM, length-prefixed chunks no larger than chunkBytes, and a zero-length end chunk', async () => {
    let seen: { command: string; chunkSizes: number[]; body: Buffer } | undefined;
    const { url } = await serve((socket) =>
      decodeInstream(socket, (request) => {
        seen = request;
        socket.end('stream: OK\0');
      }),
    );
    const content = Buffer.from('x'.repeat(2500));
    // An empty read in the middle must not be sent, or clamd would take it for the end of the file.
    const source = Readable.from([content.subarray(0, 1000), Buffer.alloc(0), content.subarray(1000)]);
    const result = await createClamdAntivirus({ url, chunkBytes: 1024 }).scan(source);
    expect(result).toEqual({ clean: true });
    expect(seen?.command).toBe('zINSTREAM');
    expect(seen?.chunkSizes).toEqual([1000, 1024, 476]);
    expect(seen?.body.equals(content)).toBe(true);
  });

  it('maps a FOUND answer to a detection with its signature', async () => {
    const { url } = await serve((socket) => decodeInstream(socket, () => socket.end('stream: Some.Test.Sig FOUND\0')));
    await expect(createClamdAntivirus({ url }).scan(Buffer.from('anything'))).resolves.toEqual({ clean: false, signature: 'Some.Test.Sig' });
  });

  it('reads no further from the source than the socket can take (backpressure)', async () => {
    const total = 32 * 1024 * 1024;
    let produced = 0;
    const source = new Readable({
      highWaterMark: 64 * 1024,
      read() {
        if (produced >= total) return this.push(null);
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 1));
      },
    });
    let resume: () => void = () => undefined;
    const { url } = await serve((socket) => {
      socket.pause();
      resume = () => {
        decodeInstream(socket, (request) => socket.end(request.body.length === total ? 'stream: OK\0' : 'stream: short ERROR\0'));
        socket.resume();
      };
    });
    const scanning = createClamdAntivirus({ url }).scan(source);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Only what fits in socket buffers may be read while clamd is not reading; far less than the file.
    expect(produced).toBeLessThan(8 * 1024 * 1024);
    resume();
    await expect(scanning).resolves.toEqual({ clean: true });
    expect(produced).toBe(total);
  });

  it('stops sending, destroys the source and names StreamMaxLength when clamd refuses the size mid-stream', async () => {
    const { url } = await serve((socket) => {
      let received = 0;
      socket.on('data', (data: Buffer) => {
        received += data.length;
        if (received > 100_000) socket.end('INSTREAM size limit exceeded. ERROR\0');
      });
    });
    const source = Readable.from((function* () {
      for (let i = 0; i < 1000; i += 1) yield Buffer.alloc(64 * 1024);
    })());
    const error = await createClamdAntivirus({ url }).scan(source).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ reason: 'size-limit', message: expect.stringMatching(/StreamMaxLength/) as unknown });
    expect(source.destroyed).toBe(true);
  });

  it('blames StreamMaxLength when clamd drops the connection mid-file but still answers PING', async () => {
    // What a real clamd often looks like from Node: its refusal is lost because our next write fails first.
    const { url } = await serve((socket) => {
      let received = 0;
      socket.on('data', (data: Buffer) => {
        if (data.subarray(0, 6).toString() === 'zPING\0') return void socket.end('PONG\0');
        received += data.length;
        if (received > 100_000) socket.destroy();
      });
    });
    const error = await createClamdAntivirus({ url }).scan(Buffer.alloc(4 * 1024 * 1024)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({
      reason: 'size-limit',
      message: expect.stringMatching(/closed the connection while receiving the file \(.+\) and is still up: .*StreamMaxLength/) as unknown,
    });
  });

  it('reports a dropped connection as an outage when clamd is gone afterwards', async () => {
    const { url, server } = await serve((socket) => {
      socket.once('data', () => {
        server.close();
        socket.destroy();
      });
    });
    const error = await createClamdAntivirus({ url }).scan(Buffer.alloc(4 * 1024 * 1024)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ reason: 'unreachable', message: expect.stringMatching(/^clamd at unix:\S+ dropped the connection: /) as unknown });
  });

  it('turns an ERROR answer into AntivirusUnavailableError carrying clamd’s text', async () => {
    const { url } = await serve((socket) => decodeInstream(socket, () => socket.end("stream: Can't allocate memory ERROR\0")));
    const error = await createClamdAntivirus({ url }).scan(Buffer.from('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ reason: 'scan-error', message: `clamd at ${url} could not scan the file: Can't allocate memory` });
  });

  it('gives up after timeoutMs of silence, saying how long it waited', async () => {
    const { url } = await serve(() => undefined);
    const started = Date.now();
    const error = await createClamdAntivirus({ url, timeoutMs: 200 }).scan(Buffer.from('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ reason: 'timeout', message: `clamd at ${url} did not answer within 0.2 s` });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a connection closed without an answer', async () => {
    const { url } = await serve((socket) => socket.end());
    await expect(createClamdAntivirus({ url }).scan(Buffer.from('x'))).rejects.toThrow(/closed the connection without answering/);
  });

  it('says which socket is missing when nothing listens at a unix path', async () => {
    const url = `unix:${path.join(tmpdir(), 'cb-no-such-dir', 'clamd.sock')}`;
    await expect(createClamdAntivirus({ url }).ping()).rejects.toThrow(new AntivirusUnavailableError(`clamd at ${url} is not reachable: connect ENOENT ${url.slice(5)}`));
  });

  it("rejects with the source's own error when the file stream fails, not as an antivirus outage", async () => {
    const { url } = await serve((socket) => decodeInstream(socket, () => socket.end('stream: OK\0')));
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    const error = await createClamdAntivirus({ url }).scan(failing).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AntivirusUnavailableError);
    expect(error).toMatchObject({ message: 'client went away' });
  });

  it('refuses an answer to VERSION that is not ClamAV', async () => {
    const { url } = await serve((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.2\0')));
    await expect(createClamdAntivirus({ url }).ping()).rejects.toMatchObject({
      reason: 'protocol',
      message: expect.stringMatching(/not a ClamAV version/) as unknown,
    });
  });
});
