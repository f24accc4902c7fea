import { expect, type Locator, type Page } from '@playwright/test';
import { ZMissingReport, ZNotificationHistory } from '../../src/contract';

/**
 * The AA-birth-certificate reminder of remind-list.spec.ts and remind-list.phone.spec.ts: who it must reach
 * (from the API, before acting), every user action counted twice (by the test, and in the page by the events
 * the browser fires), and what History holds afterwards.
 */

export const REMIND_QUERY = 'division=AA&missing=birth_certificate';

/** The guardians' e-mails of the AA players missing a birth certificate, one per player, as the API lists them. */
export async function expectedRecipients(page: Page): Promise<{ emails: string[]; players: number }> {
  const response = await page.request.get(`/api/report/missing?${REMIND_QUERY}`);
  expect(response.ok()).toBe(true);
  const report = ZMissingReport.parse(await response.json());
  for (const player of report.players) {
    expect(player.division).toBe('AA');
    expect(player.documentsStatus.birth_certificate).toBe('missing');
  }
  const emails = report.players.flatMap((player) => (player.guardian?.email?.trim() ? [player.guardian.email.trim()] : []));
  return { emails: emails.sort(), players: report.players.length };
}

export async function historyTotal(page: Page): Promise<number> {
  const response = await page.request.get('/api/notifications/history?pageSize=1');
  return ZNotificationHistory.parse(await response.json()).total;
}

/** The recipients of the `count` newest History entries. */
export async function newestRecipients(page: Page, count: number): Promise<string[]> {
  const recipients: string[] = [];
  for (let pageNo = 1; recipients.length < count; pageNo++) {
    const response = await page.request.get(`/api/notifications/history?pageSize=100&page=${pageNo}`);
    const history = ZNotificationHistory.parse(await response.json());
    if (history.items.length === 0) break;
    recipients.push(...history.items.map((item) => item.recipient));
  }
  return recipients.slice(0, count).sort();
}

/**
 * Counts, in the page, every click the browser reports as a person's (trusted) and every choice made in a
 * select (a `change` event), from now on; the SPA keeps the listener across its screens.
 */
export async function startCountingInPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    const counter = { clicks: 0, changes: 0 };
    Object.assign(window, { __remindActions: counter });
    document.addEventListener('click', (event) => event.isTrusted && counter.clicks++, { capture: true });
    document.addEventListener('change', (event) => event.target instanceof HTMLSelectElement && counter.changes++, { capture: true });
  });
}

export const countedInPage = (page: Page): Promise<{ clicks: number; changes: number }> =>
  page.evaluate(() => {
    const counter: unknown = Reflect.get(window, '__remindActions');
    if (typeof counter !== 'object' || counter === null) throw new Error('The action counter is not installed');
    return { clicks: Number(Reflect.get(counter, 'clicks')), changes: Number(Reflect.get(counter, 'changes')) };
  });

/** The test's own count: every action goes through `click` or `pick`. */
export function actionCounter() {
  let actions = 0;
  return {
    get count() {
      return actions;
    },
    async click(target: Locator): Promise<void> {
      actions++;
      await target.click();
    },
    async pick(select: Locator, label: string): Promise<void> {
      actions++;
      await select.selectOption({ label });
    },
  };
}

/** Sends the open reminder dialog's default template, and checks what the dialog says and what History then holds. */
export async function sendAndCheckHistory(
  page: Page,
  actions: ReturnType<typeof actionCounter>,
  expected: { emails: string[]; players: number },
  historyBefore: number,
): Promise<void> {
  const dialog = page.getByTestId('remind-families-dialog');
  await expect(dialog.getByRole('combobox', { name: 'Template' })).toHaveValue(/.+/);
  expect(await dialog.getByRole('combobox', { name: 'Template' }).evaluate((el) => (el instanceof HTMLSelectElement ? el.selectedOptions[0]?.text : ''))).toBe(
    'Missing Documents Reminder',
  );
  const reach = dialog.getByTestId('remind-reach');
  const all = expected.emails.length === expected.players;
  await expect(reach).toContainText(
    all ? `All ${expected.players} players in this list have a guardian e-mail.` : `${expected.emails.length} of ${expected.players} players in this list`,
  );
  await actions.click(dialog.getByTestId('remind-send'));
  await expect(page.getByRole('status').filter({ hasText: 'Reminders sent' })).toBeVisible();
  await expect(dialog).toBeHidden();

  await expect.poll(() => historyTotal(page)).toBe(historyBefore + expected.emails.length);
  expect(await newestRecipients(page, expected.emails.length)).toEqual(expected.emails);
}
