export { registerEligibilityRoutes } from './eligibility.routes';
export { createEligibilityService, type EligibilityService } from './eligibility.service';
export { EXPIRING, findPlayerRegistration, int, needsDocument, NEEDS_DOCUMENT_STATUSES, readExpiringRules } from './reports.repository';
export { registerReportRoutes } from './reports.routes';
export { createReportsService, listEveryFilteredPlayer, toReportRow, type ReportsService } from './reports.service';
export { registerSeasonReportRoutes } from './season-report.routes';
export { createSeasonReportService, type SeasonReportService } from './season-report.service';
