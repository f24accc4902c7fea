import { request as playwrightRequest, type Browser, type BrowserContextOptions } from 'playwright-core';
import { ZFamilyPage, ZMissingReport, ZSeasons, ZUploadLink, type TFamilyPage } from '../src/contract';
import { launchChromium, parseScreenshotArgs } from './screenshot-support';

/**
 * Screenshots of a family's upload page (the link a guardian gets, no sign-in): the documents and their
 * states with a reviewer's reason at 390 px, the page after a photo was sent at 390 px, and the page at
 * 1280 px. Staff issue the links through the API. Run against a running server with the demo data:
 *   npx tsx scripts/take-family-screenshots.ts --url http://localhost:5000 --password '…' [--out docs/screenshots]
 */
const args = parseScreenshotArgs('docs/screenshots');

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'light' };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, colorScheme: 'light' };

const staff = await playwrightRequest.newContext({ baseURL: args.url });
const login = await staff.post('/api/auth/login', { data: { password: args.password } });
if (!login.ok()) throw new Error(`Sign-in failed: ${login.status()} ${await login.text()}`);

const seasons = ZSeasons.parse(await (await staff.get('/api/seasons')).json()).seasons;
const season = seasons.find((candidate) => candidate.isCurrent) ?? seasons[0];
if (!season) throw new Error('No season');

const has = (page: TFamilyPage, state: TFamilyPage['documents'][number]['state']) => page.documents.some((document) => document.state === state);

/** New links for the season's incomplete players, until one opens a page `wanted` likes. */
async function linkWhere(wanted: (page: TFamilyPage) => boolean, skip: readonly string[] = []): Promise<{ playerId: string; url: string; page: TFamilyPage }> {
  if (!season) throw new Error('No season');
  const report = ZMissingReport.parse(await (await staff.get(`/api/report/missing?season=${encodeURIComponent(season.id)}&status=incomplete&pageSize=100`)).json());
  for (const player of report.players) {
    if (skip.includes(player.playerId)) continue;
    const issued = await staff.post(`/api/players/${encodeURIComponent(player.playerId)}/upload-link`, { data: { season: season.id } });
    if (issued.status() !== 201) throw new Error(`Issuing a link failed: ${issued.status()} ${await issued.text()}`);
    const { url } = ZUploadLink.parse(await issued.json());
    const token = url.split('#token=')[1] ?? '';
    const page = ZFamilyPage.parse(await (await staff.get(`/api/family/${token}`)).json());
    if (wanted(page)) return { playerId: player.playerId, url, page };
  }
  throw new Error('No player of the season has a family page like that');
}

/** The link as the running server's address (a link carries the origin the server was reached at). */
const local = (url: string) => `${args.url}${new URL(url).pathname}${new URL(url).hash}`;

/** A real JPEG, as a phone camera would give: a page with a form on it, photographed. */
async function documentPhoto(browser: Browser, title: string): Promise<Buffer> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1600 } });
  const page = await context.newPage();
  const lines = Array.from({ length: 24 }, () => '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>').join('');
  await page.setContent(`<body style="margin:0;background:#efeae0;font:28px Georgia,serif;color:#222;padding:90px"><h1 style="font-size:64px">${title}</h1>${lines}</body>`);
  const photo = await page.screenshot({ type: 'jpeg', quality: 90 });
  await context.close();
  return photo;
}

const browser = await launchChromium();

// 390 px: a page with a document not accepted (its reason) and one missing, then the page after sending it.
const refused = await linkWhere((page) => has(page, 'not_accepted') && has(page, 'missing')).catch(() => linkWhere((page) => has(page, 'not_accepted')));
const phone = await browser.newContext(PHONE);
const phonePage = await phone.newPage();
await phonePage.goto(local(refused.url));
await phonePage.getByTestId('family-title').waitFor();
await phonePage.waitForTimeout(300);
await phonePage.screenshot({ path: `${args.out}/family-page-phone.png`, fullPage: true });

const target = refused.page.documents.find((document) => document.state === 'missing') ?? refused.page.documents.find((document) => document.state === 'not_accepted');
if (!target) throw new Error('Nothing to send');
const card = phonePage.getByTestId(`family-document-${target.type}`);
const photo = await documentPhoto(browser, target.label);
await card.getByTestId(`take-photo-input-${target.type}`).setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: photo });
await card.getByTestId('draft-page').first().waitFor();
await card.getByTestId(`take-photo-input-${target.type}`).setInputFiles({ name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: photo });
await card.getByTestId('draft-page').nth(1).waitFor();
await card.getByRole('button', { name: 'Send 2 pages' }).click();
await card.getByTestId('upload-received').waitFor({ timeout: 30_000 });
await phonePage.waitForTimeout(300);
await phonePage.screenshot({ path: `${args.out}/family-page-received-phone.png`, fullPage: true });
await phone.close();

// 1280 px: another family's page, with a document not accepted when there is one.
const other = await linkWhere((page) => has(page, 'not_accepted'), [refused.playerId]).catch(() => linkWhere(() => true, [refused.playerId]));
const desktop = await browser.newContext(DESKTOP);
const desktopPage = await desktop.newPage();
await desktopPage.goto(local(other.url));
await desktopPage.getByTestId('family-title').waitFor();
await desktopPage.waitForTimeout(300);
await desktopPage.screenshot({ path: `${args.out}/family-page.png`, fullPage: true });
await desktop.close();

await browser.close();
await staff.dispose();
process.stdout.write(`Screenshots written to ${args.out}/\n`);
