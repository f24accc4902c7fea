import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyCheckOf, keyFingerprint, keyGroups } from './recovery-sheet';

describe('what the recovery sheet prints of a key', () => {
  it('writes the key as master.key holds it, in eleven groups of four', () => {
    const key = randomBytes(32);
    const groups = keyGroups(key);
    expect(groups).toHaveLength(11);
    expect(groups.every((group) => group.length === 4)).toBe(true);
    expect(groups.join('')).toBe(key.toString('base64'));
  });

  it('tells keys apart by a fingerprint that is stable and holds none of the key', () => {
    const key = randomBytes(32);
    const fingerprint = keyFingerprint(key);
    expect(fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(keyFingerprint(Buffer.from(key))).toBe(fingerprint);
    expect(keyFingerprint(randomBytes(32))).not.toBe(fingerprint);
    expect(key.toString('hex')).not.toContain(fingerprint.slice(0, 8));
    expect(keyCheckOf(fingerprint)).toBe(fingerprint.slice(0, 8).toUpperCase());
  });
});
