import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DecryptionError } from './envelope';
import { openSecret, sealSecret } from './secret-box';

describe('secret box', () => {
  const key = randomBytes(32);

  it('round-trips a secret and keeps only the hint in the clear', async () => {
    const sealed = sealSecret(key, 'hunter2-password', '••••word');
    expect(JSON.stringify(sealed)).not.toContain('hunter2');
    expect(sealed.hint).toBe('••••word');
    expect(await openSecret(key, sealed)).toBe('hunter2-password');
  });

  it('seals the same secret differently each time', () => {
    expect(sealSecret(key, 'same').ciphertext).not.toBe(sealSecret(key, 'same').ciphertext);
  });

  it('refuses another master key and an altered value', async () => {
    const sealed = sealSecret(key, 'secret');
    await expect(openSecret(randomBytes(32), sealed)).rejects.toBeInstanceOf(DecryptionError);
    const altered = { ...sealed, ciphertext: Buffer.from('xxxxxx').toString('base64') };
    await expect(openSecret(key, altered)).rejects.toBeInstanceOf(DecryptionError);
  });
});
