import { canonicalPath } from './request-path';

/**
 * A request URL fit for the log: the path as it is, each query value replaced by `…`, so a search for a
 * player's or a guardian's name, an e-mail address or a phone number never reaches the log, while the
 * parameter names (what was asked for) stay. A path holds only ids and fixed words in this API.
 * `/api/players?search=Smith&page=2` → `/api/players?search=…&page=…`.
 */
export function redactQuery(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const path = url.slice(0, start);
  const query = url.slice(start + 1);
  if (query === '') return path;
  const names = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    return equals === -1 ? pair : `${pair.slice(0, equals)}=…`;
  });
  return `${path}?${names.join('&')}`;
}

/**
 * A request URL fit for the log: its query values hidden (redactQuery), and the secret a path carries replaced,
 * in whatever spelling the address was sent: the token of a form builder's webhook address
 * (`/api/intake/<provider>/<token>`, the secret of a provider that cannot sign) → `/api/intake/jotform/[redacted]`,
 * and a family's upload link token (`/api/family/<token>/…`, the link's only credential) →
 * `/api/family/[redacted]/uploads`.
 */
export function logSafeUrl(url: string): string {
  const safe = redactQuery(url);
  const segments = canonicalPath(url).split('/').slice(1);
  const query = safe.indexOf('?');
  const search = query === -1 ? '' : safe.slice(query);
  if (segments.length >= 3 && segments[0] === 'api' && segments[1] === 'family' && segments[2] !== '') {
    // Only a known tail is kept: anything else after the token may be part of it (an encoded slash).
    const rest = segments.slice(3).join('/');
    return `/api/family/[redacted]${rest === '' ? '' : rest === 'uploads' ? '/uploads' : '/…'}${search}`;
  }
  if (segments.length < 4 || segments[0] !== 'api' || segments[1] !== 'intake') return safe;
  return `/api/intake/${segments[2]}/[redacted]${search}`;
}
