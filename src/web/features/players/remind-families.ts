import type { TNotificationTemplate, TPlayerListFilter, TRecipientPreview } from '../../../contract';
import type { PlayerFilters } from './player-filters';

/** The template a reminder starts with: the missing-documents reminder shipped with the app. */
export const DEFAULT_REMINDER_TEMPLATE = 'Missing Documents Reminder';

/** The templates a reminder to families can use: turned on, sent by e-mail (a chat message goes to a channel, not a family). */
export const reminderTemplates = (templates: readonly TNotificationTemplate[]): TNotificationTemplate[] =>
  templates.filter((template) => template.enabled && template.type === 'email');

/** The template chosen first: the missing-documents reminder, else one naming the missing documents, else the first. */
export function defaultReminderTemplate(templates: readonly TNotificationTemplate[]): TNotificationTemplate | undefined {
  return (
    templates.find((template) => template.name === DEFAULT_REMINDER_TEMPLATE) ??
    templates.find((template) => template.content.includes('{{missingDocuments}}')) ??
    templates[0]
  );
}

/** A list's filters as a send's 'players_list' recipients carry them (the order does not change who is in it). */
export function playersListFilter(filters: Omit<PlayerFilters, 'page' | 'sort'>, season: string | undefined): TPlayerListFilter {
  const list: TPlayerListFilter = { division: filters.division, status: filters.status };
  if (season !== undefined) list.season = season;
  const search = filters.search.trim();
  if (search !== '') list.search = search;
  if (filters.missing !== 'any') list.missing = filters.missing;
  return list;
}

const players = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'player' : 'players'}`;

/**
 * Who a reminder reaches, in words that agree with the list: '97 of 158 players in this list have a guardian
 * e-mail.' (the list's count is the preview's reached and left-out players together).
 */
export function describeReach(preview: Pick<TRecipientPreview, 'count' | 'withoutEmail'>): string {
  const inList = preview.count + preview.withoutEmail;
  if (inList === 0) return 'No players are in this list.';
  if (preview.count === inList) return `All ${players(inList)} in this list have a guardian e-mail.`;
  if (preview.count === 0) return `None of the ${players(inList)} in this list has a guardian e-mail.`;
  return `${preview.count.toLocaleString('en-US')} of ${players(inList)} in this list ${preview.count === 1 ? 'has' : 'have'} a guardian e-mail.`;
}
