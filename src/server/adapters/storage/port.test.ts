import { describe, expect, it } from 'vitest';
import { assertSafeKey } from './port';

describe('assertSafeKey', () => {
  it('accepts the relative paths Clearbase builds', () => {
    expect(() => assertSafeKey('seasons/2025/AAA/emma_smith_2014-05-03_CB-2025-1a2b3c4d/file.pdf')).not.toThrow();
  });

  it.each([
    ['empty', ''],
    ['absolute', '/etc/passwd'],
    ['parent segment', 'seasons/../../etc/passwd'],
    ['dot segment', 'seasons/./x'],
    ['empty segment', 'seasons//x'],
    ['backslash', 'seasons\\x'],
    ['NUL', 'seasons/x\u0000.pdf'],
    ['newline', 'seasons/x\n.pdf'],
    ['too long', 'a/'.repeat(600)],
  ])('refuses a key that is %s', (_name, key) => {
    expect(() => assertSafeKey(key)).toThrow(/unsafe storage key/);
  });
});
