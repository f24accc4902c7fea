import { launchChromium, parseScreenshotArgs, signIn } from './screenshot-support';

/**
 * Screenshots of the access gate and the shell at desktop (1280 px) and phone (390 px) widths, light and
 * dark, for review and for the README. Run against a running server:
 *   npx tsx scripts/take-screenshots.ts --url http://localhost:5000 --password '…' [--out screenshots]
 */
const args = parseScreenshotArgs('screenshots');

const browser = await launchChromium();

const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
for (const [sizeName, viewport] of Object.entries(sizes)) {
  for (const theme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: sizeName === 'phone' ? 2 : 1, colorScheme: theme });
    const page = await context.newPage();
    const shot = (name: string) => page.screenshot({ path: `${args.out}/${name}-${sizeName}-${theme}.png`, fullPage: true });
    await page.goto(args.url);
    await page.getByRole('heading', { name: 'Access System' }).waitFor();
    await shot('access-gate');
    await signIn(page, args.password);
    await page.getByTestId('system-status').getByText('Database').waitFor();
    await page.getByTestId('live-indicator').and(page.locator('[data-state="connected"]')).waitFor();
    await shot('dashboard');
    if (sizeName === 'phone') {
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.waitForTimeout(400);
      await shot('navigation-open');
    } else {
      await page.goto(`${args.url}/no-such-screen`);
      await page.getByText('404 Page Not Found').waitFor();
      await shot('not-found');
    }
    await context.close();
  }
}
await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);

