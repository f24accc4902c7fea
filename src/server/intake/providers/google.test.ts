import { describe, expect, it } from 'vitest';
import { MAPPED_FIELD_LABELS } from '../../../contract';
import { AppError } from '../../platform/errors';
import { signBody } from '../form/form-webhook';
import { googleAdapter } from './google';
import { googleDelivery, googleRequest } from './google.fixture';

const SECRET = 'google-forms-secret-for-tests';
/** Labels as the mapper compares them: without case, spaces or punctuation. */
const loose = (label: string) => label.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0x00, 0xff, 0x80, 0x7f]), Buffer.from('\n%%EOF\n')]);
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Google Forms adapter: verify', () => {
  const delivery = googleDelivery();

  it('accepts the body signed with the secret', () => {
    expect(googleAdapter.verify(googleRequest(delivery, SECRET), SECRET)).toBe(true);
  });

  it('refuses a body signed with another secret, an altered body, and a missing or malformed signature', () => {
    expect(googleAdapter.verify(googleRequest(delivery, 'another-secret-of-some-length'), SECRET)).toBe(false);
    const altered = googleRequest(delivery, SECRET);
    expect(googleAdapter.verify({ ...altered, rawBody: Buffer.from(altered.rawBody.toString().replace('Ada', 'Eve')) }, SECRET)).toBe(false);
    expect(googleAdapter.verify({ ...altered, headers: {} }, SECRET)).toBe(false);
    expect(googleAdapter.verify(googleRequest(delivery, SECRET, 'sha256=abc'), SECRET)).toBe(false);
    expect(googleAdapter.verify(googleRequest(delivery, SECRET, signBody(SECRET, 'x').replace('sha256=', '')), SECRET)).toBe(false);
  });

  it('never accepts with an empty secret', () => {
    expect(googleAdapter.verify(googleRequest(delivery, ''), '')).toBe(false);
  });
});

describe('Google Forms adapter: parse', () => {
  it('reads each item as a question with its id, title and answer, and the files inline', () => {
    const delivery = googleDelivery({
      responseId: '2_ABaOnud1x9Vb3kQ',
      birthCertificate: [{ filename: 'ada-birth.pdf', mimeType: 'application/pdf', content: pdf }],
      residency: [
        { filename: 'bill.png', mimeType: 'image/png', content: png },
        { filename: 'lease.pdf', mimeType: 'application/pdf', content: pdf },
      ],
    });
    const parsed = googleAdapter.parse(googleRequest(delivery, SECRET));

    expect(parsed.externalId).toBe('2_ABaOnud1x9Vb3kQ');
    const byLabel = new Map(parsed.answers.map((answer) => [answer.label, answer]));
    expect(byLabel.get('Player first name')).toEqual({ key: '1093417281', label: 'Player first name', value: 'Ada', files: [] });
    expect(byLabel.get('Player date of birth')?.value).toBe('2015-12-10');
    expect(byLabel.get('Positions played')?.value).toBe('Forward, Goalie');

    const birth = byLabel.get('Birth certificate');
    expect(birth?.value).toBeNull();
    expect(birth?.files).toEqual([{ kind: 'inline', content: pdf, filename: 'ada-birth.pdf' }]);
    expect(byLabel.get('Proof of residency')?.files.map((file) => (file.kind === 'inline' ? [file.filename, file.content.equals(file.filename.endsWith('.png') ? png : pdf)] : []))).toEqual([
      ['bill.png', true],
      ['lease.pdf', true],
    ]);
  });

  it('gives questions titled as the form fields the labels those fields are found by', () => {
    const labels = googleAdapter.parse(googleRequest(googleDelivery(), SECRET)).answers.map((answer) => loose(answer.label));
    for (const field of ['playerFirstName', 'playerLastName', 'playerBirthDate', 'division', 'season', 'guardianEmail', 'birth_certificate', 'residency'] as const) {
      expect(labels).toContain(loose(MAPPED_FIELD_LABELS[field]));
    }
  });

  it('takes an item id sent as a number, and an empty answer as no answer', () => {
    const parsed = googleAdapter.parse(googleRequest({ ...googleDelivery(), answers: [{ key: 77, label: 'Season', value: '  ' }] }, SECRET));
    expect(parsed.answers).toEqual([{ key: '77', label: 'Season', value: null, files: [] }]);
  });

  it('refuses a body that is not the script\'s, naming what is wrong', () => {
    const request = googleRequest(googleDelivery(), SECRET);
    expect(refusalOf(() => googleAdapter.parse({ ...request, rawBody: Buffer.from('responseId=1') })).message).toMatch(/not JSON/);

    const { responseId: _dropped, ...withoutId } = googleDelivery();
    const missing = refusalOf(() => googleAdapter.parse({ ...request, rawBody: Buffer.from(JSON.stringify(withoutId)) }));
    expect(missing.code).toBe('VALIDATION_FAILED');
    expect(missing.details?.map((detail) => detail.path)).toContain('responseId');

    const badFile = googleDelivery({ birthCertificate: [{ filename: 'a.pdf', mimeType: 'application/pdf', content: pdf }] });
    const answer = badFile.answers.find((a) => a.label === 'Birth certificate');
    if (answer?.files?.[0]) answer.files[0].contentBase64 = 'not base64!';
    expect(refusalOf(() => googleAdapter.parse(googleRequest(badFile, SECRET))).message).toMatch(/base64/);

    const twice = googleDelivery();
    twice.answers.push({ ...twice.answers[0]!, label: 'Again' });
    expect(refusalOf(() => googleAdapter.parse(googleRequest(twice, SECRET))).message).toMatch(/twice/);
  });
});
