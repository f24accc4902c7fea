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
