import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { z } from 'zod';

/** What the screenshot scripts share: their arguments, Debian's Chromium as the e2e tests run it, and signing in. */

export type ScreenshotArgs = { url: string; password: string; out: string };

/** `--url` (default http://localhost:5000), `--password` (required), `--out` (default `defaultOut`, created). */
export function parseScreenshotArgs(defaultOut: string): ScreenshotArgs {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:5000' },
      password: { type: 'string' },
      out: { type: 'string', default: defaultOut },
    },
  });
  const args = z.object({ url: z.url(), password: z.string().min(1, '--password is required'), out: z.string() }).parse(values);
  mkdirSync(args.out, { recursive: true });
  return args;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** The two sizes every screen is looked at: 1280 px (file name as is) and a 390 px phone (`-phone`). */
export const SCREEN_SIZES = [
  { suffix: '', options: { viewport: { width: 1280, height: 800 } } },
  { suffix: '-phone', options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
] as const;

/** Through the access gate of the page's current address, until the dashboard shows. */
export async function signIn(page: Page, password: string): Promise<void> {
  await page.getByPlaceholder('Enter system password').fill(password);
  await page.getByRole('button', { name: 'Access System' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}
