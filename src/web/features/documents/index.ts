/** The Documents screen: every uploaded document, to filter, review, approve or reject. */
export { DocumentsPage } from './components/documents-page';
/** Review from another screen (the player dialog): the approve/reject call and the reject dialog with its reasons. */
export { useReviewDocument } from './api';
export { RejectDocumentDialog, type RejectTarget } from './components/reject-document-dialog';
