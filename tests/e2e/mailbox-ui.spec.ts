import { expect, test, type Page, type Route } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { signInAndWaitForShell, signInByApi } from './support';

/**
 * The mailbox screens (the dashboard's Mailbox panel and its texts) in every state: the /api/gmail calls are answered
 * in the browser, so each state is set exactly, whatever mailbox the e2e server reads. The real round trip
 * (mail in Dovecot → panel) is mailbox-intake.spec.ts.
 */

type Status = {
  connection: boolean;
  error: string | null;
  configured: boolean;
  scheduler: { isRunning: boolean; intervalMs: number };
  lastCheckAt: string | null;
  checking: boolean;
};
type Submission = {
  id: string;
  fromEmail: string | null;
  subject: string | null;
  receivedAt: string;
  attachmentCount: number;
  playerName: string | null;
  playerDivision: string | null;
  status: 'pending' | 'processed' | 'failed';
  errorMessage: string | null;
};

const RUNNING: Status = {
  connection: true,
  error: null,
  configured: true,
  scheduler: { isRunning: true, intervalMs: 120_000 },
  lastCheckAt: '2025-09-01T10:00:00.000Z',
  checking: false,
};

function submission(index: number, overrides: Partial<Submission> = {}): Submission {
  return {
    id: `sub-${index}`,
    fromEmail: `parent${index}@example.com`,
    subject: `Registration documents ${index}`,
    receivedAt: new Date(Date.UTC(2025, 8, 1, 10, 0) - index * 60_000).toISOString(),
    attachmentCount: 2,
    playerName: `Player ${index}`,
    playerDivision: 'AA',
    status: 'processed',
    errorMessage: null,
    ...overrides,
  };
}

/** Twenty submissions, as GET /api/gmail/recent?limit=20 answers: a failed one without subject, a pending one. */
const TWENTY = Array.from({ length: 20 }, (_, index) => {
  if (index === 0) return submission(0, { subject: null, status: 'failed', errorMessage: 'No date of birth found in the e-mail', playerName: null, playerDivision: null });
  if (index === 1) return submission(1, { status: 'pending' });
  return submission(index);
});

type FakeMailbox = {
  status: Status;
  stats: { received: number; processed: number; failed: number; totalAttachments: number };
  submissions: Submission[];
  /** Path of every POST, in order. */
  posts: string[];
  /** Query strings of GET /api/gmail/stats and /recent. */
  reads: string[];
  /** Answer POSTs with this status and the API error body instead of success. */
  failPostsWith?: number;
};

async function fakeMailbox(page: Page, overrides: Partial<FakeMailbox> = {}): Promise<FakeMailbox> {
  const mailbox: FakeMailbox = {
    status: structuredClone(RUNNING),
    stats: { received: 3, processed: 2, failed: 1, totalAttachments: 8 },
    submissions: TWENTY,
    posts: [],
    reads: [],
    ...overrides,
  };
  const json = (route: Route, body: unknown, status = 200) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route('**/api/gmail/**', async (route) => {
    const url = new URL(route.request().url());
    const path = url.pathname;
    if (route.request().method() === 'POST') {
      mailbox.posts.push(path);
      if (mailbox.failPostsWith) {
        return json(route, { code: 'SERVICE_UNAVAILABLE', message: 'The mailbox could not be reached' }, mailbox.failPostsWith);
      }
      if (path === '/api/gmail/start') mailbox.status.scheduler.isRunning = true;
      if (path === '/api/gmail/stop') mailbox.status.scheduler.isRunning = false;
      return json(route, { ok: true, message: 'Done' });
    }
    if (path === '/api/gmail/status') return json(route, mailbox.status);
    mailbox.reads.push(`${path}${url.search}`);
    if (path === '/api/gmail/stats') return json(route, mailbox.stats);
    if (path === '/api/gmail/recent') return json(route, { submissions: mailbox.submissions });
    return json(route, { code: 'NOT_FOUND', message: 'Not found' }, 404);
  });
  return mailbox;
}

test.describe('Mailbox Document Intake panel', () => {
  test('says the mailbox is not set up yet, and where to set it up, when no mailbox is configured', async ({ page }) => {
    // What GET /api/gmail/status answers without IMAP_HOST; the other calls answer 503 and are not made.
    const unconfigured: Status = { ...structuredClone(RUNNING), configured: false, connection: false, lastCheckAt: null };
    unconfigured.scheduler.isRunning = false;
    const mailbox = await fakeMailbox(page, { status: unconfigured });
    await signInAndWaitForShell(page);
    const panel = page.getByTestId('gmail-panel');
    await expect(panel).toContainText('Mailbox Document Intake');
    await expect(panel).toContainText('The mailbox is not set up yet');
    await expect(panel).toContainText('Set it up in Settings → Integrations.');
    await expect(panel).not.toContainText('Gmail');
    await expect(panel.getByTestId('gmail-start')).toHaveCount(0);
    expect(mailbox.reads).toEqual([]);
  });

  test('shows connection, scheduler, interval, rates and the first 10 of 20 submissions', async ({ page }) => {
    const mailbox = await fakeMailbox(page);
    await signInAndWaitForShell(page);
    const panel = page.getByTestId('gmail-panel');

    await expect(panel.getByTestId('gmail-connection')).toHaveText('Connected');
    await expect(panel.getByTestId('gmail-scheduler')).toHaveText('Running');
    await expect(panel.getByTestId('gmail-interval')).toHaveText('Every 2 minutes');
    const stats = panel.getByTestId('gmail-stats');
    await expect(stats).toContainText('67%');
    await expect(stats).toContainText('33%');
    await expect(stats).toContainText(/Avg\. attachments\s*3\s*per e-mail/); // 8 attachments over 3 e-mails, rounded

    const rows = panel.getByTestId('gmail-submission');
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toHaveAttribute('data-status', 'failed');
    await expect(rows.first()).toContainText('No subject');
    await expect(rows.first()).toContainText('Error: No date of birth found in the e-mail');
    await expect(rows.nth(1)).toHaveAttribute('data-status', 'pending');
    await expect(rows.nth(2)).toContainText('Player 2 · AA');
    await expect(rows.nth(2)).toContainText('2 attachments');
    await expect(rows.nth(2).getByRole('button', { name: /Retry/ })).toHaveCount(0);
    expect(mailbox.reads).toContain('/api/gmail/recent?status=all&limit=20');
    expect(mailbox.reads).toContain('/api/gmail/stats?range=today');

    await expect(panel.getByTestId('gmail-start')).toBeDisabled();
    await expect(panel.getByTestId('gmail-stop')).toBeEnabled();
    await expect(panel.getByTestId('gmail-check')).toBeEnabled();
  });

  test('reads the statistics of the chosen period', async ({ page }) => {
    const mailbox = await fakeMailbox(page);
    await signInAndWaitForShell(page);
    await page.getByRole('radio', { name: '7 days' }).click();
    await expect(page.getByRole('radio', { name: '7 days' })).toHaveAttribute('aria-checked', 'true');
    await expect.poll(() => mailbox.reads).toContain('/api/gmail/stats?range=7d');
  });

  test('shows 0% and no NaN when no mail came, and the empty list texts', async ({ page }) => {
    await fakeMailbox(page, { stats: { received: 0, processed: 0, failed: 0, totalAttachments: 0 }, submissions: [] });
    await signInAndWaitForShell(page);
    const panel = page.getByTestId('gmail-panel');
    await expect(panel.getByTestId('gmail-stats')).toContainText('0%');
    await expect(panel).not.toContainText('NaN');
    await expect(panel.getByTestId('gmail-recent')).toContainText('No email submissions found');
    await expect(panel.getByTestId('gmail-recent')).toContainText('The mailbox may not be set up yet');
  });

  test('stops and starts the scheduler with a toast for each, refetching the status', async ({ page }) => {
    const mailbox = await fakeMailbox(page);
    await signInAndWaitForShell(page);
    const panel = page.getByTestId('gmail-panel');

    await panel.getByTestId('gmail-stop').click();
    await expect(page.getByRole('status').filter({ hasText: 'Mailbox checks stopped' })).toBeVisible();
    await expect(panel.getByTestId('gmail-scheduler')).toHaveText('Stopped');
    await expect(panel.getByTestId('gmail-stop')).toBeDisabled();

    await panel.getByTestId('gmail-start').click();
    await expect(page.getByRole('status').filter({ hasText: 'Mailbox checks started' })).toBeVisible();
    await expect(panel.getByTestId('gmail-scheduler')).toHaveText('Running');

    await panel.getByTestId('gmail-check').click();
    await expect(page.getByRole('status').filter({ hasText: 'Mailbox check started' })).toBeVisible();
    expect(mailbox.posts).toEqual(['/api/gmail/stop', '/api/gmail/start', '/api/gmail/check']);
  });

  test('retries a failed submission', async ({ page }) => {
    const mailbox = await fakeMailbox(page);
    await signInAndWaitForShell(page);
    const failed = page.getByTestId('gmail-submission').and(page.locator('[data-status="failed"]'));
    await failed.getByRole('button', { name: /Retry/ }).click();
    await expect.poll(() => mailbox.posts).toEqual(['/api/gmail/submissions/sub-0/retry']);
  });

  test('shows a destructive toast with the reason when an action fails', async ({ page }) => {
    await fakeMailbox(page, { failPostsWith: 503 });
    await signInAndWaitForShell(page);
    await page.getByTestId('gmail-check').click();
    const toast = page.getByRole('status').filter({ hasText: 'The mailbox could not be checked' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('The mailbox could not be reached');
  });

  test('shows why the mailbox is disconnected and offers only what works', async ({ page }) => {
    const status: Status = {
      ...structuredClone(RUNNING),
      connection: false,
      error: 'The mailbox refused the password',
      scheduler: { isRunning: false, intervalMs: 300_000 },
    };
    await fakeMailbox(page, { status });
    await signInAndWaitForShell(page);
    const panel = page.getByTestId('gmail-panel');
    await expect(panel.getByTestId('gmail-connection')).toHaveText('Disconnected');
    await expect(panel).toContainText('The mailbox refused the password');
    await expect(panel.getByTestId('gmail-start')).toBeDisabled();
    await expect(panel.getByTestId('gmail-stop')).toBeDisabled();
    await expect(panel.getByTestId('gmail-check')).toBeDisabled();
  });
});

test.describe('Mailbox Document Intake on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('fits the screen without sideways scrolling, buttons in view', async ({ page }) => {
    await fakeMailbox(page);
    await signInAndWaitForShell(page);
    await expect(page.getByTestId('gmail-submission')).toHaveCount(10);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    for (const id of ['gmail-start', 'gmail-stop', 'gmail-check']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    }
  });
});

test.describe('Settings → Integrations', () => {
  test('shows the mailbox scheduler controls', async ({ page }) => {
    await fakeMailbox(page);
    await signInByApi(page);
    await page.goto('/settings?tab=integrations');
    const card = page.getByTestId('gmail-settings');
    await expect(card.getByTestId('gmail-connection')).toHaveText('Connected');
    await expect(card.getByTestId('gmail-scheduler')).toHaveText('Running');
    await expect(card.getByTestId('gmail-stop')).toBeEnabled();
  });
});

test.describe('User Guide', () => {
  test('explains how to send documents by e-mail', async ({ page }) => {
    await signInByApi(page);
    await page.goto('/user-guide?step=8');
    const guide = page.getByTestId('guide-email-submissions');
    await expect(guide.getByRole('heading', { name: 'Sending documents by e-mail' })).toBeVisible();
    await expect(guide.getByTestId('guide-email-example')).toContainText('Date of Birth: 03/02/2015');
  });
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`mailbox screens in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('have no serious or critical accessibility violations', async ({ page }) => {
      await fakeMailbox(page);
      await signInAndWaitForShell(page);
      await expect(page.getByTestId('gmail-submission')).toHaveCount(10);
      expect(await seriousViolations(page, '[data-testid="gmail-panel"]')).toEqual([]);
      await page.goto('/settings?tab=integrations');
      await expect(page.getByTestId('gmail-settings').getByTestId('gmail-connection')).toBeVisible();
      expect(await seriousViolations(page, '[data-testid="gmail-settings"]')).toEqual([]);
      await page.goto('/user-guide?step=8');
      await expect(page.getByTestId('guide-email-submissions')).toBeVisible();
      expect(await seriousViolations(page, '[data-testid="guide-email-submissions"]')).toEqual([]);
    });
  });
}
