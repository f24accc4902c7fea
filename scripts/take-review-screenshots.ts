import { launchChromium, parseScreenshotArgs, signIn, SCREEN_SIZES } from './screenshot-support';

/**
 * Screenshots of the Review screen (the pending documents one at a time, beside their registration), its list of
 * keys, a photo turned and zoomed, and Settings → System's reading switch, at 1280 and 390 px,
 * light and dark. Run against a running server with the demo data:
 *   npx tsx scripts/take-review-screenshots.ts --url http://localhost:5000 --password '…' [--out /tmp/review-shots]
 */
const args = parseScreenshotArgs('/tmp/review-shots');

const browser = await launchChromium();

for (const size of SCREEN_SIZES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    const name = (screen: string) => `${args.out}/${screen}${size.suffix}${colorScheme === 'dark' ? '-dark' : ''}.png`;
    const context = await browser.newContext({ ...size.options, colorScheme });
    const page = await context.newPage();
    await page.goto(args.url);
    await signIn(page, args.password);

    await page.goto(`${args.url}/review`);
    await page.getByTestId('review-counter').or(page.getByText('Nothing waiting for review.')).first().waitFor();
    await page.getByTestId('review-reading').or(page.getByText('Nothing waiting for review.')).first().waitFor();
    await page.waitForTimeout(800);
    await page.screenshot({ path: name('review') });
    if (colorScheme === 'light') await page.screenshot({ path: name('review-full'), fullPage: true });

    if (colorScheme === 'light' && (await page.getByTestId('review-counter').count()) > 0) {
      await page.keyboard.press('Shift+?');
      await page.getByTestId('review-keys').waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: name('review-keys') });
      await page.keyboard.press('Escape');
      await page.getByTestId('review-keys').waitFor({ state: 'hidden' });

      // The next document (a photo in the demo data), turned a quarter, then at 100%.
      await page.keyboard.press('j');
      await page.getByTestId('review-file').and(page.locator('[data-state="ready"]')).waitFor();
      await page.keyboard.press('t');
      await page.waitForTimeout(500);
      await page.screenshot({ path: name('review-turned') });
      await page.keyboard.press('z');
      await page.waitForTimeout(500);
      await page.screenshot({ path: name('review-zoomed') });
    }

    await page.goto(`${args.url}/settings`);
    await page.getByTestId('document-reading-settings').waitFor();
    await page.getByTestId('document-reading-settings').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: name('settings-reading') });

    await context.close();
  }
}
await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);
