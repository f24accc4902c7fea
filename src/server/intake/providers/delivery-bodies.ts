import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Storage } from '../../adapters/storage/port';
import { AUTH_TAG_BYTES, decryptToBuffer, IV_BYTES, startEncryption, WRAPPED_KEY_BYTES } from '../../platform/crypto/envelope';

/** The folder the kept bodies of deliveries live in, one object each: `deliveries/<uuid>`. */
export const DELIVERIES_FOLDER = 'deliveries';

/** Marks the layout of a kept body, so a later one can change it. */
const MAGIC = Buffer.from('CBD1');
const HEADER_BYTES = MAGIC.length + WRAPPED_KEY_BYTES + IV_BYTES + AUTH_TAG_BYTES;

/**
 * Keeps a delivery's raw body for a replay, encrypted like every stored file (envelope.ts: a fresh data key
 * wrapped by the master key, AES-256-GCM). A delivery has no row of its own to hold the envelope, so it is
 * written in front of the ciphertext: `CBD1 ‖ wrapped key (60) ‖ iv (12) ‖ tag (16) ‖ ciphertext`.
 * Answers the object's key.
 */
export async function sealDeliveryBody(deps: { storage: Storage; masterKey: Buffer }, body: Buffer): Promise<string> {
  const encryption = startEncryption(deps.masterKey);
  const ciphertext = encryption.update(body);
  const { wrappedKey, iv, authTag } = encryption.finish();
  const key = `${DELIVERIES_FOLDER}/${randomUUID()}`;
  await deps.storage.put(key, Buffer.concat([MAGIC, wrappedKey, iv, authTag, ciphertext]));
  return key;
}

/** A kept body, decrypted and authenticated; DecryptionError when it was altered or the master key is another. */
export async function openDeliveryBody(deps: { storage: Storage; masterKey: Buffer }, key: string): Promise<Buffer> {
  const sealed = await readAll(await deps.storage.get(key));
  if (sealed.length < HEADER_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`kept delivery body ${key} is not in a known layout`);
  let at = MAGIC.length;
  const take = (bytes: number) => sealed.subarray(at, (at += bytes));
  const envelope = { wrappedKey: take(WRAPPED_KEY_BYTES), iv: take(IV_BYTES), authTag: take(AUTH_TAG_BYTES) };
  return decryptToBuffer(deps.masterKey, envelope, sealed.subarray(HEADER_BYTES));
}

/** A copy of a kept body under a key of its own (a replay keeps what it replayed, trimmed on its own). */
export async function copyDeliveryBody(storage: Storage, key: string): Promise<string> {
  const copy = `${DELIVERIES_FOLDER}/${randomUUID()}`;
  await storage.copy(key, copy);
  return copy;
}

/** Deletes kept bodies, best effort (an object left behind holds nothing readable without the master key). */
export async function deleteDeliveryBodies(storage: Storage, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => undefined)));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
