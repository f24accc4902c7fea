import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { gravityAdapter } from './gravity';
import { gravityEntry, gravityRequest } from './gravity.fixture';

const TOKEN = 'gravity-token-for-tests-0123456789';
const UPLOADS = 'https://league.example.org/wp-content/uploads/gravity_forms/3-9f86d081884c7d659a2feaa0c55ad015/2025/03';

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Gravity Forms adapter: verify', () => {
  const entry = gravityEntry();

  it('accepts the token of the webhook address when it is the secret', () => {
    expect(gravityAdapter.verify(gravityRequest(entry, TOKEN), TOKEN)).toBe(true);
  });

  it('refuses another token, a missing one, and any token when no secret is set', () => {
    expect(gravityAdapter.verify(gravityRequest(entry, TOKEN.slice(1)), TOKEN)).toBe(false);
    expect(gravityAdapter.verify(gravityRequest(entry, undefined), TOKEN)).toBe(false);
    expect(gravityAdapter.verify(gravityRequest(entry, ''), '')).toBe(false);
  });
});

describe('Gravity Forms adapter: parse', () => {
  const entry = gravityEntry({ entryId: 352, birthCertificate: `${UPLOADS}/ada-birth.pdf`, residency: [`${UPLOADS}/bill.png`, `${UPLOADS}/lease%20page%201.pdf`] });
  const parsed = gravityAdapter.parse(gravityRequest(entry, TOKEN));
  const byKey = new Map(parsed.answers.map((answer) => [answer.key, answer]));

  it('takes the entry id, and each field id as a question labelled by its id', () => {
    expect(parsed.externalId).toBe('352');
    expect(byKey.get('1.3')).toEqual({ key: '1.3', label: '1.3', value: 'Ada', files: [] });
    expect(byKey.get('1.6')?.value).toBe('Lovelace');
    expect(byKey.get('2')?.value).toBe('2015-12-10');
    expect(byKey.get('1.2')?.value).toBeNull();
  });

  it('leaves out the entry properties', () => {
    for (const key of ['id', 'form_id', 'date_created', 'ip', 'source_url', 'user_agent', 'status', 'created_by', 'payment_status']) expect(byKey.has(key), key).toBe(false);
  });

  it('reads an upload link as a file, a multi-file upload\'s list as files, and any other link as text', () => {
    expect(byKey.get('7')).toEqual({ key: '7', label: '7', value: null, files: [{ kind: 'url', url: `${UPLOADS}/ada-birth.pdf`, filename: 'ada-birth.pdf' }] });
    expect(byKey.get('8')?.files.map((file) => file.filename)).toEqual(['bill.png', 'lease page 1.pdf']);
    expect(byKey.get('9')).toEqual({ key: '9', label: '9', value: 'https://ada.example.org/about', files: [] });
    expect(gravityAdapter.fileHosts).toEqual([]);
  });

  it('reads an upload left empty as no file', () => {
    const empty = gravityAdapter.parse(gravityRequest(gravityEntry({ birthCertificate: '', residency: [] }), TOKEN));
    expect(empty.answers.find((a) => a.key === '7')).toEqual({ key: '7', label: '7', value: null, files: [] });
    expect(empty.answers.find((a) => a.key === '8')).toEqual({ key: '8', label: '8', value: null, files: [] });
  });

  it('reads the same entry sent as FORM (urlencoded)', () => {
    const form = new URLSearchParams(Object.entries(entry).map(([key, value]): [string, string] => [key, typeof value === 'string' || typeof value === 'number' ? String(value) : '']));
    const request = { rawBody: Buffer.from(form.toString()), contentType: 'application/x-www-form-urlencoded', headers: {}, token: TOKEN };
    const fromForm = gravityAdapter.parse(request);
    expect(fromForm.externalId).toBe('352');
    expect(fromForm.answers.filter((a) => a.value !== null || a.files.length > 0)).toEqual(parsed.answers.filter((a) => a.value !== null || a.files.length > 0));
  });

  it('with Select Fields, takes the keys the registrar chose as the labels, and a protected download link as a file', () => {
    const selected = {
      id: 77,
      'Player first name': 'Ada',
      'Player last name': 'Lovelace',
      'Birth certificate': 'https://league.example.org/index.php?gf-download=2025%2F03%2Fada-birth.pdf&form-id=3&field-id=7&hash=abc123',
    };
    const answers = gravityAdapter.parse(gravityRequest(selected, TOKEN));
    expect(answers.externalId).toBe('77');
    expect(answers.answers.map((a) => [a.label, a.value, a.files.map((f) => f.filename)])).toEqual([
      ['Player first name', 'Ada', []],
      ['Player last name', 'Lovelace', []],
      ['Birth certificate', null, ['ada-birth.pdf']],
    ]);
  });

  it('refuses an entry without its id, or a body that is not an entry', () => {
    const { id: _id, ...noId } = gravityEntry();
    expect(refusalOf(() => gravityAdapter.parse(gravityRequest(noId, TOKEN))).message).toMatch(/no entry id/);
    const request = gravityRequest(gravityEntry(), TOKEN);
    expect(refusalOf(() => gravityAdapter.parse({ ...request, rawBody: Buffer.from('not json') })).message).toMatch(/not JSON/);
    expect(refusalOf(() => gravityAdapter.parse({ ...request, rawBody: Buffer.from('"352"') })).message).toMatch(/All Fields/);
  });
});
