import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Storage } from '../adapters/storage/port';
import { recordAuditEvent } from '../audit';
import { DecryptionError, opensUnder } from '../platform/crypto/envelope';
import { MASTER_KEY_BYTES, nextKeyFileOf, readMasterKeyFile, replaceKeyFile, writeKeyFileDurably } from '../platform/crypto/master-key';
import { openSecret, ZSealedSecret } from '../platform/crypto/secret-box';
import type { Db } from '../platform/db/client';
import { wordHashes, wordKey } from '../reading';
import {
  countDocumentKeys,
  countSealedReadings,
  documentIdsAfter,
  FIRST_ID,
  lockDocumentKeys,
  lockReadings,
  lockSetting,
  lockTotpSecret,
  readingIdsAfter,
  rotationRecorded,
  setDocumentKeys,
  setReadingText,
  setSetting,
  setTotpSecret,
  settingKeys,
  usersWithTotp,
} from './key-rotation.repository';
import { count, emptyTally, rewrapDeliveryBody, rewrapKey, rewrapSealedIn, rewrapSealedSecret, type KeyPair, type Tally } from './rewrap';

/** Where kept form-builder deliveries live in storage (intake/providers/delivery-bodies.ts). */
const DELIVERIES_FOLDER = 'deliveries';

/** Rows wrapped again per transaction: small enough that an interruption loses next to nothing. */
const ROWS_PER_TRANSACTION = 100;

/** What is sealed under the master key, in the order a change of key goes through it. */
export const ROTATION_STAGES = ['files', 'readings', 'settings', 'twoStep', 'deliveries'] as const;
export type RotationStage = (typeof ROTATION_STAGES)[number];

/** Each stage as the progress lines name it. */
export const STAGE_NAMES: Record<RotationStage, string> = {
  files: 'Stored files',
  readings: 'Text read from documents',
  settings: 'Passwords and secrets saved in Settings',
  twoStep: 'Two-step sign-in secrets',
  deliveries: 'Kept form-builder deliveries',
};

export type RotationCounts = Record<RotationStage, Tally>;

export type RotationProgress = { stage: RotationStage; done: number; total: number };

export type RewrapDeps = {
  db: Db;
  storage: Storage;
  keys: KeyPair;
  onProgress?: (progress: RotationProgress) => void;
  /** Rows per transaction (ROWS_PER_TRANSACTION unless a test wants a slower walk). */
  rowsPerTransaction?: number;
  /** Waits this long after each transaction: only a test that interrupts a run sets it. */
  pauseMs?: number;
};

/**
 * One pass over everything sealed under the master key: each data key still wrapped by the old key is wrapped
 * by the new one, in a small transaction of its own (rows locked), and nothing else of it changes. A document's
 * read text gets its word index recomputed under the new key in the same transaction, so a search keeps
 * finding it. Safe to run any number of times: what already opens under the new key is counted as done.
 */
export async function rewrapEverything(deps: RewrapDeps): Promise<RotationCounts> {
  const { db, keys } = deps;
  const perTransaction = deps.rowsPerTransaction ?? ROWS_PER_TRANSACTION;
  const pause = () => (deps.pauseMs ? new Promise((resolve) => setTimeout(resolve, deps.pauseMs)) : Promise.resolve());
  const counts = Object.fromEntries(ROTATION_STAGES.map((stage) => [stage, emptyTally()])) as RotationCounts;
  const seen = (stage: RotationStage) => counts[stage].done + counts[stage].rewrapped + counts[stage].unreadable;

  let total = await countDocumentKeys(db);
  for (let after = FIRST_ID; ; ) {
    const ids = await documentIdsAfter(db, after, perTransaction);
    if (ids.length === 0) break;
    await db.transaction(async (tx) => {
      const rewrapped: Array<{ id: string; wrappedKey: Buffer }> = [];
      for (const row of await lockDocumentKeys(tx, ids)) {
        const outcome = rewrapKey(keys, row.wrappedKey);
        if (outcome.kind === 'rewrapped') rewrapped.push({ id: row.id, wrappedKey: outcome.wrappedKey });
        count(counts.files, outcome.kind);
      }
      await setDocumentKeys(tx, rewrapped);
    });
    after = ids[ids.length - 1] ?? after;
    deps.onProgress?.({ stage: 'files', done: seen('files'), total: Math.max(total, seen('files')) });
    await pause();
  }

  const newWordKey = wordKey(keys.new);
  total = await countSealedReadings(db);
  for (let after = FIRST_ID; ; ) {
    const ids = await readingIdsAfter(db, after, perTransaction);
    if (ids.length === 0) break;
    await db.transaction(async (tx) => {
      for (const row of await lockReadings(tx, ids)) {
        const sealed = ZSealedSecret.safeParse(row.text);
        if (!sealed.success) {
          count(counts.readings, 'unreadable');
          continue;
        }
        const result = rewrapSealedSecret(keys, sealed.data);
        if (result.outcome === 'rewrapped') {
          // A text whose key opens but whose ciphertext was altered stays as it was: it opens under neither key.
          const text = await openSecret(keys.new, result.sealed).catch((error: unknown) => {
            if (error instanceof DecryptionError) return undefined;
            throw error;
          });
          if (text === undefined) {
            count(counts.readings, 'unreadable');
            continue;
          }
          await setReadingText(tx, row.id, result.sealed, wordHashes(newWordKey, text));
        }
        count(counts.readings, result.outcome);
      }
    });
    after = ids[ids.length - 1] ?? after;
    deps.onProgress?.({ stage: 'readings', done: seen('readings'), total: Math.max(total, seen('readings')) });
    await pause();
  }

  const settingRows = await settingKeys(db);
  for (const key of settingRows) {
    await db.transaction(async (tx) => {
      const before = await lockSetting(tx, key);
      const tally = emptyTally();
      const after = rewrapSealedIn(keys, before, tally);
      if (tally.rewrapped > 0) await setSetting(tx, key, after);
      for (const outcome of ['done', 'rewrapped', 'unreadable'] as const) counts.settings[outcome] += tally[outcome];
    });
  }
  deps.onProgress?.({ stage: 'settings', done: seen('settings'), total: seen('settings') });

  const totpUsers = await usersWithTotp(db);
  for (const userId of totpUsers) {
    await db.transaction(async (tx) => {
      const stored = await lockTotpSecret(tx, userId);
      if (stored === null) return;
      const sealed = ZSealedSecret.safeParse(parseJson(stored));
      if (!sealed.success) return count(counts.twoStep, 'unreadable');
      const result = rewrapSealedSecret(keys, sealed.data);
      if (result.outcome === 'rewrapped') await setTotpSecret(tx, userId, JSON.stringify(result.sealed));
      count(counts.twoStep, result.outcome);
    });
  }
  deps.onProgress?.({ stage: 'twoStep', done: seen('twoStep'), total: totpUsers.length });

  // A delivery's body has no row holding its envelope: the object itself is rewritten (a put replaces an object
  // whole, on disk through a rename, on S3 at once), so an interruption leaves it under one key or the other.
  const bodies: string[] = [];
  for await (const object of deps.storage.list(DELIVERIES_FOLDER)) bodies.push(object.key);
  for (const key of bodies) {
    let body: Buffer;
    try {
      body = await readAll(await deps.storage.get(key));
    } catch {
      // Deleted meanwhile: trimming the deliveries list deletes bodies at any time.
      continue;
    }
    const result = rewrapDeliveryBody(keys, body);
    if (result.outcome === 'rewrapped') await deps.storage.put(key, result.body);
    count(counts.deliveries, result.outcome === 'unknown' ? 'unreadable' : result.outcome);
    deps.onProgress?.({ stage: 'deliveries', done: seen('deliveries'), total: bodies.length });
  }
  return counts;
}

/** Where the master key is kept, and so where its replacement goes. */
export type KeyPlace =
  /** The key file of the data folder: the new key waits beside it, then replaces it. */
  | { kind: 'file'; file: string }
  /**
   * CLEARBASE_MASTER_KEY: this process cannot change the environment of the server, so the new key is written to
   * a file the person names, and the person puts it into the environment once the change is complete.
   */
  | { kind: 'environment'; key: Buffer; newKeyFile: string };

export type RotationResult =
  | { outcome: 'rotated'; counts: RotationCounts; newKeyFile?: string; resumed: boolean }
  | { outcome: 'already-in-use'; newKeyFile: string };

/** A refusal whose message is meant for the person running the change, as it is. */
export class RotationRefusedError extends Error {
  override readonly name = 'RotationRefusedError';
}

export type RotateDeps = Omit<RewrapDeps, 'keys'> & {
  place: KeyPlace;
  /** Lines for the person running it (never a key). */
  say: (line: string) => void;
};

/**
 * Changes the master key: the new key is saved durably first (beside the old, or where the person asked), then
 * every data key is wrapped by it (rewrapEverything), then a second pass makes sure nothing is left under the
 * old key, the change is recorded in the audit trail, and only then does the new key replace the old file.
 * Interrupted at any point, running it again finishes the job: the saved new key is taken up again.
 */
export async function rotateMasterKey(deps: RotateDeps): Promise<RotationResult> {
  const { place, say } = deps;
  const oldKey = place.kind === 'file' ? await readMasterKeyFile(place.file) : place.key;
  const nextFile = place.kind === 'file' ? nextKeyFileOf(place.file) : place.newKeyFile;

  let newKey: Buffer;
  let resumed = false;
  if (await exists(nextFile)) {
    newKey = await readMasterKeyFile(nextFile);
    resumed = true;
    if (newKey.equals(oldKey)) {
      if (place.kind === 'environment') return { outcome: 'already-in-use', newKeyFile: nextFile };
      throw new RotationRefusedError(`${nextFile} holds the same key as the key file: remove ${nextFile} and run again`);
    }
    say('Finishing the change of master key that was interrupted earlier.');
  } else {
    await refuseWhenTheKeyOpensNothing(deps.db, oldKey);
    newKey = randomBytes(MASTER_KEY_BYTES);
    await writeKeyFileDurably(nextFile, newKey);
    say(place.kind === 'file' ? `Saved the new master key beside the old one (${nextFile}).` : `Saved the new master key in ${nextFile}.`);
  }
  const startedAt = (await stat(nextFile)).mtime;
  const keys: KeyPair = { old: oldKey, new: newKey };

  const counts = await rewrapEverything({ ...deps, keys });
  const check = await rewrapEverything({ db: deps.db, storage: deps.storage, keys });
  const leftOver = ROTATION_STAGES.reduce((sum, stage) => sum + check[stage].rewrapped, 0);
  if (leftOver > 0) {
    throw new RotationRefusedError(
      `${leftOver} item(s) were still sealed with the old key after the pass, so something else is writing to the data: ` +
        'stop every Clearbase server using it, then run this again to finish.',
    );
  }

  if (!(await rotationRecorded(deps.db, startedAt.toISOString()))) {
    await recordAuditEvent(deps.db, {
      actor: 'system',
      action: 'master_key.rotated',
      subjectType: 'settings',
      subjectId: null,
      detail: {
        startedAt: startedAt.toISOString(),
        ...Object.fromEntries(ROTATION_STAGES.map((stage) => [stage, counts[stage].done + counts[stage].rewrapped])),
        unreadable: ROTATION_STAGES.reduce((sum, stage) => sum + counts[stage].unreadable, 0),
      },
    });
  }
  if (place.kind === 'file') {
    await replaceKeyFile(nextFile, place.file);
    return { outcome: 'rotated', counts, resumed };
  }
  return { outcome: 'rotated', counts, newKeyFile: nextFile, resumed };
}

/**
 * Before a first run begins: when there are sealed things and the key in use opens none of them, it is not the
 * key they were sealed with (a wrong file restored, another installation's key), and replacing it would only
 * make that harder to put right.
 */
async function refuseWhenTheKeyOpensNothing(db: Db, oldKey: Buffer): Promise<void> {
  const ids = await documentIdsAfter(db, FIRST_ID, 20);
  if (ids.length === 0) return;
  const rows = await db.transaction((tx) => lockDocumentKeys(tx, ids));
  if (rows.some((row) => opensUnder(oldKey, row.wrappedKey))) return;
  throw new RotationRefusedError(
    'The master key in use opens none of the stored files checked, so it is not the key they were sealed with. ' +
      'Nothing was changed. Put the right key back (from your backup) before changing it.',
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
