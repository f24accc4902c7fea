import { describePlayerStory } from './player-story-support';

/** The player's story in the player dialog at 1280 px (tests/e2e/player-story-support.ts). */
describePlayerStory({ phone: false });
