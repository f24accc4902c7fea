import { afterAll, beforeAll, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGE, type TApiError } from '../../src/contract';
import { countSubmissions } from '../../src/server/pipeline/submissions.repository';
import { listUsers } from '../../src/server/users/users.repository';
import { signBody } from '../../src/server/intake/form/form-webhook';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf, type Part } from '../support/multipart';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'unstorable-text webhook secret';
const USER_ID = '7b6f3c1e-9a52-4d8e-8f3a-2c1d5e6f7a8b';

/** A JSON text spelling a lone surrogate the way a client sends it: the six characters \ud800, which JSON.stringify never writes. */
const withLoneSurrogate = (body: object, field: string) => JSON.stringify(body).replace(`"${field}":"`, `"${field}":"\\ud800`);

const formFields = (submissionId: string): Part[] => [
  { name: 'submissionId', value: submissionId },
  { name: 'season', value: '2025' },
  { name: 'division', value: 'AA' },
  { name: 'playerFirstName', value: 'Ada' },
  { name: 'playerLastName', value: 'Lovelace' },
  { name: 'playerBirthDate', value: '2015-12-10' },
  { name: 'guardianName', value: 'Anne Lovelace' },
  { name: 'guardianEmail', value: 'anne@example.org' },
];

const formJson = (submissionId: string) => ({
  submissionId,
  season: '2025',
  division: 'AA',
  playerFirstName: 'Ada',
  playerLastName: 'Lovelace',
  playerBirthDate: '2015-12-10',
  guardianName: 'Anne Lovelace',
  files: [{ url: 'https://files.example.org/birth.pdf', filename: 'birth.pdf', docType: 'birth_certificate' }],
});

/**
 * Text PostgreSQL cannot store, in every kind of input a client controls: the answer is always 400
 * VALIDATION_FAILED naming the field, never a 500 from the database, and nothing is written.
 */
describeEachDatabase('text the database cannot store', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: string | object) =>
    app().inject({
      method,
      url,
      headers: { cookie: server?.cookie ?? '', ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}) },
      payload,
    });
  const postJsonForm = (payload: string) =>
    app().inject({
      method: 'POST',
      url: '/api/intake/form',
      payload,
      headers: { 'content-type': 'application/json', 'x-clearbase-signature': signBody(SECRET, payload) },
    });
  const expectRefused = (response: { statusCode: number; json: () => unknown }, path: string) => {
    expect(response.statusCode, path).toBe(400);
    const body = response.json() as TApiError;
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details).toEqual([{ path, message: UNSTORABLE_TEXT_MESSAGE }]);
    expect(body.message).toContain(path);
  };

  beforeAll(async () => {
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-unstorable',
      startWorkers: false,
      settings: { FORM_WEBHOOK_SECRET: SECRET },
    });
  });
  afterAll(() => server?.close());

  it('refuses a NUL byte in a query string (%00), naming the parameter, on every search', async () => {
    for (const url of [
      '/api/report/missing?search=Sm%00ith',
      '/api/documents?search=birth%00',
      '/api/users?search=%00',
      '/api/notifications/history?search=Smith%00&page=1',
      '/api/report/missing?season=fall-2025&search=ok&division=A%00',
    ]) {
      const response = await call('GET', url);
      const parameter = new URL(url, 'http://x').searchParams;
      const bad = [...parameter.entries()].find(([, value]) => value.includes('\u0000'))?.[0] ?? '';
      expectRefused(response, `querystring.${bad}`);
    }
  });

  it('reads %ED%A0%80 (the UTF-8 bytes of half a character) in a query string as the literal text, never as half a character', async () => {
    // Fastify's query string parser keeps a sequence that does not decode as it was written.
    const response = await call('GET', '/api/documents?search=%ED%A0%80');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ documents: [], total: 0 });
    expect((await call('GET', '/api/users?search=%ED%A0%80')).statusCode).toBe(200);
  });

  it('refuses a NUL byte and a lone surrogate in a JSON body, naming the field, and creates nothing', async () => {
    const before = await listUsers(getDatabase().db);
    const user = { email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role: 'viewer' };
    expectRefused(await call('POST', '/api/users', { ...user, firstName: 'A\u0000da' }), 'body.firstName');
    expectRefused(await call('POST', '/api/users', withLoneSurrogate(user, 'lastName')), 'body.lastName');
    const player = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '2015-12-10', season: '2025', division: 'AA' };
    expectRefused(await call('POST', '/api/players', { ...player, guardianName: 'Anne\u0000' }), 'body.guardianName');
    expectRefused(await call('POST', '/api/players', withLoneSurrogate(player, 'firstName')), 'body.firstName');
    // A field the schema does not know is judged too: nothing with such text gets past the contract.
    expectRefused(await call('PATCH', `/api/users/${USER_ID}`, withLoneSurrogate({ firstName: 'Ada', note: 'x' }, 'note')), 'body.note');
    expect(await listUsers(getDatabase().db)).toEqual(before);
  });

  it('refuses a NUL byte in a route parameter, naming it; half a character there is a bad address', async () => {
    expectRefused(await call('GET', '/api/documents/%00'), 'params.id');
    expectRefused(await call('PATCH', `/api/users/${USER_ID}%00`, { firstName: 'Ada' }), 'params.id');
    // The router refuses a path that does not decode before any route (or schema) is chosen.
    const half = await call('GET', '/api/documents/%ED%A0%80');
    expect(half.statusCode).toBe(400);
  });

  it('refuses a webhook multipart text field or file name with a NUL byte, naming it, and records nothing', async () => {
    const file: Part = { name: 'birth_certificate', filename: 'birth.pdf', content: makePdf('birth'), contentType: 'application/pdf' };
    const fields = formFields('nul-field').map((part) => (part.name === 'guardianName' ? { ...part, value: 'Anne\u0000Lovelace' } : part));
    const badField = await injectSignedForm(app(), [...fields, file], SECRET);
    expect(badField.statusCode).toBe(400);
    expect(badField.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'guardianName', message: UNSTORABLE_TEXT_MESSAGE }] });

    const badName = await injectSignedForm(app(), [...formFields('nul-filename'), { ...file, filename: 'birth\u0000.pdf' }], SECRET);
    expect(badName.statusCode).toBe(400);
    expect(badName.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'birth_certificate.filename', message: UNSTORABLE_TEXT_MESSAGE }] });
    expect(await countSubmissions(getDatabase().db)).toBe(0);
  });

  it('refuses a webhook JSON field or file name with a NUL byte or a lone surrogate, naming it, and records nothing', async () => {
    const cases: Array<[string, string]> = [
      [JSON.stringify({ ...formJson('json-nul'), playerLastName: 'Love\u0000lace' }), 'playerLastName'],
      [withLoneSurrogate(formJson('json-half'), 'guardianName'), 'guardianName'],
      [JSON.stringify({ ...formJson('json-file'), files: [{ url: 'https://files.example.org/b.pdf', filename: 'b\u0000.pdf' }] }), 'files.0.filename'],
    ];
    for (const [payload, path] of cases) {
      const response = await postJsonForm(payload);
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path, message: UNSTORABLE_TEXT_MESSAGE }] });
    }
    expect(await countSubmissions(getDatabase().db)).toBe(0);
  });
});
