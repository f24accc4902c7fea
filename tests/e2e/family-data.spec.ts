import { describeFamilyData } from './family-data-support';

/** A family's data exported and erased from the player dialog at 1280 px (tests/e2e/family-data-support.ts). */
describeFamilyData({ phone: false });
