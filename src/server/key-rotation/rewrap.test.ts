import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptToBuffer, opensUnder, startEncryption } from '../platform/crypto/envelope';
import { openSecret, sealSecret } from '../platform/crypto/secret-box';
import { emptyTally, rewrapDeliveryBody, rewrapKey, rewrapSealedIn, type KeyPair } from './rewrap';

const keys: KeyPair = { old: randomBytes(32), new: randomBytes(32) };

function sealFile(masterKey: Buffer, plaintext: Buffer) {
  const encryption = startEncryption(masterKey);
  const ciphertext = encryption.update(plaintext);
  return { ciphertext, ...encryption.finish() };
}

describe('rewrapKey', () => {
  it('wraps the same data key under the new key: the file opens unchanged, and no longer under the old key', async () => {
    const plaintext = randomBytes(5_000);
    const sealed = sealFile(keys.old, plaintext);
    const outcome = rewrapKey(keys, sealed.wrappedKey);
    if (outcome.kind !== 'rewrapped') throw new Error(`expected rewrapped, got ${outcome.kind}`);
    expect(outcome.wrappedKey).toHaveLength(60);
    expect(outcome.wrappedKey.subarray(0, 12).equals(sealed.wrappedKey.subarray(0, 12))).toBe(false);
    const envelope = { ...sealed, wrappedKey: outcome.wrappedKey };
    expect((await decryptToBuffer(keys.new, envelope, sealed.ciphertext)).equals(plaintext)).toBe(true);
    expect(opensUnder(keys.old, outcome.wrappedKey)).toBe(false);
  });

  it('counts a key the new key already opens as done, so a second run changes nothing', () => {
    const { wrappedKey } = sealFile(keys.new, Buffer.from('x'));
    expect(rewrapKey(keys, wrappedKey)).toEqual({ kind: 'done' });
  });

  it('leaves a key neither key opens alone: damaged, or sealed by some third key', () => {
    expect(rewrapKey(keys, sealFile(randomBytes(32), Buffer.from('x')).wrappedKey)).toEqual({ kind: 'unreadable' });
    const damaged = Buffer.from(sealFile(keys.old, Buffer.from('x')).wrappedKey);
    damaged[30] = (damaged[30] ?? 0) ^ 1;
    expect(rewrapKey(keys, damaged)).toEqual({ kind: 'unreadable' });
    expect(rewrapKey(keys, Buffer.alloc(10))).toEqual({ kind: 'unreadable' });
  });
});

describe('rewrapSealedIn', () => {
  it('finds sealed secrets at any depth of a stored value, rewraps each, and keeps everything else', async () => {
    const value = {
      host: 'imap.example.test',
      password: sealSecret(keys.old, 'mail password', '••••word'),
      providers: [{ id: 'jotform', secret: sealSecret(keys.old, 'jotform secret') }, { id: 'tally', secret: null }],
      done: sealSecret(keys.new, 'already new'),
      port: 993,
    };
    const tally = emptyTally();
    const after = rewrapSealedIn(keys, value, tally) as typeof value;
    expect(tally).toEqual({ done: 1, rewrapped: 2, unreadable: 0 });
    expect(after.host).toBe('imap.example.test');
    expect(after.port).toBe(993);
    expect(after.providers[1]).toEqual({ id: 'tally', secret: null });
    expect(after.password.hint).toBe('••••word');
    expect(after.password.ciphertext).toBe(value.password.ciphertext);
    expect(await openSecret(keys.new, after.password)).toBe('mail password');
    expect(await openSecret(keys.new, after.providers[0]!.secret!)).toBe('jotform secret');
    expect(after.done).toEqual(value.done);

    const again = emptyTally();
    expect(rewrapSealedIn(keys, after, again)).toEqual(after);
    expect(again).toEqual({ done: 3, rewrapped: 0, unreadable: 0 });
  });
});

describe('rewrapDeliveryBody', () => {
  const layout = (masterKey: Buffer, body: Buffer) => {
    const sealed = sealFile(masterKey, body);
    return Buffer.concat([Buffer.from('CBD1'), sealed.wrappedKey, sealed.iv, sealed.authTag, sealed.ciphertext]);
  };

  it('replaces only the wrapped key in the header; everything after it is byte for byte the same', async () => {
    const plaintext = Buffer.from('{"answers":{"name":"Zebedee"}}');
    const before = layout(keys.old, plaintext);
    const result = rewrapDeliveryBody(keys, before);
    expect(result.outcome).toBe('rewrapped');
    expect(result.body).toHaveLength(before.length);
    expect(result.body.subarray(64).equals(before.subarray(64))).toBe(true);
    const envelope = { wrappedKey: result.body.subarray(4, 64), iv: result.body.subarray(64, 76), authTag: result.body.subarray(76, 92) };
    expect((await decryptToBuffer(keys.new, envelope, result.body.subarray(92))).equals(plaintext)).toBe(true);
    expect(rewrapDeliveryBody(keys, result.body).outcome).toBe('done');
  });

  it('leaves an object in another layout alone', () => {
    const other = Buffer.from('not a kept body at all, just bytes in the folder');
    expect(rewrapDeliveryBody(keys, other)).toEqual({ outcome: 'unknown', body: other });
  });
});
