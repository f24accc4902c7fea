import { describe, expect, it } from 'vitest';
import { approvalDecision, birthDateChangeWarning, needsApprovalStep, rejectionNotes, type ApprovalForm } from './approval-step';

const EMPTY: ApprovalForm = { birthDate: '', confirmBirthDateChange: false, documentDate: '', residencyGroup: '' };
const TODAY = '2026-05-01';

describe('the approval step', () => {
  it('opens for the types whose approval records facts, not for a waiver or an undetected type', () => {
    expect(needsApprovalStep('birth_certificate')).toBe(true);
    expect(needsApprovalStep('medical')).toBe(true);
    expect(needsApprovalStep('residency')).toBe(true);
    expect(needsApprovalStep('waiver')).toBe(false);
    expect(needsApprovalStep(null)).toBe(false);
  });

  it('sends a birth certificate’s date as it is, and a different one only once the change is ticked', () => {
    const context = { registered: '2016-04-03', groups: [], today: TODAY };
    expect(approvalDecision('birth_certificate', { ...EMPTY, birthDate: '2016-04-03' }, context)).toEqual({
      ok: true,
      decision: { status: 'verified', birthDate: '2016-04-03' },
    });
    expect(approvalDecision('birth_certificate', { ...EMPTY, birthDate: '2016-04-30' }, context)).toEqual({
      ok: false,
      problems: { confirmBirthDateChange: 'Tick “Change the date of birth” to approve with this date.' },
    });
    expect(approvalDecision('birth_certificate', { ...EMPTY, birthDate: '2016-04-30', confirmBirthDateChange: true }, context)).toEqual({
      ok: true,
      decision: { status: 'verified', birthDate: '2016-04-30', confirmBirthDateChange: true },
    });
    expect(approvalDecision('birth_certificate', EMPTY, context)).toMatchObject({ ok: false, problems: { birthDate: 'Enter the date of birth the certificate shows.' } });
  });

  it('needs a medical form’s exam date, not after today', () => {
    const context = { registered: undefined, groups: [], today: TODAY };
    expect(approvalDecision('medical', EMPTY, context)).toEqual({ ok: false, problems: { documentDate: 'Enter the exam date.' } });
    expect(approvalDecision('medical', { ...EMPTY, documentDate: '2026-05-02' }, context)).toEqual({
      ok: false,
      problems: { documentDate: 'The exam date cannot be after today.' },
    });
    expect(approvalDecision('medical', { ...EMPTY, documentDate: '2026-03-15' }, context)).toEqual({ ok: true, decision: { status: 'verified', documentDate: '2026-03-15' } });
  });

  it('asks a residency proof’s group only when the season lists groups', () => {
    const none = { registered: undefined, groups: [], today: TODAY };
    expect(approvalDecision('residency', { ...EMPTY, documentDate: '2026-02-01' }, none)).toEqual({ ok: true, decision: { status: 'verified', documentDate: '2026-02-01' } });
    const grouped = { registered: undefined, groups: ['Group I', 'Group II'], today: TODAY };
    expect(approvalDecision('residency', { ...EMPTY, documentDate: '2026-02-01' }, grouped)).toEqual({
      ok: false,
      problems: { residencyGroup: 'Choose the group this document belongs to.' },
    });
    expect(approvalDecision('residency', { ...EMPTY, documentDate: '2026-02-01', residencyGroup: 'Group II' }, grouped)).toEqual({
      ok: true,
      decision: { status: 'verified', documentDate: '2026-02-01', residencyGroup: 'Group II' },
    });
  });

  it('words the change of a date of birth and a rejection’s note', () => {
    expect(birthDateChangeWarning('2016-04-03', '2016-04-30', 'Ana')).toMatch(/^The registration says .+2016\. Approving changes Ana's date of birth to .+2016\.$/);
    expect(rejectionNotes('Wrong document', '  ')).toBe('Wrong document');
    expect(rejectionNotes('Wrong document', 'This is a school report')).toBe('Wrong document. This is a school report');
  });
});
