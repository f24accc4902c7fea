import { timingSafeEqual } from 'node:crypto';
import { MASTER_KEY_CONFIRM_LENGTH, masterKeySheetFileName, type TMasterKeyBackup } from '../../contract';
import { auditActorColumns, recordAuditEvent, type Actor } from '../audit';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { lockBackup, MASTER_KEY_BACKUP_SETTING, readBackup, writeBackup, type StoredBackup, type StoredEvent } from './master-key.repository';
import { keyCheckOf, keyFingerprint, recoverySheetPdf } from './recovery-sheet';

export const SHEET_ALREADY_DOWNLOADED =
  'The recovery sheet of this master key was downloaded already, and it is never shown twice. If the sheet is lost, ' +
  'ask whoever runs the server to replace the key (npm run rotate-key): the new key gets a sheet of its own.';
export const SHEET_NOT_DOWNLOADED = 'Download the recovery sheet first, then type the characters printed on it.';
export const WRONG_CHARACTERS = `These are not the first ${MASTER_KEY_CONFIRM_LENGTH} characters of the key. Check the sheet (capital and small letters differ) and type them again.`;

export type MasterKeyBackupService = {
  /** Whether the key in use has been backed up, and when its sheet was downloaded. */
  status(): Promise<TMasterKeyBackup>;
  /** The key's recovery sheet, once per key: recorded and audited before it is answered. */
  downloadSheet(meta: Actor): Promise<{ fileName: string; body: Buffer }>;
  /** Marks the key as backed up when `characters` are its first characters; a wrong entry marks nothing. */
  confirm(characters: string, meta: Actor): Promise<TMasterKeyBackup>;
  /** For the health check: true once the key in use has been confirmed. */
  backedUp(): Promise<boolean>;
};

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function createMasterKeyBackupService(deps: {
  db: Db;
  masterKey: Buffer;
  /** The installation's address (CLEARBASE_PUBLIC_URL), printed on the sheet when there is one. */
  site: string | undefined;
  now?: () => Date;
}): MasterKeyBackupService {
  const now = deps.now ?? (() => new Date());
  const fingerprint = keyFingerprint(deps.masterKey);
  const keyCheck = keyCheckOf(fingerprint);
  // Compared as bytes of the same length: the typed characters against the key's own first ones.
  const expected = Buffer.from(deps.masterKey.toString('base64').slice(0, MASTER_KEY_CONFIRM_LENGTH));

  const eventOf = (meta: Actor): StoredEvent => {
    const { actorName, actorUserId } = auditActorColumns(meta.principal);
    return { at: now().toISOString(), by: actorName, userId: actorUserId };
  };
  const shown = (event: StoredEvent | null | undefined) => (event ? { at: event.at, by: event.by } : null);
  const describe = (stored: StoredBackup | undefined): TMasterKeyBackup => {
    const current = stored?.fingerprint === fingerprint ? stored : undefined;
    return {
      state: current?.confirmed ? 'backed_up' : current ? 'awaiting_confirmation' : 'not_downloaded',
      sheetDownloaded: shown(current?.sheetDownloaded),
      confirmed: shown(current?.confirmed),
      keyReplaced: stored !== undefined && current === undefined,
      keyCheck,
    };
  };

  return {
    async status() {
      return describe(await readBackup(deps.db));
    },

    async downloadSheet(meta) {
      if ((await readBackup(deps.db))?.fingerprint === fingerprint) throw new AppError('GONE', SHEET_ALREADY_DOWNLOADED);
      const at = now();
      const day = at.toISOString().slice(0, 10);
      // Made before anything is recorded: a sheet that failed to be made does not use up the one download.
      const body = await recoverySheetPdf({ key: deps.masterKey, site: deps.site, printedOn: DAY.format(at), keyCheck });
      const recorded = await deps.db.transaction(async (tx) => {
        const { exists, stored } = await lockBackup(tx);
        if (stored?.fingerprint === fingerprint) return false;
        const claimed = await writeBackup(tx, exists, { fingerprint, sheetDownloaded: eventOf(meta), confirmed: null });
        if (!claimed) return false;
        await recordAuditEvent(tx, {
          actor: meta.principal,
          action: 'master_key.recovery_sheet_downloaded',
          subjectType: 'settings',
          subjectId: MASTER_KEY_BACKUP_SETTING,
          detail: { keyCheck },
          requestId: meta.requestId,
        });
        return true;
      });
      if (!recorded) throw new AppError('GONE', SHEET_ALREADY_DOWNLOADED);
      return { fileName: masterKeySheetFileName(day), body };
    },

    async confirm(characters, meta) {
      const typed = Buffer.from(characters);
      const matches = typed.length === expected.length && timingSafeEqual(typed, expected);
      const stored = await deps.db.transaction(async (tx) => {
        const { exists, stored: before } = await lockBackup(tx);
        if (before?.fingerprint !== fingerprint) throw new AppError('CONFLICT', SHEET_NOT_DOWNLOADED);
        if (!matches) throw new AppError('VALIDATION_FAILED', WRONG_CHARACTERS, [{ path: 'body.characters', message: WRONG_CHARACTERS }]);
        // Confirmed already: nothing new to record.
        if (before.confirmed) return before;
        const after: StoredBackup = { ...before, confirmed: eventOf(meta) };
        await writeBackup(tx, exists, after);
        await recordAuditEvent(tx, {
          actor: meta.principal,
          action: 'master_key.backup_confirmed',
          subjectType: 'settings',
          subjectId: MASTER_KEY_BACKUP_SETTING,
          detail: { keyCheck },
          requestId: meta.requestId,
        });
        return after;
      });
      return describe(stored);
    },

    async backedUp() {
      const stored = await readBackup(deps.db);
      return stored?.fingerprint === fingerprint && stored.confirmed !== null;
    },
  };
}
