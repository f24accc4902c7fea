import { launchChromium, parseScreenshotArgs, signIn, SCREEN_SIZES } from './screenshot-support';

/**
 * Screenshots of what the requirement rules add: the season's Requirements dialog (Settings → Seasons) and the
 * Players screen with its League age column, at 1280 and 390 px. Run against a running server with the demo data:
 *   npx tsx scripts/take-requirement-screenshots.ts --url http://localhost:5000 --password '…' [--out docs/screenshots]
 */
const args = parseScreenshotArgs('docs/screenshots');

const browser = await launchChromium();

for (const size of SCREEN_SIZES) {
  const context = await browser.newContext({ ...size.options, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(args.url);
  await signIn(page, args.password);

  await page.goto(`${args.url}/settings`);
  await page.getByRole('tab', { name: 'Seasons' }).click();
  await page.getByRole('button', { name: /^Requirements/ }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('League age is counted on').first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${args.out}/season-requirements${size.suffix}.png` });
  await page.keyboard.press('Escape');

  await page.goto(`${args.url}/players`);
  await page.getByText(/League age/i).first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${args.out}/players-league-age${size.suffix}.png` });

  await context.close();
}
await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);
