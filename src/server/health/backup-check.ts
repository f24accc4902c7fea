import type { TBackupState } from '../../contract';
import type { HealthCheck } from './health.service';

/** A nightly backup older than this, or none this long after the schedule was set, is a warning. */
export const BACKUP_STALE_MS = 2 * 86_400_000;

const when = (iso: string) => {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

/**
 * The storage line with the nightly backup's last result after its own message: how old and how large it
 * was, a warning when it failed or is older than two days. Without a schedule the line is its own check's;
 * a state that cannot be read leaves it so too (the log has why).
 */
export function withLastBackup(check: HealthCheck, backups: () => Promise<TBackupState>, now: () => Date, onError: (error: unknown) => void): HealthCheck {
  return async () => {
    const [result, state] = await Promise.all([
      check(),
      backups().catch((error: unknown) => {
        onError(error);
        return undefined;
      }),
    ]);
    if (!state?.schedule) return result;
    const { last } = state;
    if (!last) return result;
    if (!last.ok) return { status: result.status === 'error' ? 'error' : 'warning', message: `${result.message} The last backup failed (${when(last.at)}): ${last.message}` };
    const sizeText = last.bytes === null ? '' : `, ${(last.bytes / 1e6).toFixed(1)} MB`;
    if (now().getTime() - new Date(last.at).getTime() > BACKUP_STALE_MS) {
      return { status: result.status === 'error' ? 'error' : 'warning', message: `${result.message} No backup since ${when(last.at)}${sizeText}.` };
    }
    return { ...result, message: `${result.message} Last backup ${when(last.at)}${sizeText}.` };
  };
}
