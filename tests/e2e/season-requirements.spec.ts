import { test } from '@playwright/test';
import type { TSeasonRequirements } from '../../src/contract';
import { changeRequirements, readRequirements, restoreRequirements } from './season-requirements-support';
import { signInByApi } from './support';

const SEASON = { id: 'spring-2023', name: 'Spring Ball 2023', year: 2023 };

let original: TSeasonRequirements | undefined;

test.afterEach(async ({ page }) => {
  if (original) await restoreRequirements(page, SEASON.id, original);
});

test('an admin changes a season’s requirements: the medical form not required, Little League’s residency rule; kept, and a mistake refused in words', async ({ page }) => {
  test.setTimeout(90_000);
  await signInByApi(page);
  original = await readRequirements(page, SEASON.id);
  await changeRequirements(page, SEASON, 'tmp/season-requirements-1280.png');
});
