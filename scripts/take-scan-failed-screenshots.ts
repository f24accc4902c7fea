import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startScanFailedServer } from '../tests/e2e/scan-failed-support';
import { launchChromium, signIn } from './screenshot-support';

/**
 * Screenshots of the Documents screen with documents waiting for a virus scan that failed, at 1280 px and at
 * 390 px. Starts a server of its own (demo data, a real clamd stopped before the uploads; see
 * tests/e2e/scan-failed-support.ts), so nothing needs to run first:
 *   npx tsx scripts/take-scan-failed-screenshots.ts [--out docs/screenshots]
 * The web app must be built (npx vite build).
 */
const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/screenshots' } } });
const out = values.out;
mkdirSync(out, { recursive: true });

const server = await startScanFailedServer();
try {
  await server.submit({ firstName: 'Maya', lastName: 'Thompson' }, [
    { docType: 'medical', fileName: 'maya-medical-form.pdf' },
    { docType: 'waiver', fileName: 'maya-waiver-signed.pdf' },
  ]);
  await server.submit({ firstName: 'Leo', lastName: 'Garcia' }, [{ docType: 'birth_certificate', fileName: 'leo-birth-certificate.pdf' }]);
  await server.waitForScanFailed('Thompson', 2);
  await server.waitForScanFailed('Garcia', 1);

  const browser = await launchChromium();
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const desktopPage = await desktop.newPage();
  await openDocuments(desktopPage, '');
  await desktopPage.screenshot({ path: `${out}/documents-scan-failed.png` });
  await desktop.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'light' });
  const phonePage = await phone.newPage();
  await openDocuments(phonePage, '?status=scan_failed');
  await phonePage.screenshot({ path: `${out}/documents-scan-failed-phone.png`, fullPage: true });
  await phone.close();
  await browser.close();
  process.stdout.write(`Screenshots written to ${out}/\n`);
} finally {
  await server.stop();
}

async function openDocuments(page: Page, query: string): Promise<void> {
  await page.goto(server.url);
  await signIn(page, server.password);
  await page.goto(`${server.url}/documents${query}`);
  await page.locator('[data-status="scan_failed"]').first().waitFor();
  // The toasts of the live events that brought these documents are gone before the picture is taken.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(500);
}
