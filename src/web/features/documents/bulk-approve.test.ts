import { describe, expect, it } from 'vitest';
import { describeBulkApprove, planBulkApprove, unopenedApprovalQuestion } from './bulk-approve';

describe('bulk approve', () => {
  const selected = [
    { id: 'a', status: 'pending' },
    { id: 'b', status: 'verified' },
    { id: 'c', status: 'pending' },
    { id: 'd', status: 'rejected' },
    { id: 'e', status: 'verified' },
  ] as const;

  it('sends only pending documents and counts the others by status', () => {
    const plan = planBulkApprove(selected);
    expect(plan.approvableIds).toEqual(['a', 'c']);
    expect(plan.notPending).toEqual({ verified: 2, rejected: 1 });
    expect(plan.notPendingCount).toBe(3);
  });

  it('says how many were approved and how many skipped, and why', () => {
    const toast = describeBulkApprove(planBulkApprove(selected), {
      updated: 1,
      skipped: [{ id: 'c', reason: 'Not changed: it is already verified.' }],
    });
    expect(toast.title).toBe('Documents Approved');
    expect(toast.description).toBe(
      '1 document approved. Skipped 4 documents: 3 not under review (2 Verified, 1 Rejected); 1 not changed (it is already verified).',
    );
  });

  it('says nothing was approved when no selected document is pending', () => {
    const toast = describeBulkApprove(planBulkApprove([{ id: 'b', status: 'processing' }]), null);
    expect(toast.title).toBe('Nothing Approved');
    expect(toast.description).toBe('No selected document was approved. Skipped 1 document: 1 not under review (1 Processing).');
  });

  it('has no skipped sentence when everything was approved', () => {
    expect(describeBulkApprove(planBulkApprove([{ id: 'a', status: 'pending' }]), { updated: 1, skipped: [] }).description).toBe(
      '1 document approved.',
    );
  });
});

describe('unopenedApprovalQuestion', () => {
  const rows = (pendingOpened: number, pendingUnopened: number, verified = 0) => [
    ...Array.from({ length: pendingOpened }, (_, i) => ({ id: `o${i}`, status: 'pending' as const, opened: true })),
    ...Array.from({ length: pendingUnopened }, (_, i) => ({ id: `u${i}`, status: 'pending' as const, opened: false })),
    ...Array.from({ length: verified }, (_, i) => ({ id: `v${i}`, status: 'verified' as const, opened: false })),
  ];

  it('names how many of the selected documents nobody opened, and how many would be approved', () => {
    expect(unopenedApprovalQuestion(rows(38, 12))).toEqual({
      unopened: 12,
      approvable: 50,
      question: '12 of the 50 selected documents have not been opened. Approve all 50?',
    });
    expect(unopenedApprovalQuestion(rows(1, 1))?.question).toBe('1 of the 2 selected documents has not been opened. Approve all 2?');
    expect(unopenedApprovalQuestion(rows(0, 1))?.question).toBe('The selected document has not been opened. Approve it?');
  });

  it('counts only the documents under review, which are the ones approved', () => {
    expect(unopenedApprovalQuestion(rows(2, 3, 4))).toEqual({
      unopened: 3,
      approvable: 5,
      question: '3 of the 5 selected documents under review have not been opened. Approve all 5?',
    });
  });

  it('asks nothing when every document to approve was opened', () => {
    expect(unopenedApprovalQuestion(rows(5, 0, 3))).toBeNull();
    expect(unopenedApprovalQuestion([])).toBeNull();
  });
});
