/** Seasons: the Settings → Seasons card, and the form of the first-run step that creates the first season. */
export { NewSeasonForm } from './components/season-forms';
export { SeasonsCard } from './components/seasons-card';
export { newSeasonForm } from './season-form';
