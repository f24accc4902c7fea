import type { Page } from 'playwright-core';
import { launchChromium, parseScreenshotArgs, signIn, SCREEN_SIZES } from './screenshot-support';

/**
 * Screenshots of the Notifications screen, each tab at 1280 px and at 390 px, for review and the README. Run
 * against a running server with the demo data:
 *   npx tsx scripts/take-notification-screenshots.ts --url http://localhost:5000 --password '…' [--out docs/screenshots]
 */
const args = parseScreenshotArgs('docs/screenshots');

const browser = await launchChromium();

const TABS = [
  { name: 'Send', file: 'send', ready: (page: Page) => page.getByTestId('quick-weekly-figures') },
  { name: 'Templates', file: 'templates', ready: (page: Page) => page.getByTestId('template-row').first() },
  { name: 'History', file: 'history', ready: (page: Page) => page.getByTestId('history-row').first() },
  { name: 'Settings', file: 'settings', ready: (page: Page) => page.getByTestId('save-settings') },
] as const;

for (const size of SCREEN_SIZES) {
  const context = await browser.newContext({ ...size.options, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(args.url);
  await signIn(page, args.password);
  await page.goto(`${args.url}/notifications`);
  for (const tab of TABS) {
    await page.getByRole('tab', { name: tab.name }).click();
    await tab.ready(page).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${args.out}/notifications-${tab.file}${size.suffix}.png`, fullPage: true });
  }
  if (size.suffix === '') {
    await page.getByRole('tab', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'Edit Missing Documents Reminder' }).click();
    await page.getByTestId('template-dialog').waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${args.out}/notifications-template-edit.png` });
  }
  await context.close();
}
await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);

