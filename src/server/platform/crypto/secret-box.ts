import { z } from 'zod';
import { decryptToBuffer, startEncryption } from './envelope';

/**
 * A short secret (a mail password, a webhook address) as it is kept in the settings table: encrypted like a
 * stored file (envelope.ts: a fresh data key wrapped by the master key, AES-256-GCM), in base64. `hint` is the
 * only part kept in the clear, for the screen to show which secret is set ('••••a1b2'); it may be empty.
 */
export const ZSealedSecret = z.object({
  v: z.literal(1),
  wrappedKey: z.base64(),
  iv: z.base64(),
  authTag: z.base64(),
  ciphertext: z.base64(),
  hint: z.string(),
});
export type SealedSecret = z.infer<typeof ZSealedSecret>;

export function sealSecret(masterKey: Buffer, secret: string, hint = ''): SealedSecret {
  const encryption = startEncryption(masterKey);
  const ciphertext = encryption.update(Buffer.from(secret, 'utf8'));
  const { wrappedKey, iv, authTag } = encryption.finish();
  return {
    v: 1,
    wrappedKey: wrappedKey.toString('base64'),
    iv: iv.toString('base64'),
    authTag: authTag.toString('base64'),
    ciphertext: ciphertext.toString('base64'),
    hint,
  };
}

/** Throws DecryptionError when the master key is not the one that sealed it or the value was altered. */
export async function openSecret(masterKey: Buffer, sealed: SealedSecret): Promise<string> {
  const plaintext = await decryptToBuffer(
    masterKey,
    { wrappedKey: Buffer.from(sealed.wrappedKey, 'base64'), iv: Buffer.from(sealed.iv, 'base64'), authTag: Buffer.from(sealed.authTag, 'base64') },
    Buffer.from(sealed.ciphertext, 'base64'),
  );
  return plaintext.toString('utf8');
}
