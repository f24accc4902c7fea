import type { TDocType } from '../../../contract';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import type { TReviewDecision } from './api';

/**
 * The document types whose approval records facts for the season's rules, and so opens an approval step
 * first: a birth certificate's date of birth, a medical form's exam date, a residency proof's date (and
 * group). A waiver, or a document of undetected type, is approved at once.
 */
export const needsApprovalStep = (docType: TDocType | null): docType is 'birth_certificate' | 'medical' | 'residency' =>
  docType === 'birth_certificate' || docType === 'medical' || docType === 'residency';

/** What the approval step's fields hold (YYYY-MM-DD dates from date inputs; '' when left empty). */
export type ApprovalForm = {
  birthDate: string;
  confirmBirthDateChange: boolean;
  documentDate: string;
  residencyGroup: string;
};

/** The warning under a certificate's date that differs from the registered one. */
export const birthDateChangeWarning = (registered: string, shown: string, firstName: string): string =>
  `The registration says ${formatDate(registered)}. Approving changes ${firstName}'s date of birth to ${formatDate(shown)}.`;

/** The day in the reader's calendar (YYYY-MM-DD): an exam cannot be after it. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Each field's problem, in words; empty when the step may be sent. */
export type ApprovalProblems = Partial<Record<keyof ApprovalForm, string>>;

/**
 * The approval to send for a document of `docType`, or the problems that keep it from being sent. `registered`
 * is the player's date of birth; `groups` the season's residency groups (a group is asked only when it lists some).
 */
export function approvalDecision(
  docType: 'birth_certificate' | 'medical' | 'residency',
  form: ApprovalForm,
  context: { registered: string | undefined; groups: readonly string[]; today: string },
): { ok: true; decision: TReviewDecision } | { ok: false; problems: ApprovalProblems } {
  const problems: ApprovalProblems = {};
  if (docType === 'birth_certificate') {
    if (form.birthDate === '') problems.birthDate = 'Enter the date of birth the certificate shows.';
    else if (form.birthDate > context.today) problems.birthDate = 'The date of birth cannot be after today.';
    const changes = form.birthDate !== '' && context.registered !== undefined && form.birthDate !== context.registered;
    if (changes && !form.confirmBirthDateChange) problems.confirmBirthDateChange = 'Tick “Change the date of birth” to approve with this date.';
    if (Object.keys(problems).length > 0) return { ok: false, problems };
    return { ok: true, decision: { status: 'verified', birthDate: form.birthDate, ...(changes ? { confirmBirthDateChange: true } : {}) } };
  }
  const dateName = docType === 'medical' ? 'the exam date' : 'the date on the document';
  if (form.documentDate === '') problems.documentDate = `Enter ${dateName}.`;
  else if (form.documentDate > context.today) problems.documentDate = `${dateName[0]?.toUpperCase() ?? ''}${dateName.slice(1)} cannot be after today.`;
  const asksGroup = docType === 'residency' && context.groups.length > 0;
  if (asksGroup && !context.groups.includes(form.residencyGroup)) problems.residencyGroup = 'Choose the group this document belongs to.';
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, decision: { status: 'verified', documentDate: form.documentDate, ...(asksGroup ? { residencyGroup: form.residencyGroup } : {}) } };
}

/** The review note of a rejection: the reason picked, then the detail when one is written ('Wrong document. This is a school report'). */
export function rejectionNotes(reason: string, detail: string): string {
  const more = detail.trim();
  return more === '' ? reason : `${reason}. ${more}`;
}

/**
 * Whether a failed approval leaves its step nothing to do: the document is gone, or someone else reviewed it
 * meanwhile (a 409 that is not about the date of birth). Otherwise the step stays open with the server's words.
 */
export const approvalIsStale = (error: unknown): boolean =>
  isApiError(error) && (error.status === 404 || (error.status === 409 && !/date of birth/i.test(getErrorMessage(error))));
