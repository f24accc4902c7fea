/**
 * A name compared as a person types it: no accents, any case, single spaces. The server compares the erase
 * confirmation the same way; here it only decides when the Erase button may be pressed.
 */
export const foldName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** Whether what was typed is the player's name. */
export const confirmsName = (typed: string, playerName: string): boolean => typed.trim() !== '' && foldName(typed) === foldName(playerName);

/** How far an export has come, in words: 'Preparing…', then '1.4 MB received'. */
export function exportProgressText(bytes: number | null): string {
  if (bytes === null || bytes === 0) return 'Preparing…';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB received`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB received`;
}
