import { launchChromium, parseScreenshotArgs, signIn, SCREEN_SIZES } from './screenshot-support';

/**
 * Screenshots of a family's upload link on the staff side: the player dialog's Upload link section with a link
 * just copied (1280 px and 390 px) and the Settings card of how long links work. Run against a running server
 * with the demo data (it issues, then stops, one link of the first player listed):
 *   npx tsx scripts/take-upload-link-screenshots.ts --url http://localhost:5000 --password '…' [--out docs/screenshots]
 */
const args = parseScreenshotArgs('docs/screenshots');

const browser = await launchChromium();

for (const size of SCREEN_SIZES) {
  const context = await browser.newContext({ ...size.options, colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(args.url).origin });
  const page = await context.newPage();
  await page.goto(args.url);
  await signIn(page, args.password);
  await page.goto(`${args.url}/players`);
  await page.locator('[data-testid="player-row"], [data-testid="player-card"]').first().getByTestId('player-name').click();
  const section = page.getByTestId('upload-link-section');
  await section.getByRole('button', { name: 'Copy upload link' }).click();
  await section.getByTestId('upload-link-url').waitFor();
  await page.getByTestId('upload-link-status').filter({ hasText: 'working link' }).waitFor();
  // The section at the top of the dialog (the scripts are typed without the DOM, hence the function as text).
  await page.getByRole('heading', { name: 'Upload link', exact: true }).evaluate("(element) => element.scrollIntoView({ block: 'start' })");
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${args.out}/player-upload-link${size.suffix}.png` });

  // Leave the demo data as it was: the link just made stops.
  await section.getByRole('button', { name: 'Stop links' }).click();
  await page.getByTestId('stop-links-dialog').getByRole('button', { name: 'Stop links' }).click();
  await page.getByTestId('upload-link-status').filter({ hasText: 'No working link' }).waitFor();

  await page.goto(`${args.url}/settings?tab=notifications`);
  const card = page.getByTestId('upload-link-settings');
  await card.getByRole('spinbutton').and(page.locator(':not([disabled])')).waitFor();
  await card.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await card.screenshot({ path: `${args.out}/settings-upload-links${size.suffix}.png` });
  await context.close();
}
await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);
