import type { QueryKey } from '@tanstack/react-query';

/**
 * Query keys are the URL's path segments (`['api', 'health']` reads GET /api/health), so the
 * default query function can build the URL and invalidation can match on a resource name.
 */
export const SESSION_QUERY_KEY = ['api', 'auth', 'session'] as const;

/** The first path segment after `api`: `['api', 'stats', {…}]` and `['/api/stats']` both give 'stats'. */
export function queryKeyResource(queryKey: QueryKey): string | undefined {
  const parts: string[] = [];
  for (const segment of queryKey) {
    if (typeof segment !== 'string') break;
    parts.push(...segment.split('/').filter(Boolean));
    if (parts.length >= 2) break;
  }
  if (parts[0] === 'api') return parts[1];
  return parts[0];
}

export function isSessionQueryKey(queryKey: QueryKey): boolean {
  return (
    queryKey.length === SESSION_QUERY_KEY.length &&
    SESSION_QUERY_KEY.every((segment, index) => queryKey[index] === segment)
  );
}

/** True when the query reads one of the given resources, e.g. `['uploads', 'stats']`. */
export function queryKeyReadsAny(queryKey: QueryKey, resources: readonly string[]): boolean {
  const resource = queryKeyResource(queryKey);
  return resource !== undefined && resources.includes(resource);
}
