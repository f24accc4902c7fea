import { describe, expect, it } from 'vitest';
import { isSessionQueryKey, queryKeyReadsAny, queryKeyResource, SESSION_QUERY_KEY } from './query-keys';

describe('queryKeyResource', () => {
  it('names the segment after api', () => {
    expect(queryKeyResource(['api', 'stats', { season: 2025 }])).toBe('stats');
  });

  it('understands a key written as one path', () => {
    expect(queryKeyResource(['/api/uploads/recent', { limit: 5 }])).toBe('uploads');
  });

  it('takes the first segment of keys without the api prefix', () => {
    expect(queryKeyResource(['documents', 3])).toBe('documents');
  });
});

describe('queryKeyReadsAny', () => {
  it('matches keys of the listed resources only', () => {
    const resources = ['uploads', 'stats', 'report', 'documents'];
    expect(queryKeyReadsAny(['api', 'report', 'missing'], resources)).toBe(true);
    expect(queryKeyReadsAny(['api', 'health'], resources)).toBe(false);
    expect(queryKeyReadsAny(SESSION_QUERY_KEY, resources)).toBe(false);
  });
});

describe('isSessionQueryKey', () => {
  it('recognises the session key and nothing longer or shorter', () => {
    expect(isSessionQueryKey(['api', 'auth', 'session'])).toBe(true);
    expect(isSessionQueryKey(['api', 'auth'])).toBe(false);
    expect(isSessionQueryKey(['api', 'auth', 'session', 'x'])).toBe(false);
  });
});
