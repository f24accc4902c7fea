import { describe, expect, it } from 'vitest';
import { buildStoredPath, sanitizeStoredName, type StoredPathInput } from './stored-path';

const base: StoredPathInput = {
  year: 2025,
  division: 'AA',
  storedName: 'jose_garcia_lopez',
  birthDate: '2014-05-03',
  playerId: 'CB-2025-5c11d1b2',
  docType: 'birth_certificate',
  submissionId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  fileSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  extension: 'pdf',
};

describe('buildStoredPath', () => {
  it('follows seasons/{year}/{division}/{name}_{birth date}_{player id}/{name}_{birth date}_{doc type}_{submission id}_{hash8}.{ext}', () => {
    expect(buildStoredPath(base)).toBe(
      'seasons/2025/AA/jose_garcia_lopez_2014-05-03_CB-2025-5c11d1b2/' +
        'jose_garcia_lopez_2014-05-03_birth_certificate_0f8fad5b-d9cb-469f-a165-70867728950e_9f86d081.pdf',
    );
  });

  it('keeps every file of one player in the same folder', () => {
    const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
    expect(folderOf(buildStoredPath({ ...base, docType: 'waiver', extension: 'jpg' }))).toBe(folderOf(buildStoredPath(base)));
  });

  it('writes unclassified in place of the type of an undetected document', () => {
    expect(buildStoredPath({ ...base, docType: null })).toContain('_2014-05-03_unclassified_0f8fad5b-');
  });

  it('uses the first 8 hex digits of the file hash, lowercased, and a lowercased extension and submission id', () => {
    const path = buildStoredPath({
      ...base,
      fileSha256: 'ABCDEF0123456789',
      extension: 'HEIC',
      submissionId: '0F8FAD5B-D9CB-469F-A165-70867728950E',
    });
    expect(path.endsWith('_0f8fad5b-d9cb-469f-a165-70867728950e_abcdef01.heic')).toBe(true);
  });

  it('keeps the Peewee division as spelled', () => {
    expect(buildStoredPath({ ...base, division: 'Peewee' })).toMatch(/^seasons\/2025\/Peewee\//);
  });

  it('refuses any part that could leave the folder or was not sanitised', () => {
    expect(() => buildStoredPath({ ...base, storedName: '../etc' })).toThrow(RangeError);
    expect(() => buildStoredPath({ ...base, storedName: 'José' })).toThrow(/sanitizeStoredName/);
    expect(() => buildStoredPath({ ...base, playerId: '../CB-2025-5c11d1b2' })).toThrow(RangeError);
    expect(() => buildStoredPath({ ...base, submissionId: '../../x' })).toThrow(RangeError);
    expect(() => buildStoredPath({ ...base, extension: 'pdf/../../x' })).toThrow(RangeError);
    expect(() => buildStoredPath({ ...base, birthDate: '03/05/2014' })).toThrow(RangeError);
    expect(() => buildStoredPath({ ...base, fileSha256: 'xyz' })).toThrow(RangeError);
    expect(() => buildStoredPath({ ...base, year: 20_250 })).toThrow(RangeError);
  });
});

describe('sanitizeStoredName', () => {
  it('joins first and last name with an underscore, lowercased', () => {
    expect(sanitizeStoredName('Emma', 'Smith')).toBe('emma_smith');
  });

  it('folds accents and turns spaces and hyphens into underscores', () => {
    expect(sanitizeStoredName('José', 'García-López')).toBe('jose_garcia_lopez');
    expect(sanitizeStoredName('Zoë  Anne', 'Côté')).toBe('zoe_anne_cote');
  });

  it('drops apostrophes so a name stays one word', () => {
    expect(sanitizeStoredName('Liam', "O'Brien")).toBe('liam_obrien');
    expect(sanitizeStoredName('Liam', 'O’Brien')).toBe('liam_obrien');
  });

  it('spells out letters that have no accent to remove', () => {
    expect(sanitizeStoredName('Björn', 'Straße')).toBe('bjorn_strasse');
    expect(sanitizeStoredName('Søren', 'Łukasz')).toBe('soren_lukasz');
  });

  it('removes path characters and leaves only letters, digits and underscores', () => {
    const name = sanitizeStoredName('../../etc', 'pass/wd\u0000');
    expect(name).toMatch(/^[a-z0-9_]+$/);
    expect(name).toBe('etc_pass_wd');
  });

  it('falls back to unknown when nothing usable is left', () => {
    expect(sanitizeStoredName('李', '王')).toBe('unknown');
    expect(sanitizeStoredName('', '')).toBe('unknown');
  });

  it('caps the name at 64 characters without a trailing underscore', () => {
    const name = sanitizeStoredName('A'.repeat(63), 'Smith');
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name.endsWith('_')).toBe(false);
  });
});
