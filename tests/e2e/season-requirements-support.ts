import { expect, type Page } from '@playwright/test';
import { ZSeasonRequirements, type TSeasonRequirements } from '../../src/contract';
import { signInByApi } from './support';

/**
 * Settings → Seasons → Requirements, on the shared e2e server. A spec changes the rules of a past demo season
 * (which no other spec reads figures from) and puts them back afterwards, whatever happened, so the specs after
 * it see the demo as it was.
 */
export const requirementsUrl = (seasonId: string) => `/api/seasons/${seasonId}/requirements`;

export async function readRequirements(page: Page, seasonId: string): Promise<TSeasonRequirements> {
  return ZSeasonRequirements.parse(await (await page.request.get(requirementsUrl(seasonId))).json());
}

export async function restoreRequirements(page: Page, seasonId: string, requirements: TSeasonRequirements): Promise<void> {
  const response = await page.request.put(requirementsUrl(seasonId), { data: requirements });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Opens the Requirements dialog of a season from Settings → Seasons; answers the dialog. */
export async function openRequirements(page: Page, seasonName: string) {
  await page.getByRole('button', { name: `Requirements of ${seasonName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Requirements for ${seasonName}` });
  await expect(dialog.getByRole('group', { name: 'Medical Form' })).toBeVisible();
  return dialog;
}

/**
 * The walk both specs make: the medical form made not required and residency set by Little League's rule,
 * saved, and seen kept on opening again; then a residency rule needing more documents than it has groups is
 * refused in words under its field. `screenshot` is where the dialog's picture goes.
 */
export async function changeRequirements(page: Page, season: { id: string; name: string; year: number }, screenshot: string): Promise<void> {
  await signInByApi(page);
  await page.goto('/settings?tab=seasons');
  let dialog = await openRequirements(page, season.name);
  const medical = dialog.getByRole('group', { name: 'Medical Form' });
  await medical.getByRole('checkbox', { name: 'Required' }).click();
  const residency = dialog.getByRole('group', { name: 'Residency Proof' });
  await residency.getByRole('button', { name: 'Use Little League’s residency rule' }).click();
  await expect(residency.getByLabel('Documents needed')).toHaveValue('3');
  await expect(residency.getByLabel('Dated from')).toHaveValue(`${season.year - 1}-02-01`);
  await expect(residency.getByTestId('residency-groups').getByRole('textbox')).toHaveCount(3);
  await page.screenshot({ path: screenshot });
  await dialog.evaluate((element) => element.scrollTo(0, 0));
  await page.screenshot({ path: screenshot.replace('.png', '-top.png') });
  await dialog.getByRole('button', { name: 'Save requirements' }).click();
  // The save recomputes every registration of a demo season: allowed longer than a screen change.
  await expect(page.getByText(`Every player’s status for ${season.name} was recomputed.`, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toBeHidden();

  const saved = await readRequirements(page, season.id);
  expect(saved.rules.find((rule) => rule.docType === 'medical')?.required).toBe(false);
  expect(saved.rules.find((rule) => rule.docType === 'residency')?.documents).toBe(3);

  dialog = await openRequirements(page, season.name);
  await expect(dialog.getByRole('group', { name: 'Medical Form' }).getByRole('checkbox', { name: 'Required' })).not.toBeChecked();
  const kept = dialog.getByRole('group', { name: 'Residency Proof' });
  await expect(kept.getByLabel('Documents needed')).toHaveValue('3');
  await expect(kept.getByTestId('residency-groups').getByRole('textbox')).toHaveCount(3);

  await kept.getByRole('button', { name: 'Remove group 3' }).click();
  await dialog.getByRole('button', { name: 'Save requirements' }).click();
  await expect(kept.getByTestId('error-rules.1.documents')).toHaveText('Documents needed cannot be more than the 2 groups they come from');
  await expect(kept.getByLabel('Documents needed')).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
}
