/** The Reports screen: a season's report for a division, with its charts and exports. */
export { ReportsPage } from './components/reports-page';
