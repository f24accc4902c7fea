/**
 * The stages every document goes through, in order: the server runs them from this list and the App Workflow
 * screen explains them from it, so the two cannot disagree.
 *
 * `runs` says where: `intake` stages run while a submission is received (the file is validated, hashed and
 * sealed as it streams in, so no plain copy ever touches the disk, then the submission is recorded against its
 * player); `job` stages run afterwards in the background job that finishes the document; `reading` runs once the
 * document is stored and shown, in a queue of its own (Settings → System can turn it off). Within each, stages run
 * in list order.
 */
export const PIPELINE_STAGES = [
  { id: 'intake', title: 'Intake', runs: 'intake' },
  { id: 'extract', title: 'Extract player info', runs: 'intake' },
  { id: 'validate', title: 'Download and validate the file', runs: 'intake' },
  { id: 'scan', title: 'Antivirus scan', runs: 'job' },
  { id: 'hash', title: 'Hash (SHA-256)', runs: 'intake' },
  { id: 'player-id', title: 'Player id', runs: 'intake' },
  { id: 'doc-type', title: 'Document type detection', runs: 'job' },
  { id: 'rename', title: 'Rename', runs: 'job' },
  { id: 'store', title: 'Encrypted upload to storage (AES-256)', runs: 'job' },
  { id: 'record', title: 'Database record', runs: 'job' },
  { id: 'notify', title: 'Notifications and audit', runs: 'job' },
  { id: 'read', title: 'Read the document (type, names, dates)', runs: 'reading' },
] as const;

export type TPipelineStage = (typeof PIPELINE_STAGES)[number];
export type TPipelineStageId = TPipelineStage['id'];
/** The stages the background job runs, in order. */
export type TJobStageId = Extract<TPipelineStage, { runs: 'job' }>['id'];
