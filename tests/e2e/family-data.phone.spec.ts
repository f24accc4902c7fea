import { describeFamilyData } from './family-data-support';

/** A family's data exported and erased from the player dialog on a 390 px phone (tests/e2e/family-data-support.ts). */
describeFamilyData({ phone: true });
