/**
 * The path a request names, in the one spelling that compares safely: for deciding what an unmatched
 * request is (a page of the web app, or a call to the API or the live connection), never for routing.
 * Every trick a router or a proxy might undo is undone here first: an absolute-form target
 * (`GET http://host/api/x`), percent-encoding (also encoded twice), backslashes, `;` parameters, doubled
 * slashes, `.` and `..` segments and letter case.
 */
export function canonicalPath(target: string): string {
  let path = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  path = path.split(/[?#]/, 1)[0] ?? '';
  for (let round = 0; round < 4 && path.includes('%'); round++) {
    try {
      const decoded = decodeURIComponent(path);
      if (decoded === path) break;
      path = decoded;
    } catch {
      break;
    }
  }
  const segments: string[] = [];
  for (const raw of path.replace(/\\/g, '/').split('/')) {
    const segment = raw.split(';', 1)[0] ?? '';
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment.toLowerCase());
  }
  return `/${segments.join('/')}`;
}

/** The API and the live connection: everything that is not a page of the web app. */
export function isApiPath(canonical: string): boolean {
  return ['/api', '/ws'].some((root) => canonical === root || canonical.startsWith(`${root}/`));
}
