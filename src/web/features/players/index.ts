/** The Players screen: every player of a season with the state of their registration documents. */
export { PlayersPage } from './components/players-page';
/** The dashboard's Document Status Overview: the player table with its filters, following the dashboard's season. */
export { DocumentStatusOverview } from './components/document-status-overview';
