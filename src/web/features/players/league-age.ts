import { divisionAgesText, DOC_TYPE_LABELS, DOC_TYPES, type TDivision, type TDivisionAges, type TPlayerReportRow } from '../../../contract';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A calendar date (YYYY-MM-DD) as a short day, the way the reminders write it: '1 Sep 2026'. */
export function formatShortDay(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  const name = MONTHS[(month ?? 1) - 1];
  return name && year && day ? `${day} ${name} ${year}` : isoDate;
}

/** A player's league age as the lists show it, and the flag when it is outside the division's ages. */
export type LeagueAgeText = {
  /** 'Age 12', or null when the season counts no league age. */
  age: string | null;
  /**
   * When the age is outside the division's: 'Age 12 · outside AA (ages 8–10)' (the ages left out when the
   * season's division ages are not known here), and the sentence a screen reader reads.
   */
  flag: { text: string; label: string } | null;
};

export function leagueAgeText(
  player: Pick<TPlayerReportRow, 'leagueAge' | 'ageFitsDivision' | 'division'>,
  divisionAges: Partial<Record<TDivision, TDivisionAges>> | undefined,
): LeagueAgeText {
  if (player.leagueAge === null) return { age: null, flag: null };
  const age = `Age ${player.leagueAge}`;
  if (player.ageFitsDivision !== false) return { age, flag: null };
  const ages = divisionAges ? ` (${divisionAgesText(divisionAges[player.division])})` : '';
  return {
    age,
    flag: {
      text: `${age} · outside ${player.division}${ages}`,
      label: `League age ${player.leagueAge} is outside ${player.division}${divisionAges ? `, which takes ${divisionAgesText(divisionAges[player.division])}` : "'s ages"}`,
    },
  };
}

/**
 * The met requirements that lapse on the player's expiry day, in words: 'Medical Form expires on 1 Sep 2026'.
 * The summary keeps one day (the first that lapses); the medical form is the type the default rules let lapse.
 * Null when nothing lapses.
 */
export function expiringText(player: Pick<TPlayerReportRow, 'expiresOn' | 'documentsStatus'>, lapsingTypes: readonly (typeof DOC_TYPES)[number][] = ['medical']): string | null {
  if (player.expiresOn === null) return null;
  const types = DOC_TYPES.filter((type) => lapsingTypes.includes(type) && player.documentsStatus[type] === 'complete');
  const day = formatShortDay(player.expiresOn);
  if (types.length === 0) return `A requirement expires on ${day}`;
  return `${types.map((type) => DOC_TYPE_LABELS[type]).join(' and ')} ${types.length === 1 ? 'expires' : 'expire'} on ${day}`;
}
