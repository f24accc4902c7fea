import { createHmac } from 'node:crypto';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { buildMultipart, makePdf } from '../support/multipart';
import { E2E_WEBHOOK_SECRET } from './support';

/**
 * Helpers for the dashboard specs (dashboard.spec.ts, dashboard.phone.spec.ts, accessibility.spec.ts). They run
 * against the shared e2e server and its demo data: figures are read from the API, never assumed.
 */

export type Stats = {
  season: { id: string; name: string; year: number };
  totalPlayers: number;
  documentsUploaded: number;
  pendingReview: number;
  completeProfiles: number;
};

export const STAT_CARD_IDS = {
  totalPlayers: 'stat-total-players',
  documentsUploaded: 'stat-documents-uploaded',
  pendingReview: 'stat-pending-review',
  completeProfiles: 'stat-complete-profiles',
} as const;
export type StatField = keyof typeof STAT_CARD_IDS;

export const STAT_CARD_TITLES: Record<StatField, string> = {
  totalPlayers: 'Total Players',
  documentsUploaded: 'Documents Uploaded',
  pendingReview: 'Pending Review',
  completeProfiles: 'Complete Profiles',
};

/** GET /api/stats with the page's session cookie. */
export async function readStats(request: APIRequestContext, season?: string): Promise<Stats> {
  const response = await request.get(season ? `/api/stats?season=${encodeURIComponent(season)}` : '/api/stats');
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Stats;
}

export const statCard = (page: Page, field: StatField): Locator => page.getByTestId(STAT_CARD_IDS[field]);
export const statValue = (page: Page, field: StatField): Locator => statCard(page, field).getByTestId('stat-value');

/** Waits until every card shows the given figures (the raw number is in data-value, the text is formatted). */
export async function expectCardsToShow(page: Page, stats: Pick<Stats, StatField>): Promise<void> {
  for (const field of Object.keys(STAT_CARD_IDS) as StatField[]) {
    await expect(statValue(page, field), field).toHaveAttribute('data-value', String(stats[field]));
  }
}

/** Reads the four figures the cards show. */
export async function readCards(page: Page): Promise<Pick<Stats, StatField>> {
  const read = async (field: StatField) => Number(await statValue(page, field).getAttribute('data-value'));
  return {
    totalPlayers: await read('totalPlayers'),
    documentsUploaded: await read('documentsUploaded'),
    pendingReview: await read('pendingReview'),
    completeProfiles: await read('completeProfiles'),
  };
}

/** Waits for the cards to settle on the server's current figures and returns them. */
export async function settledStats(page: Page): Promise<Stats> {
  // Poll: a document may finish processing between the two reads.
  let stats = await readStats(page.request);
  await expect(async () => {
    stats = await readStats(page.request);
    expect(await readCards(page)).toEqual({
      totalPlayers: stats.totalPlayers,
      documentsUploaded: stats.documentsUploaded,
      pendingReview: stats.pendingReview,
      completeProfiles: stats.completeProfiles,
    });
  }).toPass({ timeout: 40_000 });
  return stats;
}

/** Posts a signed form submission with one birth certificate named `filename`, as the form provider does. */
export async function submitForm(baseURL: string, filename: string, player = { first: 'Katherine', last: 'Johnson', birthDate: '2014-08-26' }): Promise<void> {
  const { body, contentType } = buildMultipart([
    { name: 'submissionId', value: `e2e-dashboard-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` },
    { name: 'season', value: '2025' },
    { name: 'division', value: 'AAA' },
    { name: 'playerFirstName', value: player.first },
    { name: 'playerLastName', value: player.last },
    { name: 'playerBirthDate', value: player.birthDate },
    { name: 'birth_certificate', filename, content: makePdf(`dashboard e2e ${filename}`) },
  ]);
  const signature = `sha256=${createHmac('sha256', E2E_WEBHOOK_SECRET).update(body).digest('hex')}`;
  const response = await fetch(`${baseURL}/api/intake/form`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType, 'x-clearbase-signature': signature },
  });
  expect(response.status).toBe(202);
}

/** Opens a summary card's detail modal and waits for its breakdown. */
export async function openDetails(page: Page, field: StatField): Promise<Locator> {
  await statCard(page, field).click();
  const dialog = page.getByRole('dialog', { name: STAT_CARD_TITLES[field] });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Overview' })).toBeVisible();
  return dialog;
}

/** The id of one pending document of the season, from GET /api/documents. */
export async function findPendingDocument(request: APIRequestContext, season: string): Promise<string> {
  const response = await request.get(`/api/documents?status=pending&pageSize=1&season=${encodeURIComponent(season)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const list = (await response.json()) as { documents: Array<{ id: string; status: string }>; total: number };
  const document = list.documents[0];
  if (!document) throw new Error(`No pending document in ${season}`);
  expect(document.status).toBe('pending');
  return document.id;
}
