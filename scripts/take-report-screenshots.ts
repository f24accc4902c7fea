import type { Page } from 'playwright-core';
import { launchChromium, parseScreenshotArgs, signIn } from './screenshot-support';

/**
 * Screenshots of the Reports screen for review and the README: each tab at 1280 px in light and dark, the
 * screen at 390 px, and the Export Report menu open at both sizes. Run against a running server with the demo data:
 *   npx tsx scripts/take-report-screenshots.ts --url http://localhost:5000 --password '…' [--out docs/screenshots]
 */
const args = parseScreenshotArgs('docs/screenshots');

const browser = await launchChromium();

const TABS = [
  { name: 'Overview', file: 'overview' },
  { name: 'Historical Trends', file: 'trends' },
  { name: 'Growth Projections', file: 'projections' },
  { name: 'Detailed Analysis', file: 'details' },
] as const;

for (const theme of ['light', 'dark'] as const) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: theme });
  const page = await context.newPage();
  await openReports(page);
  for (const tab of TABS) {
    await page.getByRole('tab', { name: tab.name }).click();
    await page.getByRole('tabpanel').waitFor();
    await settle(page);
    await page.screenshot({ path: `${args.out}/reports-${tab.file}${theme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
  }
  await context.close();
}

const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
const phonePage = await phone.newPage();
await openReports(phonePage);
await settle(phonePage);
await phonePage.screenshot({ path: `${args.out}/reports-phone.png`, fullPage: true });
await openExportMenu(phonePage);
await phonePage.screenshot({ path: `${args.out}/report-export-phone.png` });
await phone.close();

const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const desktopPage = await desktop.newPage();
await openReports(desktopPage);
await settle(desktopPage);
await openExportMenu(desktopPage);
await desktopPage.screenshot({ path: `${args.out}/report-export-desktop.png` });
await desktop.close();

await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);

/** Takes focus off the clicked tab (a click on the heading, where there is nothing to activate) and lets the page settle. */
async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Reports' }).click();
  await page.mouse.move(0, 0);
  await page.waitForTimeout(500);
}

async function openExportMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Export Report' }).click();
  await page.getByTestId('export-report-menu').waitFor();
  await page.waitForTimeout(300);
}

async function openReports(page: Page): Promise<void> {
  await page.goto(args.url);
  await signIn(page, args.password);
  await page.goto(`${args.url}/reports`);
  await page.locator('[data-testid="season-report"][aria-busy="false"][data-season]').waitFor();
  await page.getByTestId('chart').first().locator('svg').first().waitFor();
}
