import type { TDocumentListItem, TPermission } from '../../../contract';
import type { Can } from '@/lib/session-api';

/** What can be done to one listed document, in the order the row shows them. */
export const DOCUMENT_ROW_ACTIONS = ['view', 'approve', 'reject', 'reopen', 'retryScan', 'download', 'history'] as const;
export type DocumentRowAction = (typeof DOCUMENT_ROW_ACTIONS)[number];

/** What can be done to the selected documents at once. */
export const DOCUMENT_BULK_ACTIONS = ['upload', 'export', 'approve'] as const;
export type DocumentBulkAction = (typeof DOCUMENT_BULK_ACTIONS)[number];

/** The permission each row action needs: the same the server's route for it declares. */
const ROW_ACTION_PERMISSION: Record<DocumentRowAction, TPermission> = {
  // The viewer reads the file to show it, so it is opening the file.
  view: 'files.open',
  approve: 'documents.review',
  reject: 'documents.review',
  reopen: 'documents.review',
  retryScan: 'documents.review',
  download: 'files.open',
  history: 'read',
};

/** The permission each bulk action needs. Export writes the listed rows to a CSV: reading them is enough. */
const BULK_ACTION_PERMISSION: Record<DocumentBulkAction, TPermission> = {
  upload: 'players.add',
  export: 'read',
  approve: 'documents.review',
};

/**
 * The row actions the signed-in role can use on this document: Approve and Reject only while it waits for
 * review, Reopen only once it is verified or rejected, Retry only while its virus scan keeps failing, View and
 * Download only while its file is kept; History always; each when the role holds its permission.
 */
export function documentRowActions(document: Pick<TDocumentListItem, 'status' | 'scanFailed' | 'fileRemoved'>, can: Can): DocumentRowAction[] {
  const pending = document.status === 'pending';
  // Verified, then its file removed on purpose: there is nothing left to open or download.
  const hasFile = !document.fileRemoved;
  const applies: Record<DocumentRowAction, boolean> = {
    view: hasFile,
    approve: pending,
    reject: pending,
    // Back under review, a document whose file was removed would have nothing to review.
    reopen: isReopenable(document.status) && hasFile,
    retryScan: document.scanFailed,
    download: hasFile,
    history: true,
  };
  return DOCUMENT_ROW_ACTIONS.filter((action) => applies[action] && can(ROW_ACTION_PERMISSION[action]));
}

/** A verified or rejected document can be put back under review (POST /api/documents/{id}/reopen). */
export const isReopenable = (status: TDocumentListItem['status']): boolean => status === 'verified' || status === 'rejected';

/** The bulk actions the signed-in role can use; rows are selectable only when there is at least one. */
export function documentBulkActions(can: Can): DocumentBulkAction[] {
  return DOCUMENT_BULK_ACTIONS.filter((action) => can(BULK_ACTION_PERMISSION[action]));
}

/** The actions that go in a row's More menu, when there are two or more of them. */
const MENU_ACTIONS: readonly DocumentRowAction[] = ['download', 'history'];

/**
 * How a row lays its actions out: View, Approve, Reject, Reopen and Retry as buttons, Download and History in a More
 * menu. A menu of one would hide its one action behind a click for nothing, so a lone one is a button too.
 */
export function rowActionLayout(actions: readonly DocumentRowAction[]): { buttons: DocumentRowAction[]; menu: DocumentRowAction[] } {
  const menu = actions.filter((action) => MENU_ACTIONS.includes(action));
  if (menu.length < 2) return { buttons: [...actions], menu: [] };
  return { buttons: actions.filter((action) => !MENU_ACTIONS.includes(action)), menu };
}
