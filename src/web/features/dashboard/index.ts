/** The Dashboard: summary figures, mailbox intake, processing, system status and the document status overview. */
export { DashboardPage } from './components/dashboard-page';
