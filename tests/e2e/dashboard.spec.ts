import { z } from 'zod';
import { expect, test, type Page } from '@playwright/test';
import {
  expectCardsToShow,
  findPendingDocument,
  openDetails,
  readStats,
  settledStats,
  STAT_CARD_TITLES,
  statCard,
  submitForm,
  type StatField,
} from './dashboard-support';
import { signInAndWaitForShell } from './support';
import { readCsvFile } from '../support/csv';

/**
 * The dashboard on real data against the shared e2e server: every figure is compared with
 * what the API answers at the time, and changes are checked as before/after differences, never absolutes.
 */

type Breakdown = {
  season: { id: string; name: string };
  players: { total: number; complete: number; incomplete: number; withPending: number };
  byDivision: Array<{ division: string; players: number; complete: number }>;
  byDocType: Array<{ docType: string; complete: number; pending: number; processing: number; missing: number }>;
  documentsByStatus: { verified: number; pending: number; processing: number; rejected: number };
  undetectedType: number;
  completionRate: number;
  completionRateWeekAgo: number;
  averageReviewHours: number | null;
  recent: Array<{ id: string; fileName: string }>;
};

async function readBreakdown(page: Page): Promise<Breakdown> {
  const response = await page.request.get('/api/stats/breakdown');
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Breakdown;
}

const TYPE_ORDER = ['birth_certificate', 'residency', 'medical', 'waiver'];
const byType = (breakdown: Breakdown, field: 'pending' | 'complete') =>
  TYPE_ORDER.map((type) => breakdown.byDocType.find((row) => row.docType === type)?.[field] ?? 0);

/** What the four Overview cards of each modal count, from the breakdown (see stat-details.ts). */
const OVERVIEW_COUNTS: Record<StatField, (b: Breakdown) => number[]> = {
  totalPlayers: (b) => [b.players.complete, b.players.incomplete, b.players.withPending, Math.max(0, ...b.byDivision.map((d) => d.players))],
  documentsUploaded: (b) => [b.documentsByStatus.verified, b.documentsByStatus.pending, b.documentsByStatus.processing, b.documentsByStatus.rejected],
  pendingReview: (b) => byType(b, 'pending'),
  completeProfiles: (b) => byType(b, 'complete'),
};

/** A word that names some of each modal's items, but not all of them. */
const NARROWING_SEARCH: Record<StatField, string> = {
  totalPlayers: 'AAA',
  documentsUploaded: 'Medical',
  pendingReview: 'Processing',
  completeProfiles: 'AAA',
};

const topLevelItems = (page: Page) => page.getByTestId('detail-items').locator(':scope > ul > li');

/** Marks the page so a later check can tell it was not reloaded. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { dashboardMark: boolean }).dashboardMark = true;
  });
}
async function expectSamePage(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { dashboardMark?: boolean }).dashboardMark)).toBe(true);
}

test.describe('dashboard', () => {
  // Each test signs in and reads the server several times; the shared machine is sometimes busy.
  test.describe.configure({ timeout: 60_000 });

  test.beforeEach(async ({ page }) => {
    await signInAndWaitForShell(page);
  });

  test('the four cards show GET /api/stats for the current season, with its name in the badge', async ({ page }) => {
    const stats = await settledStats(page);
    await expect(page.getByTestId('season-badge')).toHaveText(stats.season.name);
    await expect(page.getByRole('combobox', { name: 'Season' })).toContainText(stats.season.name);
    await expect(statCard(page, 'totalPlayers')).toContainText('Active registrations');
    await expect(statCard(page, 'documentsUploaded')).toContainText('Files processed');
    await expect(statCard(page, 'pendingReview')).toContainText('Needs attention');
    const percent = stats.totalPlayers > 0 ? Math.round((stats.completeProfiles / stats.totalPlayers) * 100) : 0;
    await expect(statCard(page, 'completeProfiles')).toContainText(`${percent}% of total`);
  });

  test('the notifications badge counts documents awaiting review and opens them', async ({ page }) => {
    const stats = await settledStats(page);
    const button = page.getByTestId('notifications-button');
    await expect(button).toHaveAccessibleName(`Notifications: ${stats.pendingReview} documents awaiting review`);
    await expect(page.getByTestId('notifications-count')).toHaveText(String(stats.pendingReview));
    await button.click();
    await expect(page).toHaveURL('/documents?status=pending');
  });

  test('the season select lists GET /api/seasons and shows the chosen season’s figures', async ({ page }) => {
    const response = await page.request.get('/api/seasons');
    const { seasons } = (await response.json()) as { seasons: Array<{ id: string; name: string; isCurrent: boolean }> };
    const other = seasons.find((season) => !season.isCurrent);
    if (!other) throw new Error('The demo data has past seasons');

    await page.getByRole('combobox', { name: 'Season' }).click();
    const options = page.getByRole('option');
    await expect(options).toHaveCount(seasons.length);
    await page.getByRole('option', { name: other.name, exact: true }).click();

    await expect(page.getByTestId('season-badge')).toHaveText(other.name);
    await expectCardsToShow(page, await readStats(page.request, other.id));
  });

  test('the search box opens Players searching for the text', async ({ page }) => {
    const search = page.getByPlaceholder('Search players, documents...');
    await search.fill('Johnson');
    await search.press('Enter');
    await expect(page).toHaveURL('/players?search=Johnson');
  });

  test('refresh reads the figures again and spins while it does', async ({ page }) => {
    await settledStats(page);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Hold the stats answer, so the spinning state can be seen.
    await page.route(
      (url) => url.pathname === '/api/stats',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const refresh = page.getByRole('button', { name: 'Refresh dashboard' });
    const statsRead = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/stats');
    const uploadsRead = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/uploads/recent');
    const healthRead = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/health');
    await refresh.click();
    await Promise.all([statsRead, uploadsRead, healthRead]);
    await expect(refresh).toHaveAttribute('data-refreshing', 'true');
    await expect(refresh.locator('svg')).toHaveClass(/animate-spin/);
    release();
    await expect(refresh).toHaveAttribute('data-refreshing', 'false');
  });

  test('the settings button opens System Settings', async ({ page }) => {
    await page.getByRole('link', { name: 'System settings', exact: true }).click();
    await expect(page).toHaveURL('/settings');
  });

  for (const field of Object.keys(STAT_CARD_TITLES) as StatField[]) {
    test(`the ${STAT_CARD_TITLES[field]} card opens its details: overview, searchable items with CSV export, analytics`, async ({ page }) => {
      const dialog = await openDetails(page, field);
      for (const tab of ['Overview', 'Details', 'Analytics']) await expect(dialog.getByRole('tab', { name: tab })).toBeVisible();

      // Overview: four cards counting the breakdown's figures, and the latest uploads.
      const cards = dialog.getByTestId('breakdown-card');
      await expect(cards).toHaveCount(4);
      await expect(async () => {
        const breakdown = await readBreakdown(page);
        const shown = (await dialog.getByTestId('breakdown-count').allTextContents()).map((text) => Number(text.replace(/\D/g, '')));
        expect(shown).toEqual(OVERVIEW_COUNTS[field](breakdown));
      }).toPass({ timeout: 15_000 });
      const breakdown = await readBreakdown(page);
      if (breakdown.recent.length > 0) {
        await expect(dialog.getByTestId('recent-activity').getByTestId('upload-row')).toHaveCount(Math.min(5, breakdown.recent.length));
      }

      // Details: a search narrows the list, nonsense empties it, Export writes what is shown.
      await dialog.getByRole('tab', { name: 'Details' }).click();
      const items = topLevelItems(page);
      const all = await items.count();
      expect(all).toBeGreaterThan(1);
      const search = dialog.getByRole('searchbox', { name: 'Search items' });
      await search.fill(NARROWING_SEARCH[field]);
      await expect(async () => {
        const narrowed = await items.count();
        expect(narrowed).toBeGreaterThan(0);
        expect(narrowed).toBeLessThan(all);
      }).toPass();
      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Export' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^clearbase-[a-z-]+-${breakdown.season.id}-[\\dT-]+\\.csv$`));
      const csv = await readCsvFile(await file.path());
      const lines = csv.trim().split('\r\n');
      expect(lines[0]).toBe('Group,Item,Status,Value,Details');
      expect(lines.length).toBeGreaterThan(1);
      // Each row is a matching item or the child of one (its group names the parent).
      for (const line of lines.slice(1)) expect(line.toLowerCase()).toContain(NARROWING_SEARCH[field].toLowerCase());

      await search.fill('zzz-no-such-item-zzz');
      await expect(dialog.getByText('No items match your search criteria')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Export' })).toBeDisabled();
      await search.fill('');
      await expect(items).toHaveCount(all);

      // Analytics: the distribution and the real trend figures.
      await dialog.getByRole('tab', { name: 'Analytics' }).click();
      await expect(dialog.getByTestId('distribution-row').first()).toBeVisible();
      const now = await readBreakdown(page);
      await expect(dialog.getByTestId('completion-trend')).toContainText(`${(Math.round(now.completionRate * 10) / 10).toFixed(1)}%`);
      await expect(dialog.getByTestId('completion-trend')).toContainText(`${(Math.round(now.completionRateWeekAgo * 10) / 10).toFixed(1)}% a week ago`);
      if (now.averageReviewHours === null) await expect(dialog.getByTestId('review-time')).toContainText('No reviews in the last 30 days');
      else await expect(dialog.getByTestId('review-time')).toContainText(/\d/);

      // Closed with its button (Escape would first dismiss the export toast, the top layer); focus returns to the card.
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await expect(statCard(page, field)).toBeFocused();
    });
  }

  test('the Details status filter keeps only items of that status', async ({ page }) => {
    const dialog = await openDetails(page, 'documentsUploaded');
    await dialog.getByRole('tab', { name: 'Details' }).click();
    await dialog.getByRole('combobox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'Error', exact: true }).click();
    await expect(topLevelItems(page)).toHaveCount(1);
    await expect(topLevelItems(page)).toContainText('Rejected documents');
    await expect(topLevelItems(page)).toHaveAttribute('data-status', 'error');
  });

  test('approving a pending document lowers Pending Review by one without a reload', async ({ page }) => {
    const before = await settledStats(page);
    await markPage(page);
    const id = await findPendingDocument(page.request, before.season.id);

    const response = await page.request.patch(`/api/documents/${id}/status`, { data: { status: 'verified' } });
    expect(response.ok(), await response.text()).toBe(true);

    await expect(page.getByTestId('stat-pending-review').getByTestId('stat-value')).toHaveAttribute('data-value', String(before.pendingReview - 1));
    const after = await settledStats(page);
    expect(after.pendingReview).toBe(before.pendingReview - 1);
    // A verified document is still uploaded; it may have completed its player's profile.
    expect(after.documentsUploaded).toBe(before.documentsUploaded);
    expect([before.completeProfiles, before.completeProfiles + 1]).toContain(after.completeProfiles);
    await expect(page.getByTestId('notifications-count')).toHaveText(String(after.pendingReview));
    await expectSamePage(page);
  });

  test('rejecting a pending document lowers Pending Review and Documents Uploaded by one without a reload', async ({ page }) => {
    const before = await settledStats(page);
    await markPage(page);
    const id = await findPendingDocument(page.request, before.season.id);

    const response = await page.request.patch(`/api/documents/${id}/status`, {
      data: { status: 'rejected', reviewNotes: 'E2E dashboard: unreadable scan' },
    });
    expect(response.ok(), await response.text()).toBe(true);

    await expect(page.getByTestId('stat-pending-review').getByTestId('stat-value')).toHaveAttribute('data-value', String(before.pendingReview - 1));
    const after = await settledStats(page);
    expect(after.pendingReview).toBe(before.pendingReview - 1);
    expect(after.documentsUploaded).toBe(before.documentsUploaded - 1);
    expect(after.completeProfiles).toBe(before.completeProfiles);
    await expectSamePage(page);
  });

  test('Real-time Processing shows the latest upload after a form submission, and opens Documents', async ({ page, baseURL }) => {
    const card = page.getByTestId('processing-card');
    await expect(card.getByTestId('processing-state')).toBeVisible();
    await markPage(page);

    const filename = `dashboard-e2e-${Date.now()}.pdf`;
    await submitForm(baseURL ?? '', filename);

    const row = card.getByTestId('upload-row').first();
    await expect(row).toContainText(filename, { timeout: 20_000 });
    await expect(row).toContainText('Katherine Johnson');
    await expect(row).toContainText('Birth Certificate');
    await expect(card.getByTestId('processing-state')).toHaveText('Active');
    await expect(card.getByTestId('upload-row')).toHaveCount(5);
    await expectSamePage(page);

    await card.getByRole('heading', { name: 'Real-time Processing' }).click();
    await expect(page).toHaveURL('/documents');
  });

  test('Real-time Processing pulses only while an upload is being processed: otherwise the card stands still', async ({ page }) => {
    // Animations running inside the card (the mailbox panel's own spinners show its own queue).
    const runningAnimations = () =>
      page.evaluate(
        () =>
          document.getAnimations().filter((animation) => {
            const target = animation.effect instanceof KeyframeEffect ? animation.effect.target : null;
            return animation.playState === 'running' && target?.closest('[data-testid="processing-card"]');
          }).length,
      );
    const card = page.getByTestId('processing-card');
    for (const status of ['pending', 'processing'] as const) {
      await page.unrouteAll();
      // The real latest uploads, every one given `status`.
      await page.route(
        (url) => url.pathname === '/api/uploads/recent',
        async (route) => {
          const body = z.object({ uploads: z.array(z.record(z.string(), z.unknown())) }).parse(await (await route.fetch()).json());
          await route.fulfill({ json: { uploads: body.uploads.map((upload) => ({ ...upload, status, scanFailed: false })) } });
        },
      );
      await page.reload();
      await expect(card.getByTestId('processing-state')).toHaveText('Active');
      await expect(card.getByTestId('upload-row').first()).toContainText(status === 'pending' ? 'Under Review' : 'Processing');
      if (status === 'pending') await expect.poll(runningAnimations).toBe(0);
      else await expect.poll(runningAnimations).toBeGreaterThan(0);
    }
  });

  test('Real-time Processing reads Idle with no uploads, and System Status opens Settings', async ({ page }) => {
    await page.route(
      (url) => url.pathname === '/api/uploads/recent',
      (route) => route.fulfill({ json: { uploads: [] } }),
    );
    await page.reload();
    const card = page.getByTestId('processing-card');
    await expect(card.getByTestId('processing-state')).toHaveText('Idle');
    await expect(card).toContainText('No recent uploads');

    await page.getByTestId('system-status').getByRole('heading', { name: 'System Status' }).click();
    await expect(page).toHaveURL('/settings');
  });

  test('keeps its sections in order: header, cards, Mailbox panel, processing and status, document status overview', async ({ page }) => {
    const top = async (testId: string) => (await page.getByTestId(testId).first().boundingBox())?.y ?? -1;
    const order = [
      await top('season-badge'),
      await top('stat-total-players'),
      await top('gmail-panel'),
      await top('processing-card'),
      await top('document-status-overview-slot'),
    ];
    expect(order.every((y) => y >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
