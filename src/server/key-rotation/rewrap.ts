import { opensUnder, rewrapDataKey, WRAPPED_KEY_BYTES } from '../platform/crypto/envelope';
import { ZSealedSecret, type SealedSecret } from '../platform/crypto/secret-box';

/** The key being retired and the one replacing it. */
export type KeyPair = { old: Buffer; new: Buffer };

/**
 * What became of one wrapped data key: already wrapped by the new key (an earlier, interrupted run did it),
 * wrapped again now, or opened by neither key (it was damaged, or sealed by some other key, before the change
 * began; it is left exactly as it was).
 */
export type Rewrapped = { kind: 'done' } | { kind: 'rewrapped'; wrappedKey: Buffer } | { kind: 'unreadable' };

/**
 * GCM authenticates the wrapping, so trying the new key first tells a finished key from one still to do
 * without any record of progress: that is what makes an interrupted change safe to run again.
 */
export function rewrapKey(keys: KeyPair, wrappedKey: Buffer): Rewrapped {
  if (opensUnder(keys.new, wrappedKey)) return { kind: 'done' };
  if (!opensUnder(keys.old, wrappedKey)) return { kind: 'unreadable' };
  return { kind: 'rewrapped', wrappedKey: rewrapDataKey(keys.old, keys.new, wrappedKey) };
}

/** Counts of what a pass did, per kind of thing sealed. */
export type Tally = { done: number; rewrapped: number; unreadable: number };

export const emptyTally = (): Tally => ({ done: 0, rewrapped: 0, unreadable: 0 });

export function count(tally: Tally, outcome: Rewrapped['kind']): void {
  tally[outcome] += 1;
}

/** A sealed secret (secret-box.ts) with its data key wrapped again; its ciphertext, IV and tag unchanged. */
export function rewrapSealedSecret(keys: KeyPair, sealed: SealedSecret): { outcome: Rewrapped['kind']; sealed: SealedSecret } {
  const outcome = rewrapKey(keys, Buffer.from(sealed.wrappedKey, 'base64'));
  if (outcome.kind !== 'rewrapped') return { outcome: outcome.kind, sealed };
  return { outcome: 'rewrapped', sealed: { ...sealed, wrappedKey: outcome.wrappedKey.toString('base64') } };
}

/**
 * Every sealed secret found anywhere inside a stored JSON value (a settings row holds them at any depth: the
 * mailbox password, each form builder's secret, the chat webhooks), wrapped again; everything else is kept as
 * it is. `tally` gets one count per secret found.
 */
export function rewrapSealedIn(keys: KeyPair, value: unknown, tally: Tally): unknown {
  const sealed = ZSealedSecret.safeParse(value);
  if (sealed.success) {
    const result = rewrapSealedSecret(keys, sealed.data);
    count(tally, result.outcome);
    return result.outcome === 'rewrapped' ? { ...(value as object), wrappedKey: result.sealed.wrappedKey } : value;
  }
  if (Array.isArray(value)) return value.map((item) => rewrapSealedIn(keys, item, tally));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, rewrapSealedIn(keys, item, tally)]));
  }
  return value;
}

/**
 * A kept delivery body is `CBD1 ‖ wrapped key (60) ‖ iv ‖ tag ‖ ciphertext` (intake/providers/delivery-bodies.ts).
 * Answers the object with the wrapped key replaced, the rest byte for byte; `unknown` for an object in
 * another layout, which is left alone.
 */
export const DELIVERY_BODY_MAGIC = Buffer.from('CBD1');

export function rewrapDeliveryBody(keys: KeyPair, body: Buffer): { outcome: Rewrapped['kind'] | 'unknown'; body: Buffer } {
  const keyEnd = DELIVERY_BODY_MAGIC.length + WRAPPED_KEY_BYTES;
  if (body.length < keyEnd || !body.subarray(0, DELIVERY_BODY_MAGIC.length).equals(DELIVERY_BODY_MAGIC)) return { outcome: 'unknown', body };
  const outcome = rewrapKey(keys, body.subarray(DELIVERY_BODY_MAGIC.length, keyEnd));
  if (outcome.kind !== 'rewrapped') return { outcome: outcome.kind, body };
  return { outcome: 'rewrapped', body: Buffer.concat([DELIVERY_BODY_MAGIC, outcome.wrappedKey, body.subarray(keyEnd)]) };
}
