import { describe, expect, it } from 'vitest';
import { logSafeUrl, redactQuery } from './log-safe-url';

describe('redactQuery', () => {
  it('keeps a URL without a query string as it is', () => {
    expect(redactQuery('/api/health')).toBe('/api/health');
    expect(redactQuery('/api/documents/3f8b7c1e-0000-4000-8000-000000000000/file')).toBe('/api/documents/3f8b7c1e-0000-4000-8000-000000000000/file');
  });

  it('replaces every query value, keeping the parameter names in order', () => {
    expect(redactQuery('/api/report/missing?search=Smith&page=2&pageSize=50')).toBe('/api/report/missing?search=…&page=…&pageSize=…');
    expect(redactQuery('/api/users?search=anne%40example.org')).toBe('/api/users?search=…');
  });

  it('never keeps a value, however it is written', () => {
    for (const url of ['/x?q=a=b=c', '/x?q=555-0142#frag', '/x?q=%00%ED%A0%80', '/x?a=1&&b=Smith', '/x?q=Smith?again=Smith']) {
      expect(redactQuery(url), url).not.toMatch(/Smith|555|%00|a=b|b=c|=1/);
    }
  });

  it('keeps a name sent without a value, and drops an empty query string', () => {
    expect(redactQuery('/api/documents?flag&search=x')).toBe('/api/documents?flag&search=…');
    expect(redactQuery('/api/documents?')).toBe('/api/documents');
  });
});

describe('logSafeUrl', () => {
  const TOKEN = 'k7Q2-secret-token_9';

  it('replaces the token of a form builder webhook address, in every spelling', () => {
    for (const url of [
      `/api/intake/jotform/${TOKEN}`,
      `/api/intake/jotform/${TOKEN}/`,
      `/api/intake/jotform/${TOKEN}/more`,
      `//api//intake/jotform/${TOKEN}`,
      `/api/./intake/jotform/${TOKEN}`,
      `/API/Intake/jotform/${encodeURIComponent(TOKEN)}`,
      `/api/intake%2Fjotform%2F${TOKEN}`,
      `/api\\intake\\jotform\\${TOKEN}`,
      `http://clearbase.example/api/intake/jotform/${TOKEN}`,
      `/api/intake/jotform;x/${TOKEN};y`,
    ]) {
      expect(logSafeUrl(url), url).toBe('/api/intake/jotform/[redacted]');
    }
    expect(logSafeUrl(`/api/intake/cognito/${TOKEN}?source=${TOKEN}`)).toBe('/api/intake/cognito/[redacted]?source=…');
  });

  it('replaces the token of a family upload link, in every spelling, keeping only a known tail', () => {
    const FAMILY = 'Ab3_-x9ZkQ7mN2pL5sT8vW1yC4eG6iK0oR3uX5zB7dF';
    for (const url of [`/api/family/${FAMILY}`, `/api/family/${FAMILY}/`, `//api//family/${FAMILY}`, `/API/Family/${encodeURIComponent(FAMILY)}`, `http://clearbase.example/api/family/${FAMILY}`]) {
      expect(logSafeUrl(url), url).toBe('/api/family/[redacted]');
    }
    for (const url of [`/api/family/${FAMILY}/uploads`, `/api/family;x/${FAMILY};y/uploads`, `/api/family%2F${FAMILY}%2Fuploads`, `/api\\family\\${FAMILY}\\uploads`]) {
      expect(logSafeUrl(url), url).toBe('/api/family/[redacted]/uploads');
    }
    expect(logSafeUrl(`/api/family/${FAMILY.slice(0, 20)}%2F${FAMILY.slice(20)}`)).toBe('/api/family/[redacted]/…');
    expect(logSafeUrl(`/api/family/${FAMILY}/uploads?x=${FAMILY}`)).toBe('/api/family/[redacted]/uploads?x=…');
    for (const url of [`/api/family/${FAMILY}`, `/api/family/${FAMILY}/uploads`, `/api/family/${FAMILY.slice(0, 20)}%2F${FAMILY.slice(20)}`]) {
      expect(logSafeUrl(url).toLowerCase()).not.toContain(FAMILY.slice(0, 20).toLowerCase());
      expect(logSafeUrl(url).toLowerCase()).not.toContain(FAMILY.slice(20).toLowerCase());
    }
  });

  it('keeps other addresses as redactQuery does', () => {
    for (const url of ['/api/family', '/api/intake/form', '/api/intake/typeform', '/api/intake/jotform', '/api/players?search=Smith', '/api/documents/abc/file']) {
      expect(logSafeUrl(url), url).toBe(redactQuery(url));
    }
  });
});
