/**
 * The security headers of every answer (pages, API, files, errors), written once at start. They are helmet 8's
 * defaults with Clearbase's content security policy; @fastify/helmet rebuilt them on every request (its
 * middleware parses the policy's directives each time), which was a tenth of the server's CPU on a dashboard
 * poll at scale. Strict-Transport-Security is left to the TLS-terminating proxy: Clearbase serves plain
 * http on localhost by default.
 */

/** Directive → sources. Inline scripts are never allowed; inline styles are (style-src-attr, style-src-elem). */
const CONTENT_SECURITY_POLICY: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  // Radix positions popovers with inline style attributes, and its scroll lock (dialogs, selects) adds a
  // <style> element at run time: inline styles are allowed, inline scripts never are.
  ['style-src', ["'self'"]],
  ['style-src-attr', ["'unsafe-inline'"]],
  ['style-src-elem', ["'self'", "'unsafe-inline'"]],
  ['img-src', ["'self'", 'data:', 'blob:']],
  // The document viewer shows a decrypted PDF from a blob: URL the page made itself.
  ['frame-src', ["'self'", 'blob:']],
  ['connect-src', ["'self'"]],
  ['font-src', ["'self'", 'data:']],
  ['object-src', ["'none'"]],
  ['frame-ancestors', ["'none'"]],
  ['base-uri', ["'self'"]],
  ['form-action', ["'self'"]],
  ['script-src-attr', ["'none'"]],
];

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY.map(([directive, sources]) => `${directive} ${sources.join(' ')}`).join(';'),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});
