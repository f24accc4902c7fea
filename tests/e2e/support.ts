import { expect, type Page } from '@playwright/test';

/** Passed to the server as CLEARBASE_PASSWORD and FORM_WEBHOOK_SECRET by playwright.config.ts. */
export const E2E_PASSWORD = 'e2e-shared-password';
export const E2E_WEBHOOK_SECRET = 'e2e-form-webhook-secret';
/**
 * The e2e server's port: 5055, or E2E_PORT so that two runs on one machine (two worktrees, two people)
 * do not meet. Its data directory and mailbox file are named after it.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 5055);
export const E2E_DATA_DIR = `tmp/e2e-data-${E2E_PORT}`;
/** Where tests/e2e/serve.ts writes the address and user of the e2e server's Dovecot mailbox. */
export const E2E_MAILBOX_FILE = `tmp/e2e-mailbox-${E2E_PORT}.json`;
/**
 * Every mail the e2e server sends, one JSON line each (`{ from, to, subject, text, html, receivedAt }`), written by
 * tests/e2e/serve.ts and read with tests/e2e/outbox.ts. In the data directory, so each run starts with none.
 */
export const E2E_OUTBOX_FILE = `${E2E_DATA_DIR}/e2e-outbox.jsonl`;

export async function signIn(page: Page, password = E2E_PASSWORD): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Access System' })).toBeVisible();
  await page.getByPlaceholder('Enter system password').fill(password);
  await page.getByRole('button', { name: 'Access System' }).click();
}

export async function signInAndWaitForShell(page: Page): Promise<void> {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

/**
 * Signs the page in through the login endpoint the access gate posts to, without drawing the gate and the
 * dashboard first: for tests about another screen (the gate itself is access-gate.spec.ts's). The session
 * cookie lands in the page's own browser context, so each test still has a session of its own.
 */
export async function signInByApi(page: Page, password = E2E_PASSWORD): Promise<void> {
  const response = await page.request.post('/api/auth/login', { data: { password } });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Signs in (signInByApi) and opens `path` directly. */
export async function openSignedIn(page: Page, path: string): Promise<void> {
  await signInByApi(page);
  await page.goto(path);
}

/** Every screen's route, with its sidebar entry (if any), page heading and breadcrumb label. */
export const SCREENS = [
  { path: '/', nav: 'Dashboard', heading: 'Dashboard', crumb: null },
  { path: '/players', nav: 'Players', heading: 'Players', crumb: 'Players' },
  { path: '/documents', nav: 'Documents', heading: 'Documents', crumb: 'Documents' },
  { path: '/review', nav: 'Review', heading: 'Review', crumb: 'Review' },
  { path: '/reports', nav: 'Reports', heading: 'Reports', crumb: 'Reports' },
  { path: '/users', nav: 'User Management', heading: 'User Management', crumb: 'User Management' },
  { path: '/user-guide', nav: 'User Guide', heading: 'User Guide', crumb: 'User Guide' },
  { path: '/notifications', nav: 'Notifications', heading: 'Notifications', crumb: 'Notifications' },
  { path: '/backend-workflow', nav: 'App Workflow', heading: 'App Workflow', crumb: 'App Workflow' },
  { path: '/settings', nav: 'Settings', heading: 'System Settings', crumb: 'Settings' },
  { path: '/uploads', nav: null, heading: 'Recent Uploads', crumb: 'Recent Uploads' },
] as const;
