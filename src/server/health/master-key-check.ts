import type { HealthCheck } from './health.service';

/** What the storage line says, ahead of its own message, until an admin confirms the master key's recovery sheet. */
export const MASTER_KEY_NOT_BACKED_UP =
  'The master key has not been backed up: an admin downloads its recovery sheet in Settings → Security. Without the key no stored file can be opened, not even from a backup.';

/**
 * The storage line with the master key's backup state: a storage that works is a warning while the key that
 * opens its files has not been backed up. A failing storage stays an error; a state that cannot be read
 * leaves the line as its own check says (the log has why).
 */
export function withMasterKeyBackup(check: HealthCheck, backedUp: () => Promise<boolean>, onError: (error: unknown) => void): HealthCheck {
  return async () => {
    const [result, safe] = await Promise.all([
      check(),
      backedUp().catch((error: unknown) => {
        onError(error);
        return true;
      }),
    ]);
    if (safe || result.status === 'error') return result;
    return { status: 'warning', message: `${MASTER_KEY_NOT_BACKED_UP} ${result.message}` };
  };
}
