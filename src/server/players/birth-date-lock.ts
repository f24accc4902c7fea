/**
 * A player's date of birth is locked once a verified birth certificate fixed it (players.birth_date_verified_at):
 * the approval that verifies it is the only write of a player's date of birth, and no other way may change it
 * afterwards. Adding a player again (the same id) keeps the stored date of birth as it is.
 */

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A calendar day (YYYY-MM-DD) or an instant in words: '30 Apr 2016'. */
export function dayInWords(day: string | Date): string {
  const date = typeof day === 'string' ? new Date(`${day}T00:00:00Z`) : day;
  return Number.isNaN(date.getTime()) ? String(day) : DAY.format(date);
}

/** Why a verified date of birth is not changed: "Ana's date of birth was verified from the birth certificate on 2 May 2026; it cannot be changed here." */
export const birthDateLockedMessage = (firstName: string, verifiedAt: Date): string =>
  `${firstName}'s date of birth was verified from the birth certificate on ${dayInWords(verifiedAt)}; it cannot be changed here.`;
