/** Mails for the tests of how the mailbox reads the player from an e-mail, and the player they give. */
import { readPlayerDetails, type MailPlayer, type MailSummary } from './mail-fields';

export const TODAY = '2025-09-01';

export function mail(overrides: Partial<MailSummary>): MailSummary {
  return { subject: null, text: null, html: null, fromAddress: 'mary.doe@example.com', ...overrides };
}

/** The player a mail gives, or the error it fails with. */
export function read(overrides: Partial<MailSummary>): MailPlayer | string {
  const result = readPlayerDetails(mail(overrides), { today: TODAY });
  return result.ok ? result.player : result.error;
}

/** A body with everything but the line under test. */
export const REST = { name: 'Player: Jane Doe', birthDate: 'DOB: 2015-03-02', division: 'Division: AA' };
export function body(lines: Partial<typeof REST> & { extra?: string }): string {
  const { extra, ...given } = lines;
  return [...Object.values({ ...REST, ...given }), ...(extra ? [extra] : [])].join('\n');
}

export const JANE: MailPlayer = {
  firstName: 'Jane',
  lastName: 'Doe',
  birthDate: '2015-03-02',
  division: 'AA',
  season: null,
  guardianName: null,
  guardianEmail: 'mary.doe@example.com',
  guardianPhone: null,
};
