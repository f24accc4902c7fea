/** The Documents screen: every uploaded document, to filter, review, approve or reject. */
export { DocumentsPage } from './components/documents-page';
/** Review from another screen (the player dialog): the approve/reject call, the approval step and the reject dialog with its reasons. */
export { useReviewDocument, type TReviewDecision } from './api';
export { approvalIsStale, needsApprovalStep } from './approval-step';
export { ApproveDocumentDialog, type ApproveTarget } from './components/approve-document-dialog';
export { RejectDocumentDialog, type RejectTarget } from './components/reject-document-dialog';
