import { randomBytes } from 'node:crypto';
import { compareEnvelopeWithBaseline, measureCryptoBaseline, measureEnvelope } from './crypto-baseline';

/**
 * `npx tsx bench/run-crypto.ts`: the crypto baseline of this machine and what the envelope encryptor
 * reaches over the same bytes. The ratio envelope / one pass is the cost of the stream around the crypto;
 * near 1.0 means the encryptor adds little beyond the hashing and encryption it must do. The ratio comes
 * from the interleaved run; the separate runs are printed too, to show how much load on the machine moves them.
 */
const SIZES = [
  { label: '100 KB', bytes: 100 * 1000 },
  { label: '5 MB', bytes: 5 * 1000 * 1000 },
];
/** Each measurement covers about this many bytes per pass, so small inputs get enough rounds to be stable. */
const BYTES_PER_MEASUREMENT = 500 * 1000 * 1000;

const format = (mbps: number) => `${mbps.toFixed(0).padStart(6)} MB/s`;

for (const size of SIZES) {
  const bytes = randomBytes(size.bytes);
  const rounds = Math.max(9, Math.round(BYTES_PER_MEASUREMENT / size.bytes));
  const separate = { ...measureCryptoBaseline(bytes, rounds), ...(await measureEnvelope(bytes, rounds)) };
  const together = await compareEnvelopeWithBaseline(bytes, rounds);
  process.stdout.write(
    [
      `${size.label}, ${rounds} rounds, 64 KiB chunks, median round   interleaved   separate`,
      `  SHA-256 alone          ${format(together.sha256MBps)}   ${format(separate.sha256MBps)}`,
      `  AES-256-GCM alone      ${format(together.aesGcmMBps)}   ${format(separate.aesGcmMBps)}`,
      `  both in one pass       ${format(together.onePassMBps)}   ${format(separate.onePassMBps)}`,
      `  envelope encryptor     ${format(together.envelopeMBps)}   ${format(separate.envelopeMBps)}`,
      `  envelope / one pass    ${together.envelopeToOnePass.toFixed(2).padStart(11)}   ${(separate.envelopeMBps / separate.onePassMBps).toFixed(2).padStart(11)}`,
      '',
    ].join('\n'),
  );
}
