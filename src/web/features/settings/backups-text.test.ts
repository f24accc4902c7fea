import { describe, expect, it } from 'vitest';
import type { TBackupResult, TBackupState } from '../../../contract';
import { finishedText, hourLabel, HOURS, lastResultFigures, megabytes, nextBackupText, runBlockedReason } from './backups-text';

const when = (iso: string) => `<${iso}>`;
const schedule = { folder: '/mnt/backup', hour: 2, keep: 14 };
const state: TBackupState = { schedule, passphraseSet: true, running: false, last: null, nextAt: '2026-11-28T02:00:00Z' };
const ok: TBackupResult = { at: '2026-11-27T02:00:09Z', ok: true, file: 'clearbase-backup.tar', bytes: 14_412_345, files: 2878, message: 'Backed up 2,878 files (14.4 MB).' };
const failed: TBackupResult = { at: '2026-11-27T02:00:01Z', ok: false, file: null, bytes: null, files: null, message: 'The folder is full.' };

describe('the backups card in words', () => {
  it('writes the hours of the day as clock times', () => {
    expect(HOURS).toHaveLength(24);
    expect(hourLabel(0)).toBe('00:00');
    expect(hourLabel(2)).toBe('02:00');
    expect(hourLabel(23)).toBe('23:00');
  });

  it('writes sizes in megabytes of a million bytes with one decimal, as the server does, never 0.0 for a written file', () => {
    expect(megabytes(14_412_345)).toBe('14.4 MB');
    expect(megabytes(14_460_000)).toBe('14.5 MB');
    expect(megabytes(2_000)).toBe('0.1 MB');
    expect(megabytes(0)).toBe('0.0 MB');
    expect(megabytes(5_000_000_000)).toBe('5,000.0 MB');
  });

  it('says the last archive’s size and files, and nothing for a failed one', () => {
    expect(lastResultFigures(ok)).toBe('14.4 MB, 2,878 files');
    expect(lastResultFigures(failed)).toBeNull();
    expect(lastResultFigures({ ...ok, files: 1 })).toBe('14.4 MB, 1 file');
  });

  it('says when the next backup starts, or why none will', () => {
    expect(nextBackupText(state, when)).toBe('Next backup: <2026-11-28T02:00:00Z>');
    expect(nextBackupText({ ...state, schedule: null, nextAt: null }, when)).toMatch(/^No nightly backup is set/);
    expect(nextBackupText({ ...state, passphraseSet: false, nextAt: null }, when)).toMatch(/until the server has its backup passphrase/);
  });

  it('says why "Back up now" cannot be used: running first, then the passphrase, then the folder', () => {
    expect(runBlockedReason(state)).toBeNull();
    expect(runBlockedReason({ ...state, running: true, passphraseSet: false })).toBe('A backup is being made now.');
    expect(runBlockedReason({ ...state, passphraseSet: false, schedule: null })).toBe('The server has no backup passphrase yet.');
    expect(runBlockedReason({ ...state, schedule: null })).toBe('Choose a folder and save first.');
  });

  it('says how a backup started here ended', () => {
    expect(finishedText(ok)).toBe('Backup finished. Backed up 2,878 files (14.4 MB).');
    expect(finishedText(failed)).toBe('Backup failed. The folder is full.');
    expect(finishedText(null)).toMatch(/without a result/);
  });
});
