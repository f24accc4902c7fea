import type { TBulkStatusResult, TDocumentListItem, TDocumentStatus } from '../../../contract';
import { DOCUMENT_STATUS_LABELS } from '@/components/status-tones';
import type { ToastInput } from '@/lib/toast-store';

/** Only documents under review can be approved; the rest of a selection is skipped before asking the server. */
export interface BulkApprovePlan {
  approvableIds: string[];
  /** Selected rows that are not pending, counted by their status. */
  notPending: Partial<Record<TDocumentStatus, number>>;
  notPendingCount: number;
}

export function planBulkApprove(selected: readonly Pick<TDocumentListItem, 'id' | 'status'>[]): BulkApprovePlan {
  const plan: BulkApprovePlan = { approvableIds: [], notPending: {}, notPendingCount: 0 };
  for (const row of selected) {
    if (row.status === 'pending') {
      plan.approvableIds.push(row.id);
    } else {
      plan.notPending[row.status] = (plan.notPending[row.status] ?? 0) + 1;
      plan.notPendingCount++;
    }
  }
  return plan;
}

const documentsWord = (count: number): string => (count === 1 ? 'document' : 'documents');

/** "2 not under review (1 Verified, 1 Rejected)" */
function describeNotPending(plan: BulkApprovePlan): string | null {
  if (plan.notPendingCount === 0) return null;
  const parts = (Object.entries(plan.notPending) as [TDocumentStatus, number][]).map(
    ([status, count]) => `${count} ${DOCUMENT_STATUS_LABELS[status]}`,
  );
  return `${plan.notPendingCount} not under review (${parts.join(', ')})`;
}

/** "it is already verified" from the server's "Not changed: it is already verified." */
function reasonClause(reason: string): string {
  return reason.replace(/^Not changed:\s*/i, '').replace(/\.$/, '');
}

/** Server-side skips (reviewed by someone else meanwhile) grouped by reason: "1 not changed (it is already verified)". */
function describeServerSkips(skipped: TBulkStatusResult['skipped']): string | null {
  if (skipped.length === 0) return null;
  const byReason = new Map<string, number>();
  for (const { reason } of skipped) {
    const clause = reasonClause(reason);
    byReason.set(clause, (byReason.get(clause) ?? 0) + 1);
  }
  return [...byReason].map(([clause, count]) => `${count} not changed (${clause})`).join('; ');
}

/** The toast after a bulk approve: how many were approved, how many skipped and why. */
export function describeBulkApprove(plan: BulkApprovePlan, result: TBulkStatusResult | null): ToastInput {
  const updated = result?.updated ?? 0;
  const skippedCount = plan.notPendingCount + (result?.skipped.length ?? 0);
  const reasons = [describeNotPending(plan), result ? describeServerSkips(result.skipped) : null].filter(Boolean);
  const skippedText = skippedCount > 0 ? ` Skipped ${skippedCount} ${documentsWord(skippedCount)}: ${reasons.join('; ')}.` : '';
  if (updated === 0) {
    return { title: 'Nothing Approved', description: `No selected document was approved.${skippedText}` };
  }
  return { title: 'Documents Approved', description: `${updated} ${documentsWord(updated)} approved.${skippedText}` };
}

/**
 * The question to ask before approving documents nobody has opened: "12 of the 50 selected documents have not
 * been opened. Approve all 50?"; null when every document to approve has been opened.
 */
export function unopenedApprovalQuestion(
  selected: readonly Pick<TDocumentListItem, 'id' | 'status' | 'opened'>[],
): { unopened: number; approvable: number; question: string } | null {
  const approvable = selected.filter((row) => row.status === 'pending');
  const unopened = approvable.filter((row) => !row.opened).length;
  if (unopened === 0) return null;
  const total = approvable.length;
  const of = `of the ${total} selected ${documentsWord(total)}${total === selected.length ? '' : ' under review'}`;
  const verb = unopened === 1 ? 'has' : 'have';
  const question = total === 1 ? `The selected document has not been opened. Approve it?` : `${unopened} ${of} ${verb} not been opened. Approve all ${total}?`;
  return { unopened, approvable: total, question };
}
