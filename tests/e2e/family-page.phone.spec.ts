import { expect, test, type Page } from '@playwright/test';
import { FAMILY_DOC_STATE_LABELS, FAMILY_MAX_PAGES, type TFamilyPage } from '../../src/contract';
import { seriousViolations } from './axe-support';
import { readOutbox, waitForMail } from './outbox';
import {
  cameraPhoto,
  currentSeason,
  EXIF_MARKER,
  familyLinkWhere,
  familyPageOf,
  jpegSizesIn,
  keepSentFiles,
  sentFiles,
  signInStaff,
  tamperedLink,
} from './family-page-support';

/**
 * A family's upload link on a 390 px phone, against the real server: no sign-in, the documents and their
 * states, photos taken as pages of one document, sent with a progress bar, and the page after.
 */

const firstMissing = (page: TFamilyPage) => page.documents.find((document) => document.state === 'missing');

/** The staff app's chunks a family's phone must never load. */
const STAFF_CHUNKS = /\/assets\/(dashboard|players|documents|reports|charts|uploads|users|notifications|settings|user-guide|account|backend-workflow|mailbox)-[\w-]+\.js$/;

function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  return scripts;
}

/** Uploads at about 256 KB/s, as on a poor mobile connection, so the progress bar can be seen. */
async function slowUploads(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
}

test.describe('Family upload page (390 px)', () => {
  test('a family photographs two pages of a missing document, sends them with a progress bar, and the page says under review', async ({ page, request }) => {
    test.setTimeout(60_000);
    await signInStaff(request);
    const season = await currentSeason(request);
    const family = await familyLinkWhere(request, season.id, (shown) => firstMissing(shown) !== undefined);
    const missing = firstMissing(family.page);
    if (!missing) throw new Error('unreachable');
    const scripts = recordScripts(page);
    await keepSentFiles(page);

    await page.goto(family.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${family.page.playerFirstName}’s documents for ${family.page.season.name}`);
    await expect(page.getByTestId('family-deadline')).not.toBeEmpty();
    // Nothing of the league's app: no navigation, no link anywhere on the page.
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.getByRole('link')).toHaveCount(0);
    for (const document of family.page.documents) {
      const card = page.getByTestId(`family-document-${document.type}`);
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(document.label);
      await expect(card.getByTestId('document-state')).toHaveText(FAMILY_DOC_STATE_LABELS[document.state]);
      if (document.state === 'not_accepted' && document.reason) await expect(card.getByTestId('document-reason')).toContainText(document.reason);
      const sendable = document.state === 'missing' || document.state === 'not_accepted';
      await expect(card.getByRole('button', { name: 'Take a photo' })).toHaveCount(sendable ? 1 : 0);
    }
    expect(scripts.filter((url) => STAFF_CHUNKS.test(url))).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('family-page-states.png'), fullPage: true });

    const card = page.getByTestId(`family-document-${missing.type}`);
    const takePhoto = card.getByRole('button', { name: 'Take a photo' });
    const box = await takePhoto.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    const capture = card.getByTestId(`take-photo-input-${missing.type}`);
    await expect(capture).toHaveAttribute('capture', 'environment');
    await expect(capture).toHaveAttribute('accept', 'image/*');
    await expect(card.getByTestId(`choose-file-input-${missing.type}`)).toHaveAttribute('accept', 'application/pdf,image/*');

    const photo = await cameraPhoto(page, missing.label);
    await capture.setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(card.getByTestId('draft-page')).toHaveCount(1);
    await expect(card.getByRole('img', { name: 'Page 1' })).toBeVisible();

    // "Add another page" opens the camera input again: a second page, then a third taken by mistake and removed.
    for (const name of ['IMG_0002.jpg', 'IMG_0003.jpg']) {
      const chooser = page.waitForEvent('filechooser');
      await card.getByRole('button', { name: 'Add another page' }).click();
      await (await chooser).setFiles({ name, mimeType: 'image/jpeg', buffer: photo });
    }
    await expect(card.getByTestId('draft-page')).toHaveCount(3);
    await card.getByRole('button', { name: 'Remove page 3' }).click();
    await expect(card.getByTestId('draft-page')).toHaveCount(2);
    expect(FAMILY_MAX_PAGES).toBeGreaterThanOrEqual(2);

    await slowUploads(page);
    await card.getByRole('button', { name: 'Send 2 pages' }).click();
    const progress = card.getByRole('progressbar');
    await expect(progress).toBeVisible();
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('family-page-sending.png') });

    // The photos went smaller than the camera took them, as JPEGs without its metadata.
    const sent = await sentFiles(page);
    expect(sent.map((file) => [file.name, file.type])).toEqual([
      ['IMG_0001.jpg', 'image/jpeg'],
      ['IMG_0002.jpg', 'image/jpeg'],
    ]);
    for (const file of sent) {
      expect(jpegSizesIn(file.bytes)).toEqual([{ width: 1500, height: 2000 }]);
      expect(file.bytes.includes(Buffer.from(EXIF_MARKER, 'latin1'))).toBe(false);
      expect(file.bytes.includes(Buffer.from('Exif\u0000\u0000', 'latin1'))).toBe(false);
      expect(file.bytes.length).toBeLessThan(photo.length);
    }

    const received = card.getByTestId('upload-received');
    await expect(received).toContainText('Received', { timeout: 30_000 });
    await expect(received).toBeFocused();
    await expect(card.getByTestId('document-state')).toHaveText('Under review');
    await expect(card.getByRole('button', { name: 'Take a photo' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('family-page-received.png'), fullPage: true });

    // What the server keeps, and what the page shows when opened again.
    expect((await familyPageOf(request, family.url)).documents.find((document) => document.type === missing.type)?.state).toBe('under_review');
    await page.reload();
    await expect(page.getByTestId(`family-document-${missing.type}`).getByTestId('document-state')).toHaveText('Under review');
  });

  test('a dropped connection keeps the photos, and they go once the phone is back online', async ({ page, request, context }) => {
    await signInStaff(request);
    const season = await currentSeason(request);
    const family = await familyLinkWhere(request, season.id, (shown) => firstMissing(shown) !== undefined);
    const missing = firstMissing(family.page);
    if (!missing) throw new Error('unreachable');

    await page.goto(family.url);
    const card = page.getByTestId(`family-document-${missing.type}`);
    await card.getByTestId(`take-photo-input-${missing.type}`).setInputFiles({ name: 'IMG_0100.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto(page, missing.label) });
    await expect(card.getByTestId('draft-page')).toHaveCount(1);

    await context.setOffline(true);
    await card.getByRole('button', { name: 'Send photo' }).click();
    const failure = card.getByTestId('upload-failure');
    await expect(failure).toContainText('The upload was interrupted. Your photos are still here.');
    await expect(failure).toBeFocused();
    await expect(card.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(card.getByTestId('draft-page')).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath('family-page-interrupted.png'), fullPage: true });

    await context.setOffline(false);
    await expect(card.getByTestId('upload-received')).toContainText('Received');
    await expect(card.getByTestId('document-state')).toHaveText('Under review');
  });

  test('a tampered or cut link shows only that the link is not valid', async ({ page, request }) => {
    await signInStaff(request);
    const season = await currentSeason(request);
    const family = await familyLinkWhere(request, season.id, () => true);

    for (const url of [tamperedLink(family.url), family.url.slice(0, -5), family.url.replace(/#.*$/, '')]) {
      await page.goto('about:blank');
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is not valid');
      await expect(page.getByText('Ask the league for a new link.')).toBeVisible();
      await expect(page.getByRole('button')).toHaveCount(0);
      await expect(page.getByRole('link')).toHaveCount(0);
      await expect(page.getByText(family.page.playerFirstName, { exact: false })).toHaveCount(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('family-page-not-valid.png'), fullPage: true });
  });

  test('in dark mode and by keyboard: the buttons open the camera and the file picker, and the page reads well', async ({ page, request }) => {
    await signInStaff(request);
    const season = await currentSeason(request);
    const family = await familyLinkWhere(request, season.id, (shown) => firstMissing(shown) !== undefined);
    const missing = firstMissing(family.page);
    if (!missing) throw new Error('unreachable');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(family.url);
    await expect(page.locator('html')).toHaveClass(/dark/);
    const card = page.getByTestId(`family-document-${missing.type}`);
    for (const [name, accept] of [
      ['Take a photo', 'image/*'],
      ['Choose a file', 'application/pdf,image/*'],
    ] as const) {
      await card.getByRole('button', { name }).focus();
      const chooser = page.waitForEvent('filechooser');
      await page.keyboard.press('Enter');
      expect(await (await chooser).element().getAttribute('accept')).toBe(accept);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('family-page-dark.png'), fullPage: true });
  });

  test('the server’s mail can be read from the e2e outbox, for the links mails will carry', async ({ request }) => {
    await signInStaff(request);
    const since = new Date();
    const before = readOutbox().length;
    const to = `family-outbox-${Date.now()}@e2e.example`;
    const response = await request.post('/api/notifications/settings/test', { data: { channel: 'email', to } });
    expect(response.ok(), await response.text()).toBe(true);
    const mail = await waitForMail(to, { since });
    expect(mail.to).toEqual([to]);
    expect(mail.subject).not.toBe('');
    expect(readOutbox().length).toBeGreaterThan(before);
  });
});
