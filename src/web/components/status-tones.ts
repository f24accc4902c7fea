import { SCAN_FAILED_LABEL, type TDocumentStatus } from '../../contract';

/** Completion colours: 100 green; ≥ 75 light green; ≥ 50 yellow; ≥ 25 orange; below red. */
export function completionTone(percent: number): 'complete' | 'high' | 'medium' | 'low' | 'critical' {
  if (percent >= 100) return 'complete';
  if (percent >= 75) return 'high';
  if (percent >= 50) return 'medium';
  if (percent >= 25) return 'low';
  return 'critical';
}

/** How a document status reads ('pending' reads 'Under Review'; none reads 'Missing'). */
export const DOCUMENT_STATUS_LABELS: Record<TDocumentStatus, string> = {
  verified: 'Verified',
  pending: 'Under Review',
  processing: 'Processing',
  rejected: 'Rejected',
};

/** How a listed document's status reads: a document whose virus scan keeps failing says so, not 'Processing'. */
export function documentStatusLabel(status: TDocumentStatus, scanFailed = false): string {
  return scanFailed && status === 'processing' ? SCAN_FAILED_LABEL : DOCUMENT_STATUS_LABELS[status];
}

/** Shared with the server's report exports, so a file reads as the screen does. */
export { DOC_TYPE_COLUMN_LABELS, PLAYER_DOC_STATUS_LABELS } from '../../contract';
