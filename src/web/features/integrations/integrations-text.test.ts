import { describe, expect, it } from 'vitest';
import {
  BY_LABEL,
  deliveryError,
  generateSecret,
  integrationState,
  mappingChoices,
  mappingFromChoices,
  mappingProblems,
  secretProblem,
  secretSummary,
  showsDownloadKey,
  webhookAddress,
} from './integrations-text';

describe('generateSecret', () => {
  it('makes 32 letters and digits by default, different each time', () => {
    const one = generateSecret();
    expect(one).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(generateSecret()).not.toBe(one);
    expect(secretProblem(one)).toBeNull();
  });

  it('draws again the bytes that would favour the first characters of the alphabet', () => {
    // 248 and above would fold onto the first 8 characters (256 % 62); only 0 → 'A' and 61 → '9' are kept.
    const draws = [
      [255, 248, 0, 61],
      [250, 1, 200, 7],
    ];
    let call = 0;
    const secret = generateSecret(5, (bytes) => {
      bytes.fill(255);
      bytes.set(draws[call++] ?? []);
    });
    expect(secret).toBe('A9BOH');
  });
});

describe('secretProblem', () => {
  it('asks for 16 to 200 characters, ignoring spaces around', () => {
    expect(secretProblem('  ')).toBe('Enter the secret, or generate one.');
    expect(secretProblem(' 123456789012345 ')).toBe('The secret must be at least 16 characters');
    expect(secretProblem('1234567890123456')).toBeNull();
    expect(secretProblem('x'.repeat(201))).toBe('The secret must be at most 200 characters');
  });
});

describe('integrationState and secretSummary', () => {
  it('says Not set up without a secret in force, Ready before the first delivery, Receiving after', () => {
    expect(integrationState({ secretSource: 'none', lastDeliveryAt: '2025-04-01T10:00:00.000Z' }).label).toBe('Not set up');
    expect(integrationState({ secretSource: 'default', lastDeliveryAt: null }).label).toBe('Ready');
    expect(integrationState({ secretSource: 'own', lastDeliveryAt: '2025-04-01T10:00:00.000Z' }).label).toBe('Receiving');
  });

  it('names the secret in force by its hint only', () => {
    expect(secretSummary({ secretSource: 'own', secretHint: '••••a1b2' })).toBe('Own secret ••••a1b2');
    expect(secretSummary({ secretSource: 'default', secretHint: null })).toBe('Uses the default secret (FORM_WEBHOOK_SECRET)');
    expect(secretSummary({ secretSource: 'none', secretHint: null })).toMatch(/^No secret: every delivery is refused/);
  });
});

it('shows the download key for Jotform and Typeform, and for any provider that has one set', () => {
  expect(showsDownloadKey({ provider: 'jotform', downloadKeySet: false })).toBe(true);
  expect(showsDownloadKey({ provider: 'typeform', downloadKeySet: false })).toBe(true);
  expect(showsDownloadKey({ provider: 'tally', downloadKeySet: false })).toBe(false);
  expect(showsDownloadKey({ provider: 'tally', downloadKeySet: true })).toBe(true);
});

it('builds the webhook address from the origin and the path', () => {
  expect(webhookAddress('https://league.example/', '/api/intake/jotform/{token}')).toBe('https://league.example/api/intake/jotform/{token}');
});

describe('the mapping form', () => {
  it('round-trips a mapping, fields left out found by label', () => {
    const choices = mappingChoices({ playerFirstName: 'q1', waiver: 'q9' });
    expect(choices.playerLastName).toBe(BY_LABEL);
    expect(mappingFromChoices(choices)).toEqual({ playerFirstName: 'q1', waiver: 'q9' });
  });

  it('marks a question chosen for a second field answered in words, not for file uploads', () => {
    const choices = mappingChoices({ playerFirstName: 'q1', guardianName: 'q1', medical: 'q5', waiver: 'q5' });
    expect(mappingProblems(choices)).toEqual({ guardianName: 'The same question is chosen for “Player first name”: choose a different one.' });
  });
});

it('words a refused or failed delivery that kept no error of its own', () => {
  expect(deliveryError({ outcome: 'refused', status: 401, error: null })).toBe('Refused (HTTP 401)');
  expect(deliveryError({ outcome: 'failed', status: 500, error: 'Storage was unavailable.' })).toBe('Storage was unavailable.');
  expect(deliveryError({ outcome: 'stored', status: 202, error: null })).toBeNull();
});
