import { expect, test } from '@playwright/test';
import type { TSeasonRequirements } from '../../src/contract';
import { changeRequirements, openRequirements, readRequirements, restoreRequirements } from './season-requirements-support';
import { pageOverflow } from './settings-support';
import { signInByApi } from './support';

const SEASON = { id: 'fall-2023', name: 'Fall Ball 2023', year: 2023 };

let original: TSeasonRequirements | undefined;

test.afterEach(async ({ page }) => {
  if (original) await restoreRequirements(page, SEASON.id, original);
});

test('on a phone the requirements fit 390 px, stacked, and save as on a computer', async ({ page }) => {
  test.setTimeout(90_000);
  await signInByApi(page);
  original = await readRequirements(page, SEASON.id);
  await changeRequirements(page, SEASON, 'tmp/season-requirements-390.png');

  const dialog = await openRequirements(page, SEASON.name);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  // Stacked: the two dates of the residency rule sit one above the other.
  const residency = dialog.getByRole('group', { name: 'Residency Proof' });
  const from = await residency.getByLabel('Dated from').boundingBox();
  const to = await residency.getByLabel('Dated to').boundingBox();
  expect(to?.y ?? 0).toBeGreaterThan((from?.y ?? 0) + (from?.height ?? 0));
  await dialog.getByRole('group', { name: 'Birth certificate files' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'tmp/season-requirements-390-end.png' });
});
