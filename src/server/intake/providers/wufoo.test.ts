import { describe, expect, it } from 'vitest';
import { MAPPED_FIELD_LABELS } from '../../../contract';
import { AppError } from '../../platform/errors';
import { wufooAdapter } from './wufoo';
import { WUFOO_FORM_HASH, wufooFields, wufooRequest } from './wufoo.fixture';

const KEY = 'wufoo-handshake-key-for-tests';
const FILE = { name: 'ada-birth.pdf', url: 'https://clearbase-league.wufoo.com/cabinet/z1x2c3v4b5n6m7/gTVeAerMQyk%3D/ada-birth.pdf' };
/** Labels as the mapper compares them: without case, spaces or punctuation. */
const loose = (label: string) => label.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Wufoo adapter: verify', () => {
  it('accepts the handshake key when it is the secret', () => {
    expect(wufooAdapter.verify(wufooRequest(wufooFields({ handshakeKey: KEY })), KEY)).toBe(true);
  });

  it('refuses another key, a missing one, and any key when no secret is set', () => {
    expect(wufooAdapter.verify(wufooRequest(wufooFields({ handshakeKey: `${KEY}-old` })), KEY)).toBe(false);
    expect(wufooAdapter.verify(wufooRequest(wufooFields()), KEY)).toBe(false);
    expect(wufooAdapter.verify(wufooRequest(wufooFields({ handshakeKey: '' })), '')).toBe(false);
  });
});

describe('Wufoo adapter: parse, with the field and form structures', () => {
  const parsed = wufooAdapter.parse(wufooRequest(wufooFields({ handshakeKey: KEY, entryId: '12', birthCertificate: FILE })));
  const byKey = new Map(parsed.answers.map((answer) => [answer.key, answer]));

  it('keeps two forms\' entries apart: the entry id with the form\'s hash', () => {
    expect(parsed.externalId).toBe(`${WUFOO_FORM_HASH}-12`);
  });

  it('labels each field by its title, a Name field as the whole name and its parts', () => {
    expect(byKey.get('Field1-name')).toEqual({ key: 'Field1-name', label: 'Player name', value: 'Ada Lovelace', files: [] });
    expect(byKey.get('Field1')).toEqual({ key: 'Field1', label: 'Player first name', value: 'Ada', files: [] });
    expect(byKey.get('Field2')).toEqual({ key: 'Field2', label: 'Player last name', value: 'Lovelace', files: [] });
    expect(byKey.get('Field3')).toMatchObject({ label: 'Player date of birth', value: '2015-12-10' });
    expect(byKey.get('Field6-name')).toMatchObject({ label: 'Parent/guardian name', value: 'Annabella Byron' });
    expect(byKey.get('Field108')).toMatchObject({ label: 'Positions played', value: 'Forward, Goalie' });
    expect(byKey.has('Field109')).toBe(false);
  });

  it('gives the form fields\' questions the labels those fields are found by', () => {
    const labels = parsed.answers.map((answer) => loose(answer.label));
    for (const field of ['playerFirstName', 'playerLastName', 'playerName', 'playerBirthDate', 'division', 'season', 'guardianName', 'guardianEmail', 'birth_certificate'] as const) {
      expect(labels, field).toContain(loose(MAPPED_FIELD_LABELS[field]));
    }
  });

  it('reads a File Upload as the linked file with its name', () => {
    expect(byKey.get('Field210')).toEqual({ key: 'Field210', label: 'Birth certificate', value: null, files: [{ kind: 'url', url: FILE.url, filename: 'ada-birth.pdf' }] });
    expect(wufooAdapter.fileHosts).toContain('wufoo.com');
  });

  it('reads the file from "name (link)" when the separate link is absent, and no file when nothing was uploaded', () => {
    const fields = wufooFields({ birthCertificate: FILE });
    delete fields['Field210-url'];
    expect(wufooAdapter.parse(wufooRequest(fields)).answers.find((a) => a.key === 'Field210')?.files).toEqual([{ kind: 'url', url: FILE.url, filename: 'ada-birth.pdf' }]);
    expect(wufooAdapter.parse(wufooRequest(wufooFields())).answers.find((a) => a.key === 'Field210')).toEqual({ key: 'Field210', label: 'Birth certificate', value: null, files: [] });
  });

  it('writes a compact date as YYYY-MM-DD', () => {
    const answers = wufooAdapter.parse(wufooRequest(wufooFields({ player: { birthDate: '20151210' } }))).answers;
    expect(answers.find((a) => a.key === 'Field3')?.value).toBe('2015-12-10');
  });
});

describe('Wufoo adapter: parse, without the structures', () => {
  it('labels each answer by its field id and still finds the file, with the entry id alone', () => {
    const parsed = wufooAdapter.parse(wufooRequest(wufooFields({ structures: false, birthCertificate: FILE, entryId: '40' })));
    expect(parsed.externalId).toBe('40');
    const byKey = new Map(parsed.answers.map((answer) => [answer.key, answer]));
    expect(byKey.get('Field1')).toEqual({ key: 'Field1', label: 'Field1', value: 'Ada', files: [] });
    expect(byKey.get('Field109')).toEqual({ key: 'Field109', label: 'Field109', value: null, files: [] });
    expect(byKey.get('Field210')?.files).toEqual([{ kind: 'url', url: FILE.url, filename: 'ada-birth.pdf' }]);
    for (const key of ['EntryId', 'DateCreated', 'CreatedBy', 'IP', 'HandshakeKey', 'Field210-url']) expect(byKey.has(key), key).toBe(false);
  });
});

describe('Wufoo adapter: refusals', () => {
  it('refuses a delivery without its EntryId, or with a structure that is not JSON', () => {
    const noEntry = wufooFields();
    delete noEntry['EntryId'];
    expect(refusalOf(() => wufooAdapter.parse(wufooRequest(noEntry))).message).toMatch(/no EntryId/);
    expect(refusalOf(() => wufooAdapter.parse(wufooRequest({ ...wufooFields(), FieldStructure: '{"Fields": ' }))).message).toMatch(/FieldStructure is not JSON/);
    const wrongShape = refusalOf(() => wufooAdapter.parse(wufooRequest({ ...wufooFields(), FieldStructure: '{"Fields": [{"Title": "No id"}]}' })));
    expect(wrongShape.code).toBe('VALIDATION_FAILED');
    expect(wrongShape.details?.[0]?.path).toBe('Fields.0.ID');
  });
});
