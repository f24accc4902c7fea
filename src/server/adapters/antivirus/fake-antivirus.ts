import type { Readable } from 'node:stream';
import { AntivirusUnavailableError, type Antivirus, type ScanResult } from './port';

/**
 * The 68-byte EICAR test file every scanner flags. Assembled from two halves so that this source file is not
 * itself quarantined by a developer's virus scanner.
 */
export const EICAR_TEST_STRING = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'].join('');

export const FAKE_EICAR_SIGNATURE = 'Eicar-Test-Signature';

export type FakeAntivirus = Antivirus & {
  /** From now on every scan and ping throws AntivirusUnavailableError with this message; `false` restores it. */
  setUnavailable(message: string | false): void;
  /** How many scans produced a verdict, to check a file was scanned exactly once. */
  readonly scanCount: number;
};

/** A scanner for unit tests of other code: flags any content that contains the EICAR string, anywhere. */
export function createFakeAntivirus(): FakeAntivirus {
  const eicar = Buffer.from(EICAR_TEST_STRING, 'latin1');
  let unavailable: string | false = false;
  let scanCount = 0;

  return {
    location: 'fake:antivirus',
    get scanCount() {
      return scanCount;
    },
    setUnavailable(message) {
      unavailable = message;
    },

    async scan(source: Readable | Buffer): Promise<ScanResult> {
      if (unavailable !== false) {
        if (!Buffer.isBuffer(source)) source.destroy();
        throw new AntivirusUnavailableError(unavailable);
      }
      // Buffering is fine in a fake: test files are small, and it finds the string across chunk boundaries.
      const content = Buffer.isBuffer(source) ? source : await readAll(source);
      scanCount += 1;
      return content.includes(eicar) ? { clean: false, signature: FAKE_EICAR_SIGNATURE } : { clean: true };
    },

    ping() {
      if (unavailable !== false) return Promise.reject(new AntivirusUnavailableError(unavailable));
      return Promise.resolve({ version: 'fake' });
    },
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
