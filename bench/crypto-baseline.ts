import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createEncryptor } from '../src/server/platform/crypto/envelope';

/**
 * The crypto limit of this machine, measured in the same process and run as the code compared with it
 * as a yardstick: a pipeline benchmark reports its throughput as a ratio to these numbers, so a slow or busy
 * machine does not make slow code look fine or fast code look slow.
 *
 * MB/s here is 10^6 bytes per second. Passes being compared run round-robin (one of each per round), so a
 * burst of load from another process hits all of them alike instead of skewing whichever ran during it;
 * each figure is the median round after one untimed warm-up round, so a garbage collection does not move it.
 */

/** The chunk size of a file read stream (fs.createReadStream's default), so the baseline sees what the pipeline sees. */
export const CHUNK_BYTES = 64 * 1024;

export interface CryptoBaseline {
  /** node's SHA-256 alone. */
  sha256MBps: number;
  /** node's AES-256-GCM alone, including the tag. */
  aesGcmMBps: number;
  /** SHA-256 and AES-256-GCM over each chunk in one loop: the floor the envelope encryptor can reach. */
  onePassMBps: number;
}

export interface EnvelopeComparison extends CryptoBaseline {
  envelopeMBps: number;
  /** envelopeMBps / onePassMBps: 1.0 means the stream around the crypto costs nothing. */
  envelopeToOnePass: number;
}

export function measureCryptoBaseline(bytes: Buffer, rounds: number): CryptoBaseline {
  const passes = createBaselinePasses(bytes);
  const [sha256, aesGcm, onePass] = medianSeconds(timeRoundsSync([passes.sha256, passes.aesGcm, passes.onePass], rounds));
  return { sha256MBps: toMBps(bytes, sha256), aesGcmMBps: toMBps(bytes, aesGcm), onePassMBps: toMBps(bytes, onePass) };
}

/** createEncryptor over the same bytes and chunks, from a byte stream to a discarding sink. */
export async function measureEnvelope(bytes: Buffer, rounds: number): Promise<{ envelopeMBps: number }> {
  const [envelope] = medianSeconds(await timeRounds([createEnvelopePass(bytes)], rounds));
  return { envelopeMBps: toMBps(bytes, envelope) };
}

/** The baseline and the envelope encryptor interleaved round by round: the fair way to get their ratio. */
export async function compareEnvelopeWithBaseline(bytes: Buffer, rounds: number): Promise<EnvelopeComparison> {
  const passes = createBaselinePasses(bytes);
  const [sha256, aesGcm, onePass, envelope] = medianSeconds(
    await timeRounds([passes.sha256, passes.aesGcm, passes.onePass, createEnvelopePass(bytes)], rounds),
  );
  const onePassMBps = toMBps(bytes, onePass);
  const envelopeMBps = toMBps(bytes, envelope);
  return {
    sha256MBps: toMBps(bytes, sha256),
    aesGcmMBps: toMBps(bytes, aesGcm),
    onePassMBps,
    envelopeMBps,
    envelopeToOnePass: envelopeMBps / onePassMBps,
  };
}

function createBaselinePasses(bytes: Buffer) {
  const key = randomBytes(32);
  return {
    sha256: () => {
      const hash = createHash('sha256');
      for (const chunk of chunksOf(bytes)) hash.update(chunk);
      hash.digest();
    },
    aesGcm: () => {
      const cipher = createCipheriv('aes-256-gcm', key, randomBytes(12));
      for (const chunk of chunksOf(bytes)) cipher.update(chunk);
      cipher.final();
      cipher.getAuthTag();
    },
    onePass: () => {
      const hash = createHash('sha256');
      const cipher = createCipheriv('aes-256-gcm', key, randomBytes(12));
      for (const chunk of chunksOf(bytes)) {
        hash.update(chunk);
        cipher.update(chunk);
      }
      cipher.final();
      cipher.getAuthTag();
      hash.digest();
    },
  };
}

function createEnvelopePass(bytes: Buffer): () => Promise<void> {
  const masterKey = randomBytes(32);
  return async () => {
    const { transform, result } = createEncryptor(masterKey);
    await pipeline(readChunks(bytes), transform, discard());
    await result;
  };
}

/** Seconds per round for each pass: `[pass][round]`. */
function timeRoundsSync(passes: Array<() => void>, rounds: number): number[][] {
  const seconds = passes.map(() => new Array<number>(rounds));
  for (const pass of passes) pass();
  for (let round = 0; round < rounds; round++) {
    passes.forEach((pass, index) => {
      const started = process.hrtime.bigint();
      pass();
      (seconds[index] as number[])[round] = Number(process.hrtime.bigint() - started) / 1e9;
    });
  }
  return seconds;
}

async function timeRounds(passes: Array<() => void | Promise<void>>, rounds: number): Promise<number[][]> {
  const seconds = passes.map(() => new Array<number>(rounds));
  for (const pass of passes) await pass();
  for (let round = 0; round < rounds; round++) {
    for (const [index, pass] of passes.entries()) {
      const started = process.hrtime.bigint();
      await pass();
      (seconds[index] as number[])[round] = Number(process.hrtime.bigint() - started) / 1e9;
    }
  }
  return seconds;
}

function medianSeconds(perPass: number[][]): number[] {
  return perPass.map((rounds) => {
    const sorted = [...rounds].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  });
}

function toMBps(bytes: Buffer, seconds: number | undefined): number {
  return seconds === undefined ? Number.NaN : bytes.length / 1e6 / seconds;
}

function* chunksOf(bytes: Buffer): Generator<Buffer> {
  // subarray shares memory: the loop measures crypto, not copying.
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}

/**
 * A byte stream that pushes 64 KiB views synchronously, as a file read stream or a socket does.
 * Readable.from(generator) would add a promise per chunk and charge the consumer for the source's overhead.
 */
export function readChunks(bytes: Buffer): Readable {
  let at = 0;
  return new Readable({
    read() {
      if (at >= bytes.length) {
        this.push(null);
        return;
      }
      this.push(bytes.subarray(at, at + CHUNK_BYTES));
      at += CHUNK_BYTES;
    },
  });
}

function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}
