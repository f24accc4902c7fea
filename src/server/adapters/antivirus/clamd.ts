import { createConnection, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { AntivirusUnavailableError, type Antivirus, type AntivirusFailureReason, type ScanResult } from './port';

/** Where clamd listens, parsed from `tcp://host:port` or `unix:/path/to/clamd.sock`. */
export type ClamdAddress = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string };

/** What clamd said about a zINSTREAM scan. */
export type ClamdScanReply =
  | { kind: 'clean' }
  | { kind: 'found'; signature: string }
  | { kind: 'size-limit' }
  | { kind: 'error'; message: string }
  | { kind: 'unexpected'; reply: string };

export type ClamdOptions = {
  url: string;
  /**
   * How long the connection may go without any traffic before the scan is abandoned. It covers connecting,
   * sending, and clamd's own scanning after the last byte, so it must exceed the slowest scan of a large archive.
   */
  timeoutMs?: number;
  /** Bytes per INSTREAM chunk: big enough to keep syscalls few, small enough that memory stays flat. */
  chunkBytes?: number;
};

const DEFAULT_PORT = 3310;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CHUNK_BYTES = 64 * 1024;
// clamd answers in one short line; anything longer is not clamd, and must not grow memory.
const MAX_REPLY_BYTES = 16 * 1024;
const RAISE_LIMIT_HINT =
  'Raise StreamMaxLength in clamd.conf (with MaxFileSize and MaxScanSize) above the largest accepted upload, then restart clamd';
const URL_HELP = 'use tcp://host:port (e.g. tcp://127.0.0.1:3310) or unix:/path/to/clamd.sock';

export function createClamdAntivirus(options: ClamdOptions): Antivirus {
  const address = parseClamdUrl(options.url);
  const location = formatClamdAddress(address);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`clamd timeoutMs must be a positive number, got ${timeoutMs}`);
  // The chunk length travels as an unsigned 32-bit number.
  if (!Number.isInteger(chunkBytes) || chunkBytes <= 0 || chunkBytes > 0xffff_ffff) {
    throw new Error(`clamd chunkBytes must be a positive 32-bit integer, got ${chunkBytes}`);
  }

  /**
   * clamd answers a file over StreamMaxLength and closes at once, while we are still writing. Node then often
   * sees the write fail (EPIPE, ECONNRESET) before it has read the answer, and a failed write destroys the socket.
   * So a connection dropped mid-file is checked with a PING: if clamd is up, the size limit is by far the likeliest cause.
   */
  async function explainDrop(failure: ConnectionFailure): Promise<Error> {
    const alive = await sendClamdCommand(options.url, 'PING', Math.min(timeoutMs, 3_000)).catch(() => '');
    if (alive !== 'PONG') return toUnavailable(failure, location);
    const detail = failure.message.replace(/^dropped the connection: /, '');
    return new AntivirusUnavailableError(
      `clamd at ${location} closed the connection while receiving the file (${detail}) and is still up: ` +
        `the file is most likely larger than clamd's StreamMaxLength. ${RAISE_LIMIT_HINT}`,
      'size-limit',
      { cause: failure.cause ?? failure },
    );
  }

  return {
    location,

    async scan(source) {
      const connection = openConnection(address, timeoutMs);
      const sent = { bytes: 0 };
      let sourceError: { error: unknown } | undefined;
      // The 'z' prefix makes clamd end its reply with NUL, so the end of an answer is never a guess.
      connection.socket.write('zINSTREAM\0');
      void sendChunks(connection.socket, source, chunkBytes, connection.signal, sent).catch((error: unknown) => {
        // Recorded before close(), which rejects the reply, so the caller sees the source's own error.
        sourceError = { error };
        connection.close();
      });
      try {
        const reply = parseScanReply(await connection.reply);
        return toScanResult(reply, location);
      } catch (error) {
        if (sourceError) throw sourceError.error;
        if (error instanceof ConnectionFailure && error.dropped && sent.bytes > 0) throw await explainDrop(error);
        throw toUnavailable(error, location);
      } finally {
        connection.close();
        // After an early answer (size limit, error) nobody will read the rest: release its file or socket.
        if (!Buffer.isBuffer(source) && !source.destroyed) source.destroy();
      }
    },

    async ping() {
      const reply = await sendClamdCommand(options.url, 'VERSION', timeoutMs);
      const version = parseVersionReply(reply);
      if (version === null) {
        throw new AntivirusUnavailableError(`clamd at ${location} answered VERSION with ${quote(reply)}, which is not a ClamAV version`, 'protocol');
      }
      return { version };
    },
  };
}

/**
 * Sends a one-word command (PING answers PONG, VERSION answers `ClamAV 1.4.6/…`) and returns the reply without
 * its terminator. Used by ping() and by the test service start-up to wait until clamd is ready.
 */
export async function sendClamdCommand(url: string, command: 'PING' | 'VERSION', timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
  const address = parseClamdUrl(url);
  const connection = openConnection(address, timeoutMs);
  try {
    connection.socket.write(`z${command}\0`);
    return (await connection.reply).trim();
  } catch (error) {
    throw toUnavailable(error, formatClamdAddress(address));
  } finally {
    connection.close();
  }
}

export function parseClamdUrl(url: string): ClamdAddress {
  const invalid = (why: string) => new Error(`Invalid clamd url ${quote(url)}: ${why}; ${URL_HELP}`);
  const text = url.trim();
  if (text === '') throw invalid('it is empty');

  if (/^unix:/i.test(text)) {
    let socketPath = text.slice('unix:'.length);
    // Accept the common unix:///run/clamd.sock spelling as well as unix:/run/clamd.sock.
    if (socketPath.startsWith('//')) socketPath = socketPath.slice(2);
    if (!socketPath.startsWith('/')) throw invalid('the socket path must be absolute');
    if (socketPath.endsWith('/')) throw invalid('the socket path names a directory');
    if (socketPath.includes('\0')) throw invalid('the socket path contains a NUL character');
    return { kind: 'unix', path: socketPath };
  }

  if (/^tcp:\/\//i.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw invalid('the host or port is malformed');
    }
    if (parsed.username !== '' || parsed.password !== '') throw invalid('clamd takes no user name or password');
    if (parsed.pathname !== '' && parsed.pathname !== '/') throw invalid('a clamd url has no path');
    if (parsed.search !== '' || parsed.hash !== '') throw invalid('a clamd url has no query or fragment');
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    if (host === '') throw invalid('the host is missing');
    const port = parsed.port === '' ? DEFAULT_PORT : Number(parsed.port);
    if (port < 1 || port > 65_535) throw invalid(`port ${port} is out of range`);
    return { kind: 'tcp', host, port };
  }

  throw invalid('the scheme must be tcp:// or unix:');
}

export function formatClamdAddress(address: ClamdAddress): string {
  if (address.kind === 'unix') return `unix:${address.path}`;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `tcp://${host}:${address.port}`;
}

/**
 * Reads the answer to zINSTREAM: `stream: OK`, `stream: <Signature> FOUND`,
 * `INSTREAM size limit exceeded. ERROR` or `<something> ERROR`.
 */
export function parseScanReply(reply: string): ClamdScanReply {
  const text = reply.replace(/\0+$/, '').trim();
  if (/^INSTREAM size limit exceeded\b/i.test(text)) return { kind: 'size-limit' };
  if (/(^|\s)ERROR$/.test(text)) {
    return { kind: 'error', message: text.replace(/\s*ERROR$/, '').replace(/^stream:\s*/, '') };
  }
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found?.[1]) {
    // With ExtendedDetectionInfo clamd appends `(md5:size)`; the name alone is what people look up.
    return { kind: 'found', signature: found[1].replace(/\([0-9a-f]+:\d+\)$/i, '') };
  }
  if (text === 'stream: OK') return { kind: 'clean' };
  return { kind: 'unexpected', reply: text };
}

/** `ClamAV 1.4.6/27400/Tue Sep 30 08:43:01 2025` → `1.4.6/27400/Tue Sep 30 08:43:01 2025`; null when not ClamAV's. */
export function parseVersionReply(reply: string): string | null {
  const match = /^ClamAV (\S.*)$/.exec(reply.replace(/\0+$/, '').trim());
  return match?.[1] ?? null;
}

function toScanResult(reply: ClamdScanReply, location: string): ScanResult {
  switch (reply.kind) {
    case 'clean':
      return { clean: true };
    case 'found':
      return { clean: false, signature: reply.signature };
    case 'size-limit':
      throw new AntivirusUnavailableError(
        `clamd at ${location} refused the file: it is larger than clamd's StreamMaxLength. ${RAISE_LIMIT_HINT}`,
        'size-limit',
      );
    case 'error':
      throw new AntivirusUnavailableError(`clamd at ${location} could not scan the file: ${reply.message || 'ERROR'}`, 'scan-error');
    case 'unexpected':
      throw new AntivirusUnavailableError(`clamd at ${location} gave an answer Clearbase does not understand: ${quote(reply.reply)}`, 'protocol');
  }
}

/** A failure inside one exchange with clamd; its message reads after "clamd at <location> ". */
class ConnectionFailure extends Error {
  constructor(
    message: string,
    readonly reason: AntivirusFailureReason,
    /** clamd accepted the connection and then went away without an answer. */
    readonly dropped: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function toUnavailable(error: unknown, location: string): Error {
  if (!(error instanceof ConnectionFailure)) return error instanceof Error ? error : new Error(String(error));
  return new AntivirusUnavailableError(`clamd at ${location} ${error.message}`, error.reason, { cause: error.cause ?? error });
}

type Connection = {
  socket: Socket;
  /** clamd's answer up to its NUL terminator; rejects with a ConnectionFailure. */
  reply: Promise<string>;
  /** Aborted as soon as the exchange is over for any reason, so a sender stops writing. */
  signal: AbortSignal;
  /** Ends the exchange and destroys the socket; safe to call more than once. */
  close(): void;
};

function openConnection(address: ClamdAddress, timeoutMs: number): Connection {
  const controller = new AbortController();
  const socket = address.kind === 'tcp' ? createConnection({ host: address.host, port: address.port }) : createConnection({ path: address.path });
  // An idle timer, armed from the start, so it also bounds a connect that never completes.
  socket.setTimeout(timeoutMs);
  let connected = false;
  let settle: (outcome: { reply: string } | { failure: ConnectionFailure }) => void = () => undefined;

  const reply = new Promise<string>((resolve, reject) => {
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let settled = false;
    settle = (outcome) => {
      if (settled) return;
      settled = true;
      controller.abort();
      socket.destroy();
      if ('reply' in outcome) resolve(outcome.reply);
      else reject(outcome.failure);
    };
    const fail = (message: string, reason: AntivirusFailureReason, cause?: unknown) =>
      settle({ failure: new ConnectionFailure(message, reason, connected && reason === 'unreachable', { cause }) });

    socket.on('connect', () => {
      connected = true;
    });
    socket.on('data', (data: Buffer) => {
      received.push(data);
      receivedBytes += data.length;
      const end = data.indexOf(0);
      if (end >= 0) {
        settle({ reply: Buffer.concat(received).subarray(0, receivedBytes - data.length + end).toString('utf8') });
      } else if (receivedBytes > MAX_REPLY_BYTES) {
        fail(`sent more than ${MAX_REPLY_BYTES} bytes without ending its answer: is that address really clamd?`, 'protocol');
      }
    });
    socket.on('end', () => {
      // Without the NUL clamd may still have said something useful (an ERROR line before closing).
      const text = Buffer.concat(received).toString('utf8').trim();
      if (text !== '') settle({ reply: text });
      else fail('closed the connection without answering', 'unreachable');
    });
    socket.on('timeout', () => {
      const seconds = timeoutMs / 1000;
      fail(connected ? `did not answer within ${seconds} s` : `is not reachable: no connection within ${seconds} s`, 'timeout');
    });
    socket.on('error', (error) =>
      fail(connected ? `dropped the connection: ${error.message}` : `is not reachable: ${error.message}`, 'unreachable', error),
    );
    socket.on('close', () => fail('closed the connection without answering', 'unreachable'));
  });

  return {
    socket,
    reply,
    signal: controller.signal,
    close: () => settle({ failure: new ConnectionFailure('was left: the exchange was cancelled', 'unreachable', false) }),
  };
}

/**
 * Streams the source as INSTREAM chunks (4-byte big-endian length, then the bytes) and the zero-length chunk
 * that ends it. Reads one chunk at a time and waits for the socket to drain, so memory stays flat however large
 * the file. Returns quietly when the exchange ends early; throws only the source's own errors.
 */
async function sendChunks(
  socket: Socket,
  source: Readable | Buffer,
  chunkBytes: number,
  signal: AbortSignal,
  sent: { bytes: number },
): Promise<void> {
  const chunks: Iterable<Buffer> | AsyncIterable<Buffer | string | Uint8Array> = Buffer.isBuffer(source)
    ? [source]
    : (source as AsyncIterable<Buffer | string | Uint8Array>);
  for await (const data of chunks) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    // An empty chunk would tell clamd the file has ended, so empty reads are skipped by the loop condition.
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      if (signal.aborted) return;
      const slice = bytes.subarray(offset, offset + chunkBytes);
      const header = Buffer.alloc(4);
      header.writeUInt32BE(slice.length);
      socket.cork();
      socket.write(header);
      const roomLeft = socket.write(slice);
      socket.uncork();
      sent.bytes += slice.length;
      if (!roomLeft && !(await drained(socket, signal))) return;
    }
  }
  if (!signal.aborted) socket.write(Buffer.alloc(4));
}

/** True once the socket drained; false when the exchange ended first (answer, error, timeout). */
function drained(socket: Socket, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      socket.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onDrain = () => finish(true);
    const onAbort = () => finish(false);
    socket.on('drain', onDrain);
    signal.addEventListener('abort', onAbort);
  });
}

function quote(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}
