import { describe, expect, it } from 'vitest';
import type { TMasterKeyBackup } from '../../../contract';
import { masterKeyStatusText } from './master-key-text';

const base: TMasterKeyBackup = { state: 'not_downloaded', sheetDownloaded: null, confirmed: null, keyReplaced: false, keyCheck: 'A1B2C3D4' };
const when = (iso: string) => `<${iso}>`;

describe('the master key panel in words', () => {
  it('says the key was never backed up, or that a new key needs its own sheet', () => {
    expect(masterKeyStatusText(base, when)).toBe('The master key has never been backed up. Download its recovery sheet, print it and keep it somewhere safe.');
    expect(masterKeyStatusText({ ...base, keyReplaced: true }, when)).toMatch(/^The master key was replaced since the last recovery sheet/);
  });

  it('names who downloaded the sheet and who confirmed it, and when', () => {
    const downloaded = { ...base, state: 'awaiting_confirmation' as const, sheetDownloaded: { at: '2026-11-27T10:00:00Z', by: 'Ada Keeper' } };
    expect(masterKeyStatusText(downloaded, when)).toMatch(/^Ada Keeper downloaded the recovery sheet on <2026-11-27T10:00:00Z>\. Type the first characters/);
    const confirmed = { ...downloaded, state: 'backed_up' as const, confirmed: { at: '2026-11-27T10:05:00Z', by: 'Shared password' } };
    expect(masterKeyStatusText(confirmed, when)).toBe('Backed up: Shared password confirmed holding the recovery sheet on <2026-11-27T10:05:00Z>.');
  });
});
