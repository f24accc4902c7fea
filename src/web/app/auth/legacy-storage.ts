import { removeStorage } from '../../lib/browser-storage';

/** Keys older releases kept in the browser; the user guide no longer gates anything, so they are dropped. */
export const LEGACY_STORAGE_KEYS = ['userGuideCompleted', 'clearbase-user-guide'] as const;

export function removeLegacyStorage(): void {
  for (const key of LEGACY_STORAGE_KEYS) removeStorage(key);
}
