/** The Documents screen: every uploaded document, to filter, review, approve or reject. */
export { DocumentsPage } from './components/documents-page';
