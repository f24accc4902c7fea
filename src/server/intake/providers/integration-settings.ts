import { z } from 'zod';
import { ZProviderQuestion, ZQuestionMapping, type TFormProvider, type TProviderQuestion, type TQuestionMapping } from '../../../contract';
import { openSecret, ZSealedSecret, type SealedSecret } from '../../platform/crypto/secret-box';
import type { Db } from '../../platform/db/client';
import { getSetting, putSetting } from '../../settings';
import { lockSettingRow } from './integrations.repository';

/**
 * What Settings → Integrations keeps for one form builder, in the settings table under `integration.{provider}`:
 * its own secret and download key (sealed with the master key, like every secret kept in the database), its
 * question mapping, and the questions of its last delivery.
 */
export const ZStoredIntegration = z.object({
  secret: ZSealedSecret.nullable().default(null),
  downloadKey: ZSealedSecret.nullable().default(null),
  mapping: ZQuestionMapping.default({}),
  lastQuestions: z.array(ZProviderQuestion).max(200).default([]),
});
export type StoredIntegration = z.infer<typeof ZStoredIntegration>;

const settingKey = (provider: TFormProvider) => `integration.${provider}`;

export async function readStoredIntegration(db: Db, provider: TFormProvider): Promise<StoredIntegration> {
  return (await getSetting(db, settingKey(provider), ZStoredIntegration)) ?? ZStoredIntegration.parse({});
}

export async function writeStoredIntegration(db: Db, provider: TFormProvider, value: StoredIntegration): Promise<void> {
  await putSetting(db, settingKey(provider), value);
}

/**
 * Reads, changes and writes one provider's settings in one transaction that holds its row, so two changes at
 * once (a delivery noting its questions while someone saves a secret) do not undo each other. `change`
 * answers the new settings and may write more through `tx` (an audit record), in the same transaction.
 */
export function changeStoredIntegration<T>(
  db: Db,
  provider: TFormProvider,
  change: (stored: StoredIntegration, tx: Db) => Promise<{ next: StoredIntegration; result: T }>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await lockSettingRow(tx, settingKey(provider), ZStoredIntegration.parse({}));
    const { next, result } = await change(await readStoredIntegration(tx, provider), tx);
    await writeStoredIntegration(tx, provider, next);
    return result;
  });
}

/** What verifying and reading one delivery needs: the secret in force (the provider's own, else the default), the download key, the mapping. */
export type ProviderCredentials = { secret: string | undefined; downloadKey: string | undefined; mapping: TQuestionMapping };

export async function readCredentials(
  deps: { db: Db; masterKey: Buffer; defaultSecret: string | undefined },
  provider: TFormProvider,
): Promise<ProviderCredentials> {
  const stored = await readStoredIntegration(deps.db, provider);
  const open = (sealed: SealedSecret | null) => (sealed === null ? Promise.resolve(undefined) : openSecret(deps.masterKey, sealed));
  return { secret: (await open(stored.secret)) ?? deps.defaultSecret, downloadKey: await open(stored.downloadKey), mapping: stored.mapping };
}

/** Keeps the questions of the latest delivery, the mapping's choices on the Integrations screen. */
export async function noteQuestions(db: Db, provider: TFormProvider, questions: readonly TProviderQuestion[]): Promise<void> {
  await changeStoredIntegration(db, provider, (stored) => Promise.resolve({ next: { ...stored, lastQuestions: questions.slice(0, 200) }, result: undefined }));
}
