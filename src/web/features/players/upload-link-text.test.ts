import { describe, expect, it } from 'vitest';
import { isFamilyLink, sendLinkUnavailable, sendResultSentence, uploadLinkStatusLine, worksUntil } from './upload-link-text';

const day = (iso: string) => `day(${iso.slice(0, 10)})`;

describe('Upload link words', () => {
  it('counts the working links and says when the family last opened one', () => {
    expect(uploadLinkStatusLine({ active: 0, lastIssuedAt: null, lastUsedAt: null }, day)).toBe('No upload link yet');
    expect(uploadLinkStatusLine({ active: 2, lastIssuedAt: '2026-12-01T10:00:00Z', lastUsedAt: '2026-12-03T08:00:00Z' }, day)).toBe(
      '2 working links · last opened day(2026-12-03)',
    );
    expect(uploadLinkStatusLine({ active: 1, lastIssuedAt: '2026-12-01T10:00:00Z', lastUsedAt: null }, day)).toBe('1 working link · not opened yet');
    expect(uploadLinkStatusLine({ active: 0, lastIssuedAt: '2026-12-01T10:00:00Z', lastUsedAt: null }, day)).toBe('No working link');
    expect(uploadLinkStatusLine({ active: 0, lastIssuedAt: '2026-12-01T10:00:00Z', lastUsedAt: '2026-12-02T10:00:00Z' }, day)).toBe(
      'No working link · last opened day(2026-12-02)',
    );
  });

  it('says until when a link works', () => {
    expect(worksUntil('2026-12-26T10:00:00Z', day)).toBe('Works until day(2026-12-26)');
  });

  it('words the answer of Send link', () => {
    expect(sendResultSentence({ to: 'ana@example.org', status: 'sent', expiresAt: '2026-12-26T10:00:00Z', error: null })).toEqual({
      ok: true,
      text: 'Sent to ana@example.org',
    });
    expect(sendResultSentence({ to: 'ana@example.org', status: 'failed', expiresAt: '2026-12-26T10:00:00Z', error: 'The mail server refused it.' })).toEqual({
      ok: false,
      text: 'The mail server refused it.',
    });
    expect(sendResultSentence({ to: 'ana@example.org', status: 'failed', expiresAt: '2026-12-26T10:00:00Z', error: null }).text).toContain('ana@example.org');
  });

  it('says why a link cannot be e-mailed', () => {
    expect(sendLinkUnavailable(null)).toMatch(/^No guardian e-mail/);
    expect(sendLinkUnavailable('ana@example.org')).toBeNull();
  });

  it('recognises a family link with its token in the fragment', () => {
    const token = 'a'.repeat(43);
    expect(isFamilyLink(`https://league.example/family#token=${token}`)).toBe(true);
    expect(isFamilyLink(`https://league.example/family#token=${token}x`)).toBe(false);
    expect(isFamilyLink(`https://league.example/family?token=${token}`)).toBe(false);
    expect(isFamilyLink('not a url')).toBe(false);
  });
});
