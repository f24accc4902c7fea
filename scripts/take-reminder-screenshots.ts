import { launchChromium, parseScreenshotArgs, signIn, SCREEN_SIZES } from './screenshot-support';

/**
 * Screenshots of the Notifications screen's Automatic reminders card (Send tab), at 1280 px (the whole tab) and
 * at 390 px (the card as a phone shows it). Run against a running server with the demo data:
 *   npx tsx scripts/take-reminder-screenshots.ts --url http://localhost:5000 --password '…' [--out docs/screenshots]
 */
const args = parseScreenshotArgs('docs/screenshots');

const browser = await launchChromium();

for (const size of SCREEN_SIZES) {
  const context = await browser.newContext({ ...size.options, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(args.url);
  await signIn(page, args.password);
  await page.goto(`${args.url}/notifications`);
  const card = page.getByTestId('reminders-card');
  await page.getByTestId('reminders-next').waitFor();
  await page.getByTestId('quick-weekly-figures').waitFor();
  await page.waitForTimeout(300);
  if (size.suffix === '') {
    await page.screenshot({ path: `${args.out}/notifications-reminders${size.suffix}.png`, fullPage: true });
  } else {
    // On a phone the card sits below the form and the quick actions: the card itself, the full width it gets.
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await card.screenshot({ path: `${args.out}/notifications-reminders${size.suffix}.png` });
  }
  await context.close();
}
await browser.close();
process.stdout.write(`Screenshots written to ${args.out}/\n`);
