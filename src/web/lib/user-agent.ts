/** What the sessions lists show for a session whose browser sent no user agent. */
export const UNKNOWN_DEVICE = 'Unknown device';

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const MAX_RAW_LENGTH = 40;

const firstMatch = (userAgent: string, table: readonly (readonly [RegExp, string])[]): string | undefined =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1];

/**
 * A session's device in a few words, from its browser's user agent: 'Chrome on Windows', 'Safari on iPhone'.
 * An agent it cannot read is shown as sent, cut to 40 characters; none at all is 'Unknown device'.
 */
export function shortUserAgent(userAgent: string | null | undefined): string {
  const text = userAgent?.trim() ?? '';
  if (text === '') return UNKNOWN_DEVICE;
  const browser = firstMatch(text, BROWSERS);
  const system = firstMatch(text, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return browser ?? system ?? UNKNOWN_DEVICE;
  return text.length > MAX_RAW_LENGTH ? `${text.slice(0, MAX_RAW_LENGTH - 1)}…` : text;
}
