import type { TJobPayload } from '../../contract';
import { findDocumentForPipeline, updateDocument, type DocumentRow } from '../documents';
import type { JobHandler, JobOutcome } from '../platform/jobs/job-runner';
import { JOB_STAGES, type DocumentInFlight, type ProcessDocumentDeps } from './stages';

export { DEFAULT_SCAN_RETRY, type ProcessDocumentDeps, type ScanRetryPolicy } from './stages';

const done: JobOutcome = { kind: 'done' };

/**
 * Takes one staged document through the job's stages of the pipeline (STAGES: scan → type detection →
 * naming → store → record + audit → live event), in their order. Safe to re-run at any point after a crash:
 * the final key is deterministic, the move overwrites, the record is one transaction, and a leftover staging
 * object is deleted on the next run.
 */
export function createProcessDocumentHandler(deps: ProcessDocumentDeps): JobHandler<TJobPayload<'process-document'>> {
  return async ({ documentId, extension }, job) => {
    const found = await findDocumentForPipeline(deps.db, documentId);
    if (!found) return { kind: 'fail', reason: `document ${documentId} does not exist, or its player or season is gone` };
    const { document } = found;
    if (document.status !== 'processing') {
      await discardStaged(deps, document);
      return done;
    }
    if (!document.stagedKey || !document.wrappedKey || !document.iv || !document.authTag) {
      return { kind: 'fail', reason: `document ${documentId} has no staged file` };
    }
    const flight: DocumentInFlight = {
      deps,
      found,
      document,
      stagedKey: document.stagedKey,
      envelope: { wrappedKey: document.wrappedKey, iv: document.iv, authTag: document.authTag },
      extension,
      files: found.submissionFiles ?? 1,
      attempt: job.attempt,
    };
    for (const stage of JOB_STAGES) {
      const stop = await stage.run(flight);
      if (stop) return stop;
    }
    return done;
  };
}

async function discardStaged(deps: ProcessDocumentDeps, document: DocumentRow): Promise<void> {
  if (!document.stagedKey) return;
  await deps.storage.delete(document.stagedKey);
  await updateDocument(deps.db, document.id, { stagedKey: null });
}
