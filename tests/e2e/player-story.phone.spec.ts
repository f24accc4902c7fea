import { describePlayerStory } from './player-story-support';

/** The player's story in the player dialog on a 390 px phone (tests/e2e/player-story-support.ts). */
describePlayerStory({ phone: true });
