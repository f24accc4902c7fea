import { describe, expect, it } from 'vitest';
import { describeBulkApprove, planBulkApprove } from './bulk-approve';

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
