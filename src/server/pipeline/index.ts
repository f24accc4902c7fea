export { DEFAULT_SCAN_RETRY, createProcessDocumentHandler, type ScanRetryPolicy } from './process-document';
export { STAGES, type Stage } from './stages';
export { PROCESS_DOCUMENT_QUEUE, REFUSED_FILES_NOTICE_QUEUE, recordFailedSubmission, recordStagedSubmission, recordSubmission } from './record-submission';
export { createStagingSweeperTimer, discardStaged, stagedKey } from './staging-sweeper';
export { findPendingSubmissionIds, findSubmission, findSubmissionByExternalId, insertSubmissions, type NewSubmission } from './submissions.repository';
export { type IntakeResult, type KnownPlayer, type RecordedInTransaction, type RefusedFile, type StagedFile, type SubmittedPlayer } from './types';
