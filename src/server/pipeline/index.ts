export { DEFAULT_SCAN_RETRY, createProcessDocumentHandler, type ScanRetryPolicy } from './process-document';
export { PROCESS_DOCUMENT_QUEUE, recordFailedSubmission, recordStagedSubmission, recordSubmission } from './record-submission';
export { detectDocType } from './stages/detect-doc-type';
export { ACCEPTED_FILE_TYPES, sanitizeOriginalFilename, validateFile } from './stages/validate';
export { createStagingSweeperTimer, discardStaged, stagedKey } from './staging-sweeper';
export { STORED_PATH_FORMAT, buildStoredPath, sanitizeStoredName } from './stored-path';
export { findPendingSubmissionIds, findSubmission, findSubmissionByExternalId, insertSubmissions, type NewSubmission } from './submissions.repository';
export { type IntakeResult, type RefusedFile, type StagedFile, type SubmittedPlayer } from './types';
