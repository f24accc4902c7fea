import { DOC_TYPE_LABELS, type TDocType, type TDocumentStatusChange } from '../../contract';
import { AppError } from '../platform/errors';

/**
 * The facts a review decision records, checked against the document's type and its season's rules before
 * anything is written. A birth certificate's approval may record the date of birth it shows, a medical form's
 * its exam date, a residency document's its date and (when the season's residency rule lists groups, then
 * required) its group. A fact on a type that has no use for it, or on a rejection, is refused with a sentence:
 * the screen sent something it should not have, and nothing half-recorded is better than a guess.
 */
export type ApprovalFacts = {
  /** The date of birth a birth certificate shows; becomes the player's (checked against it by the caller). */
  birthDate: string | null;
  /** A medical form's exam date, a residency document's date. */
  documentDate: string | null;
  /** A residency document's group, as the season spells it. */
  residencyGroup: string | null;
};

export const NO_FACTS: ApprovalFacts = { birthDate: null, documentDate: null, residencyGroup: null };

const typeName = (docType: TDocType | null): string => (docType ? `a ${DOC_TYPE_LABELS[docType].toLowerCase()}` : 'a document of undetected type');

const refused = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, [{ path: `body.${path}`, message }]);

/**
 * The facts to record for `change`, or a 400 in words. `today` is YYYY-MM-DD (an exam cannot be after it);
 * `seasonGroups` the season's residency groups (empty: none asked).
 */
export function approvalFacts(
  docType: TDocType | null,
  change: Pick<TDocumentStatusChange, 'status' | 'birthDate' | 'documentDate' | 'residencyGroup'>,
  context: { today: string; seasonGroups: readonly string[] },
): ApprovalFacts {
  const given = { birthDate: change.birthDate, documentDate: change.documentDate, residencyGroup: change.residencyGroup };
  if (change.status !== 'verified') {
    const field = (Object.keys(given) as Array<keyof typeof given>).find((key) => given[key] !== undefined);
    if (field) throw refused(field, 'Dates and groups are recorded only when a document is approved; leave them out of a rejection.');
    return NO_FACTS;
  }
  if (given.birthDate !== undefined && docType !== 'birth_certificate') {
    throw refused('birthDate', `A date of birth is recorded only when approving a birth certificate; this is ${typeName(docType)}.`);
  }
  if (given.documentDate !== undefined) {
    if (docType !== 'medical' && docType !== 'residency') {
      throw refused('documentDate', `A document date is recorded only for a medical form (its exam date) or a residency proof; this is ${typeName(docType)}.`);
    }
    if (given.documentDate > context.today) {
      const what = docType === 'medical' ? 'The exam date' : 'The date on the document';
      throw refused('documentDate', `${what} (${given.documentDate}) is after today; check the date on the form.`);
    }
  }
  if (given.residencyGroup !== undefined && docType !== 'residency') {
    throw refused('residencyGroup', `A group is recorded only for a residency proof; this is ${typeName(docType)}.`);
  }
  let residencyGroup: string | null = null;
  if (docType === 'residency') {
    const groups = context.seasonGroups;
    if (groups.length === 0 && given.residencyGroup !== undefined) {
      throw refused('residencyGroup', 'This season’s residency rule lists no groups; approve it without a group.');
    }
    if (groups.length > 0) {
      if (given.residencyGroup === undefined) throw refused('residencyGroup', `Choose the group this residency proof belongs to: ${groups.join('; ')}.`);
      const wanted = given.residencyGroup.toLowerCase();
      const match = groups.find((group) => group.toLowerCase() === wanted);
      if (match === undefined) throw refused('residencyGroup', `“${given.residencyGroup}” is not one of this season’s residency groups: ${groups.join('; ')}.`);
      residencyGroup = match;
    }
  }
  return { birthDate: given.birthDate ?? null, documentDate: given.documentDate ?? null, residencyGroup };
}
