import { describe, expect, it } from 'vitest';
import { shortUserAgent, UNKNOWN_DEVICE } from './user-agent';

const AGENTS = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('shortUserAgent', () => {
  it('names the browser and the system in a few words', () => {
    expect(shortUserAgent(AGENTS.chromeWindows)).toBe('Chrome on Windows');
    expect(shortUserAgent(AGENTS.edgeWindows)).toBe('Edge on Windows');
    expect(shortUserAgent(AGENTS.safariIphone)).toBe('Safari on iPhone');
    expect(shortUserAgent(AGENTS.chromeIphone)).toBe('Chrome on iPhone');
    expect(shortUserAgent(AGENTS.safariMac)).toBe('Safari on macOS');
    expect(shortUserAgent(AGENTS.firefoxLinux)).toBe('Firefox on Linux');
    expect(shortUserAgent(AGENTS.samsungAndroid)).toBe('Samsung Internet on Android');
    expect(shortUserAgent(AGENTS.chromeAndroid)).toBe('Chrome on Android');
    expect(shortUserAgent(AGENTS.chromebook)).toBe('Chrome on ChromeOS');
  });

  it('says what it knows when only one of the two is readable', () => {
    expect(shortUserAgent('Mozilla/5.0 (Windows NT 10.0) SomeApp/1.0')).toBe('Windows');
    expect(shortUserAgent('Firefox/133.0')).toBe('Firefox');
  });

  it('shows an unknown agent as sent, cut to 40 characters, and none as Unknown device', () => {
    expect(shortUserAgent('curl/8.5.0')).toBe('curl/8.5.0');
    const long = `agent-${'x'.repeat(60)}`;
    expect(shortUserAgent(long)).toBe(`${long.slice(0, 39)}…`);
    expect(shortUserAgent(long)).toHaveLength(40);
    expect(shortUserAgent(null)).toBe(UNKNOWN_DEVICE);
    expect(shortUserAgent('  ')).toBe(UNKNOWN_DEVICE);
  });
});
