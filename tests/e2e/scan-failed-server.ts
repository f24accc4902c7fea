import { runMain } from '../../src/server/main';

const HOUR = 60 * 60_000;

/**
 * The real server for the failed-scan spec (tests/e2e/scan-failed-support.ts): a document is shown as waiting
 * for a failed virus scan at its first failure, and its next automatic attempt is an hour away, so within the
 * spec only the Retry button runs the scan again. It does not read documents: the spec is not about reading.
 */
await runMain({ readDocuments: false, jobs: { scanRetry: { showAfterFailures: 1, backoff: { baseMs: HOUR, maxMs: HOUR }, budgetMs: 24 * HOUR } } });
