import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { readMultipartFields } from './body-fields';
import { formstack } from './formstack';
import { formstackFormDelivery, formstackJsonDelivery } from './formstack.fixture';
import { jotform } from './jotform';
import { jotformDelivery } from './jotform.fixture';
import { mapAnswers } from './map-answers';
import type { ProviderAdapter, ProviderRequest } from './provider';
import { tally } from './tally';
import { tallyDelivery } from './tally.fixture';
import { typeform } from './typeform';
import { typeformDelivery } from './typeform.fixture';

const SECRET = 'a-provider-secret-for-tests';
const request = (body: Buffer, headers: Record<string, string>, token?: string): ProviderRequest => ({
  rawBody: body,
  contentType: headers['content-type'] ?? '',
  headers,
  token,
});
const fieldsOf = (adapter: ProviderAdapter, req: ProviderRequest) => mapAnswers(adapter.parse(req).answers, {});
const MAE = {
  playerFirstName: 'Mae',
  playerLastName: 'Jemison',
  playerBirthDate: '2015-10-17',
  guardianEmail: 'dorothy.jemison@example.org',
};

describe('Jotform', () => {
  const delivery = jotformDelivery({ submissionId: '6084250982513018472', fileOrigin: 'https://www.jotform.com' });
  const req = request(delivery.body, { 'content-type': delivery.contentType }, SECRET);

  it('is verified by the token of its address alone', () => {
    expect(jotform.verify(req, SECRET)).toBe(true);
    expect(jotform.verify({ ...req, token: `${SECRET}x` }, SECRET)).toBe(false);
    expect(jotform.verify({ ...req, token: undefined }, SECRET)).toBe(false);
  });

  it('reads the submission, its labels from pretty and its upload from temp_upload', () => {
    const parsed = jotform.parse(req);
    expect(parsed.externalId).toBe('6084250982513018472');
    expect(parsed.answers.map((a) => [a.key, a.label, a.value])).toEqual([
      ['q3_playerName', 'Player name', 'Mae Jemison'],
      ['q4_playerDate', 'Player date of birth', '2015-10-17'],
      ['q5_division', 'Division', 'AA'],
      ['q6_parentguardianName', 'Parent/guardian name', 'Dorothy Jemison'],
      ['q7_parentguardianEmail', 'Parent/guardian e-mail', 'dorothy.jemison@example.org'],
      ['q8_parentguardianPhone', 'Parent/guardian phone', '(555) 555-0100'],
      ['q10_anythingElse', 'Anything else', null],
      ['q9_birthCertificate', 'Birth certificate', null],
    ]);
    expect(parsed.answers.at(-1)?.files).toEqual([
      {
        kind: 'url',
        url: 'https://www.jotform.com/uploads/leagueregistrar/251234567890123/6084250982513018472/Birth%20certificate%20%E2%80%93%20Mae.pdf',
        filename: 'Birth certificate – Mae.pdf',
      },
    ]);
    expect(fieldsOf(jotform, req)).toEqual({
      fields: { ...MAE, division: 'AA', guardianName: 'Dorothy Jemison', guardianPhone: '(555) 555-0100' },
      files: [expect.objectContaining({ filename: 'Birth certificate – Mae.pdf', declaredType: 'birth_certificate' })],
    });
  });

  it('finds labels that hold commas and colons, and leaves an answer it cannot place to its unique name', () => {
    const fields = new Map([
      ['submissionID', '1'],
      [
        'rawRequest',
        JSON.stringify({
          q1_yourChild: 'Mae, the younger: 9',
          q2_doYou: ['Yes', 'No, not yet'],
          q3_allergies: 'none',
          q4_shirtSize: 'M',
        }),
      ],
      ['pretty', "Your child's name, as on the card: first, last:Mae, the younger: 9, Do you agree?:Yes No, not yet, Shirt size:M"],
    ]);
    const body = [...fields].map(([name, value]) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + '--b--\r\n';
    const parsed = jotform.parse(request(Buffer.from(body), { 'content-type': 'multipart/form-data; boundary=b' }));
    expect(parsed.answers.map((a) => [a.label, a.value])).toEqual([
      ["Your child's name, as on the card: first, last", 'Mae, the younger: 9'],
      ['Do you agree?', 'Yes, No, not yet'],
      ['Allergies', 'none'],
      ['Shirt size', 'M'],
    ]);
  });

  it('sends the API key to Jotform only', () => {
    expect(jotform.downloadHeaders?.('k3y', new URL('https://www.jotform.com/uploads/a/b/c.pdf'))).toEqual({ APIKEY: 'k3y' });
    expect(jotform.downloadHeaders?.('k3y', new URL('https://eu.jotform.com/uploads/a/b/c.pdf'))).toEqual({ APIKEY: 'k3y' });
    expect(jotform.downloadHeaders?.('k3y', new URL('https://notjotform.com/uploads/c.pdf'))).toEqual({});
    expect(jotform.downloadHeaders?.(undefined, new URL('https://www.jotform.com/uploads/c.pdf'))).toEqual({});
  });

  it('refuses a body that is not a Jotform delivery, in words', () => {
    const bad = request(Buffer.from('submissionID=1'), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(() => jotform.parse(bad)).toThrow(/no submissionID or no rawRequest/);
    const json = request(Buffer.from('{}'), { 'content-type': 'application/json' });
    expect(() => jotform.parse(json)).toThrow(AppError);
  });
});

describe('Typeform', () => {
  const delivery = typeformDelivery({ token: 'a3a12ec67a1365927098a606107fac15', fileOrigin: 'https://api.typeform.com' }, SECRET);
  const req = request(delivery.body, delivery.headers);

  it('is verified by the base64 HMAC of the raw body', () => {
    expect(typeform.verify(req, SECRET)).toBe(true);
    expect(typeform.verify(req, `${SECRET}x`)).toBe(false);
    expect(typeform.verify({ ...req, rawBody: Buffer.concat([delivery.body, Buffer.from(' ')]) }, SECRET)).toBe(false);
    expect(typeform.verify({ ...req, headers: {} }, SECRET)).toBe(false);
  });

  it('reads each answer by its type, titled by the definition, and the hidden fields', () => {
    const parsed = typeform.parse(req);
    expect(parsed.externalId).toBe('a3a12ec67a1365927098a606107fac15');
    expect(parsed.answers.find((a) => a.key === 'hidden:source')).toMatchObject({ label: 'source', value: 'league-site' });
    expect(fieldsOf(typeform, req)).toEqual({
      fields: { ...MAE, division: 'AA', guardianPhone: '+15555550100' },
      files: [expect.objectContaining({ filename: '4f1c2d-birth-certificate.pdf', declaredType: 'birth_certificate' })],
    });
  });

  it('sends the personal token to Typeform only', () => {
    expect(typeform.downloadHeaders?.('tfp_x', new URL('https://api.typeform.com/forms/a/files/b.pdf'))).toEqual({ authorization: 'Bearer tfp_x' });
    expect(typeform.downloadHeaders?.('tfp_x', new URL('https://files.example/b.pdf'))).toEqual({});
  });

  it('takes form responses only', () => {
    const ping = request(Buffer.from(JSON.stringify({ event_type: 'ping' })), { 'content-type': 'application/json' });
    expect(() => typeform.parse(ping)).toThrow(/Only form responses/);
  });
});

describe('Tally', () => {
  const delivery = tallyDelivery({ responseId: '2wgx4n', fileOrigin: 'https://storage.tally.so' }, SECRET);
  const req = request(delivery.body, delivery.headers);

  it('is verified by the base64 HMAC of its JSON, as sent or as Tally re-serialises it', () => {
    expect(tally.verify(req, SECRET)).toBe(true);
    const spaced = Buffer.from(JSON.stringify(JSON.parse(delivery.body.toString()), null, 2));
    expect(tally.verify({ ...req, rawBody: spaced }, SECRET)).toBe(true);
    expect(tally.verify(req, `${SECRET}x`)).toBe(false);
    const altered = Buffer.from(delivery.body.toString().replace('Mary Ann', 'Mary Jane'));
    expect(tally.verify({ ...req, rawBody: altered }, SECRET)).toBe(false);
  });

  it('reads choices by their option text, splits the single name and keeps the upload', () => {
    const parsed = tally.parse(req);
    expect(parsed.externalId).toBe('2wgx4n');
    expect(fieldsOf(tally, req)).toEqual({
      fields: { ...MAE, playerFirstName: 'Mary Ann', division: 'AA', season: 'Fall Ball 2025' },
      files: [expect.objectContaining({ filename: 'birth-certificate.pdf', declaredType: 'birth_certificate' })],
    });
  });
});

describe('Formstack', () => {
  const fixture = { uniqueId: '1029384756', fileOrigin: 'https://www.formstack.com', handshakeKey: SECRET };

  it('is verified by its handshake key, JSON or form-encoded', () => {
    for (const delivery of [formstackJsonDelivery(fixture), formstackFormDelivery(fixture)]) {
      const req = request(delivery.body, delivery.headers);
      expect(formstack.verify(req, SECRET)).toBe(true);
      expect(formstack.verify(req, `${SECRET}x`)).toBe(false);
    }
    const unkeyed = formstackJsonDelivery({ ...fixture, handshakeKey: '' });
    expect(formstack.verify(request(unkeyed.body, unkeyed.headers), SECRET)).toBe(false);
    expect(formstack.verify(request(Buffer.from('{'), { 'content-type': 'application/json' }), SECRET)).toBe(false);
  });

  it('reads fields with types (JSON) and parts written out (form-encoded) alike, and the file by its link', () => {
    for (const delivery of [formstackJsonDelivery(fixture), formstackFormDelivery(fixture)]) {
      const req = request(delivery.body, delivery.headers);
      const parsed = formstack.parse(req);
      expect(parsed.externalId).toBe('1029384756');
      expect(parsed.answers.map((a) => a.key)).not.toContain('HandshakeKey');
      expect(fieldsOf(formstack, req)).toEqual({
        fields: { ...MAE, division: 'A' },
        files: [expect.objectContaining({ url: 'https://www.formstack.com/admin/download/file/183729114', declaredType: 'birth_certificate' })],
      });
    }
  });
});

describe('readMultipartFields', () => {
  it('reads text parts, passes over file parts, and refuses a cut body', () => {
    const body = Buffer.from(
      'preamble\r\n--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nline 1\r\nline 2\r\n' +
        '--xyz\r\nContent-Disposition: form-data; name="f"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n' +
        '--xyz\r\nContent-Disposition: form-data; name="b"\r\n\r\n\r\n--xyz--\r\n',
    );
    expect([...readMultipartFields(body, 'multipart/form-data; boundary="xyz"')]).toEqual([
      ['a', 'line 1\r\nline 2'],
      ['b', ''],
    ]);
    expect(() => readMultipartFields(body.subarray(0, 60), 'multipart/form-data; boundary=xyz')).toThrow(/malformed or incomplete/);
    expect(() => readMultipartFields(body, 'multipart/form-data')).toThrow(/no boundary/);
  });
});
