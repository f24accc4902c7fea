import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { FORM_WEBHOOK_PATH, FORM_WEBHOOK_SECRET_VARIABLE, type TFormWebhook, type TFormWebhookSecret } from '../../../contract';
import { recordAuditEvent, type Actor } from '../../audit';
import { openSecret, sealSecret, ZSealedSecret } from '../../platform/crypto/secret-box';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { getSetting, insertSettingIfAbsent, putSetting } from '../../settings';

/** The settings row of the form webhook's secret when the environment sets none: sealed with the master key. */
const SETTING_KEY = 'integration.form_webhook';
const ZStoredFormSecret = z.object({ secret: ZSealedSecret });

/** 32 random bytes, base64url: 43 characters, far past FORM_WEBHOOK_SECRET's 16. */
const generateSecret = () => randomBytes(32).toString('base64url');

export type FormSecret = {
  /**
   * The secret in force, read for each request so a rotation applies at once on every instance: FORM_WEBHOOK_SECRET
   * where set, else the one kept in the settings, generated on first use.
   */
  current(): Promise<string>;
  /** Where the webhook is and which secret is in force, never the secret. */
  describe(): TFormWebhook;
  /** The secret itself, for the screen's Reveal and Copy; audited (who looked), never with the secret. */
  reveal(actor: Actor): Promise<TFormWebhookSecret>;
  /** Replaces the kept secret with a new random one (the old stops working at once); refused while the environment sets it. */
  rotate(actor: Actor): Promise<TFormWebhookSecret>;
};

export function createFormSecret(deps: { db: Db; masterKey: Buffer; environment: string | undefined }): FormSecret {
  const { db, masterKey, environment } = deps;
  const describe = (): TFormWebhook =>
    environment === undefined
      ? { path: FORM_WEBHOOK_PATH, source: 'settings', variable: null }
      : { path: FORM_WEBHOOK_PATH, source: 'environment', variable: FORM_WEBHOOK_SECRET_VARIABLE };

  const current = async (): Promise<string> => {
    if (environment !== undefined) return environment;
    const stored = await getSetting(db, SETTING_KEY, ZStoredFormSecret);
    if (stored) return openSecret(masterKey, stored.secret);
    // First use: the first instance to store one wins, and every other reads that one.
    await insertSettingIfAbsent(db, SETTING_KEY, { secret: sealSecret(masterKey, generateSecret()) });
    const kept = await getSetting(db, SETTING_KEY, ZStoredFormSecret);
    if (!kept) throw new Error('the form webhook secret could not be kept');
    return openSecret(masterKey, kept.secret);
  };

  return {
    current,
    describe,

    async reveal(actor) {
      const secret = await current();
      await recordAuditEvent(db, {
        actor: actor.principal,
        action: 'integration.form_secret_revealed',
        subjectType: 'settings',
        subjectId: SETTING_KEY,
        detail: { source: describe().source },
        requestId: actor.requestId,
      });
      return { ...describe(), secret };
    },

    async rotate(actor) {
      if (environment !== undefined) {
        throw new AppError('CONFLICT', `The form webhook secret is set on the server by ${FORM_WEBHOOK_SECRET_VARIABLE}; change it there.`);
      }
      const secret = generateSecret();
      await db.transaction(async (tx) => {
        await putSetting(tx, SETTING_KEY, { secret: sealSecret(masterKey, secret) });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'integration.form_secret_rotated',
          subjectType: 'settings',
          subjectId: SETTING_KEY,
          detail: {},
          requestId: actor.requestId,
        });
      });
      return { ...describe(), secret };
    },
  };
}
