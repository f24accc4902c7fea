import { describe, expect, it } from 'vitest';
import {
  DEAD_LINK_WORDS,
  deadLinkBody,
  FAILED_MESSAGE,
  nextSteps,
  INTERRUPTED_UPLOAD_MESSAGE,
  pageFailure,
  REFUSED_FALLBACK_MESSAGE,
  retryAfterSeconds,
  serverMessage,
  UNREACHABLE_PAGE_MESSAGE,
  uploadFailure,
  waitInWords,
} from './upload-outcome';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const body = (message: string) => JSON.stringify({ code: 'VALIDATION_FAILED', message, requestId: 'r1' });

describe('uploadFailure', () => {
  it('turns 404 and 410 into a dead link', () => {
    expect(uploadFailure(404, body('Not found.'), null, NOW)).toEqual({ kind: 'dead-link', reason: 'not_valid', message: null });
    expect(uploadFailure(410, body('This link has expired.'), null, NOW)).toEqual({ kind: 'dead-link', reason: 'expired', message: 'This link has expired.' });
  });

  it('calls a dropped connection or an unreachable server an interruption, the photos kept', () => {
    for (const status of [0, 502, 503, 504]) {
      expect(uploadFailure(status, '', null, NOW)).toEqual({ kind: 'interrupted', message: INTERRUPTED_UPLOAD_MESSAGE });
    }
    expect(INTERRUPTED_UPLOAD_MESSAGE).toBe('The upload was interrupted. Your photos are still here.');
  });

  it('shows the server’s sentence for a refused file', () => {
    expect(uploadFailure(413, body('This file is larger than 20 MB.'), null, NOW)).toEqual({ kind: 'refused', message: 'This file is larger than 20 MB.' });
    expect(uploadFailure(400, body('  This photo could not be read.  '), null, NOW)).toEqual({ kind: 'refused', message: 'This photo could not be read.' });
  });

  it('has a sentence of its own when the refusal has none', () => {
    expect(uploadFailure(413, '', null, NOW)).toEqual({ kind: 'refused', message: REFUSED_FALLBACK_MESSAGE });
    expect(uploadFailure(400, '<html>Bad Request</html>', null, NOW)).toEqual({ kind: 'refused', message: REFUSED_FALLBACK_MESSAGE });
  });

  it('says when to try again after too many uploads', () => {
    const failure = uploadFailure(429, body('Too many uploads.'), '720', NOW);
    expect(failure.kind).toBe('rate-limited');
    expect('message' in failure && failure.message).toMatch(/try again in about 12 minutes/);
  });

  it('asks to try again for anything else', () => {
    expect(uploadFailure(500, body('Internal.'), null, NOW)).toEqual({ kind: 'failed', message: FAILED_MESSAGE });
  });
});

describe('pageFailure', () => {
  it('tells a dead link from an unreachable server', () => {
    expect(pageFailure(404, body('Unknown.'))).toEqual({ kind: 'dead-link', reason: 'not_valid', message: null });
    expect(pageFailure(410, body('No longer active.'))).toEqual({ kind: 'dead-link', reason: 'expired', message: 'No longer active.' });
    expect(pageFailure(410)).toEqual({ kind: 'dead-link', reason: 'expired', message: null });
    expect(pageFailure(0)).toEqual({ kind: 'interrupted', message: UNREACHABLE_PAGE_MESSAGE });
    expect(pageFailure(500)).toEqual({ kind: 'failed', message: FAILED_MESSAGE });
  });
});

describe('retryAfterSeconds and waitInWords', () => {
  it('reads seconds or an HTTP date', () => {
    expect(retryAfterSeconds('90', NOW)).toBe(90);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 10:30:00 GMT', NOW)).toBe(1800);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 09:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterSeconds(null, NOW)).toBeNull();
    expect(retryAfterSeconds('soon', NOW)).toBeNull();
  });

  it('says the wait in round words', () => {
    expect(waitInWords(null)).toBe('later');
    expect(waitInWords(30)).toBe('in a minute');
    expect(waitInWords(61)).toBe('in about 2 minutes');
    expect(waitInWords(3000)).toBe('in about 50 minutes');
    expect(waitInWords(3600)).toBe('in about an hour');
    expect(waitInWords(3 * 3600)).toBe('in about 3 hours');
  });
});

describe('serverMessage', () => {
  it('reads the app’s error body only', () => {
    expect(serverMessage(body('Hello.'))).toBe('Hello.');
    expect(serverMessage('{"message":"no code"}')).toBeNull();
    expect(serverMessage('not json')).toBeNull();
    expect(serverMessage('')).toBeNull();
  });
});

describe('deadLinkBody', () => {
  it('says what the server said of a link that stopped working, and the page’s own words otherwise', () => {
    expect(deadLinkBody('expired', 'This upload link is no longer active. Ask the league for a new one.')).toMatch(/no longer active/);
    expect(deadLinkBody('expired', null)).toBe(DEAD_LINK_WORDS.expired.body);
    expect(deadLinkBody('not_valid', 'anything')).toBe('Ask the league for a new link.');
    expect(DEAD_LINK_WORDS.not_valid.title).toBe('This link is not valid');
  });
});

describe('nextSteps', () => {
  it('drops a leading Received the page already shows', () => {
    expect(nextSteps('Received. A volunteer will check it.')).toBe('A volunteer will check it.');
    expect(nextSteps('This exact file was received before.')).toBe('This exact file was received before.');
    expect(nextSteps('Received.')).toBe('A volunteer will check it.');
  });
});
