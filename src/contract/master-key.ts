import { z } from 'zod';

/**
 * Settings → Security → Master key: whether the key that opens every stored file has been backed up on its
 * printed recovery sheet. The sheet is downloaded once per key; the admin then types the first characters of
 * the key as printed, which marks that key as backed up. A new key (npm run rotate-key) starts again.
 */

export const MASTER_KEY_PATH = '/api/settings/master-key';
export const MASTER_KEY_SHEET_PATH = '/api/settings/master-key/recovery-sheet';
export const MASTER_KEY_CONFIRM_PATH = '/api/settings/master-key/confirm';

/** How many of the key's first characters the admin types back from the sheet. */
export const MASTER_KEY_CONFIRM_LENGTH = 8;

export const MASTER_KEY_BACKUP_STATES = ['not_downloaded', 'awaiting_confirmation', 'backed_up'] as const;
export const ZMasterKeyBackupState = z.enum(MASTER_KEY_BACKUP_STATES);
export type TMasterKeyBackupState = z.infer<typeof ZMasterKeyBackupState>;

/** When something happened, and the name of who did it as the audit names them. */
export const ZMasterKeyEvent = z.object({ at: z.string(), by: z.string() });

export const ZMasterKeyBackup = z.object({
  state: ZMasterKeyBackupState,
  /** When the current key's sheet was downloaded; null until it is. */
  sheetDownloaded: ZMasterKeyEvent.nullable(),
  /** When someone confirmed holding the current key's sheet; null until they do. */
  confirmed: ZMasterKeyEvent.nullable(),
  /** True when an earlier key had a sheet, and the key has been replaced since: the new key needs a sheet of its own. */
  keyReplaced: z.boolean(),
  /** A short check of the current key (not the key, nor enough of it to guess): printed on its sheet to match the two. */
  keyCheck: z.string(),
});
export type TMasterKeyBackup = z.infer<typeof ZMasterKeyBackup>;

const BASE64_CHARACTER = /^[A-Za-z0-9+/=]*$/;

export const ZMasterKeyConfirm = z
  .object({
    characters: z
      .string({ error: `Type the first ${MASTER_KEY_CONFIRM_LENGTH} characters of the key as printed on the sheet.` })
      // Spaces between the printed groups are allowed: they are not part of the key.
      .transform((typed) => typed.replace(/\s+/g, ''))
      .pipe(
        z
          .string()
          .length(MASTER_KEY_CONFIRM_LENGTH, `Type exactly the first ${MASTER_KEY_CONFIRM_LENGTH} characters of the key, as printed on the sheet.`)
          .regex(BASE64_CHARACTER, 'The key has only letters, digits, + and /. Check the sheet and type them again.'),
      ),
  })
  .strict();
export type TMasterKeyConfirm = z.input<typeof ZMasterKeyConfirm>;

/** The sheet's file name. */
export const masterKeySheetFileName = (day: string): string => `clearbase-master-key-recovery-sheet-${day}.pdf`;
