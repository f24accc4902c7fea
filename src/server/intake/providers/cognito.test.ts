import { describe, expect, it } from 'vitest';
import { MAPPED_FIELD_LABELS } from '../../../contract';
import { AppError } from '../../platform/errors';
import { cognitoAdapter } from './cognito';
import { cognitoEntry, cognitoRequest } from './cognito.fixture';

const TOKEN = 'cognito-token-for-tests-0123456789';
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

const BIRTH = { name: 'ada-birth.pdf', contentType: 'application/pdf', url: 'https://www.cognitoforms.com/file/Zm9vYmFy?token=abc' };
const BILL = { name: 'bill.png', contentType: 'image/png', url: 'https://www.cognitoforms.com/file/YmlsbA?token=def' };

describe('Cognito Forms adapter: verify', () => {
  const entry = cognitoEntry();

  it('accepts the token of the webhook address when it is the secret', () => {
    expect(cognitoAdapter.verify(cognitoRequest(entry, TOKEN), TOKEN)).toBe(true);
  });

  it('refuses another token, a missing one, and any token when no secret is set', () => {
    expect(cognitoAdapter.verify(cognitoRequest(entry, `${TOKEN}x`), TOKEN)).toBe(false);
    expect(cognitoAdapter.verify(cognitoRequest(entry, undefined), TOKEN)).toBe(false);
    expect(cognitoAdapter.verify(cognitoRequest(entry, ''), '')).toBe(false);
  });
});

describe('Cognito Forms adapter: parse', () => {
  const parsed = cognitoAdapter.parse(cognitoRequest(cognitoEntry({ entryNumber: 31, birthCertificate: [BIRTH], residency: [BILL, BIRTH] }), TOKEN));
  const byKey = new Map(parsed.answers.map((answer) => [answer.key, answer]));

  it('takes the entry id Cognito gives it', () => {
    expect(parsed.externalId).toBe('14-31');
  });

  it('labels each field from its name, and splits a Name field into the whole and its parts', () => {
    expect(byKey.get('PlayerName')).toEqual({ key: 'PlayerName', label: 'Player name', value: 'Ada Lovelace', files: [] });
    expect(byKey.get('PlayerName.First')).toMatchObject({ label: 'Player first name', value: 'Ada' });
    expect(byKey.get('PlayerName.Last')).toMatchObject({ label: 'Player last name', value: 'Lovelace' });
    expect(byKey.get('PlayerDateOfBirth')).toMatchObject({ label: 'Player date of birth', value: '2015-12-10' });
    expect(byKey.get('ParentGuardianEmail')).toMatchObject({ label: 'Parent guardian email', value: 'ada.parent@example.org' });
    expect(byKey.get('ParentGuardianName')).toMatchObject({ label: 'Parent guardian name', value: 'Annabella Byron' });
  });

  it('gives the form fields\' questions labels those fields are found by', () => {
    const labels = parsed.answers.map((answer) => loose(answer.label));
    for (const field of ['playerFirstName', 'playerLastName', 'playerName', 'playerBirthDate', 'division', 'season', 'guardianName', 'guardianEmail', 'guardianPhone', 'birth_certificate', 'residency'] as const) {
      expect(labels, field).toContain(loose(MAPPED_FIELD_LABELS[field]));
    }
  });

  it('reads an address, a Yes/No, a choice list, and the fields of a section', () => {
    expect(byKey.get('HomeAddress')?.value).toBe('12 St James Square, London SW1Y 4JH, United Kingdom');
    expect(byKey.get('PhotoConsent')?.value).toBe('Yes');
    expect(byKey.get('PositionsPlayed')?.value).toBe('Forward, Goalie');
    expect(byKey.get('MedicalDetails.Allergies')).toMatchObject({ label: 'Allergies', value: 'None' });
    expect(byKey.get('MedicalDetails.MedicalForm')).toEqual({ key: 'MedicalDetails.MedicalForm', label: 'Medical form', value: null, files: [] });
  });

  it('links each uploaded file with its name', () => {
    expect(byKey.get('BirthCertificate')).toEqual({ key: 'BirthCertificate', label: 'Birth certificate', value: null, files: [{ kind: 'url', url: BIRTH.url, filename: 'ada-birth.pdf' }] });
    expect(byKey.get('ProofOfResidency')?.files.map((file) => file.filename)).toEqual(['bill.png', 'ada-birth.pdf']);
    expect(cognitoAdapter.fileHosts).toContain('cognitoforms.com');
  });

  it('leaves out the entry details, Cognito\'s own properties and repeating sections', () => {
    for (const key of ['Form', 'Entry', 'Id', '$version', '$etag', 'Siblings']) expect(byKey.has(key), key).toBe(false);
  });

  it('takes the form id and entry number when the entry has no Id', () => {
    const { Id: _id, ...entry } = cognitoEntry({ entryNumber: 8 });
    expect(cognitoAdapter.parse(cognitoRequest(entry, TOKEN)).externalId).toBe('14-8');
  });

  it('refuses a body that is not an entry, saying why', () => {
    const request = cognitoRequest(cognitoEntry(), TOKEN);
    expect(refusalOf(() => cognitoAdapter.parse({ ...request, rawBody: Buffer.from('PlayerName=Ada') })).message).toMatch(/not JSON/);
    expect(refusalOf(() => cognitoAdapter.parse({ ...request, rawBody: Buffer.from('[1,2]') })).message).toMatch(/not an entry/);
    const { Id: _id, Entry: _entry, ...anonymous } = cognitoEntry();
    const refused = refusalOf(() => cognitoAdapter.parse(cognitoRequest(anonymous, TOKEN)));
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.message).toMatch(/no entry id/);
  });
});
