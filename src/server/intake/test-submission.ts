import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TDocument } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import type { Actor } from '../audit';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { recordSubmission, stagedKey } from '../pipeline';
import { findCurrentSeason } from '../seasons';
import { onePagePdf } from '../files';
import { stageUpload } from './stage-file';

export type TestSubmissionDeps = {
  db: Db;
  storage: Storage;
  masterKey: Buffer;
  idPrefix: string;
  maxFileBytes: number;
  onRecorded: () => void;
  /** The document as the API shows it, whoever asks: the test's own document, in the TEST division. */
  readDocument: (id: string) => Promise<TDocument>;
};

/**
 * The pipeline test of Settings: a generated PDF for a TEST-division player, sent in like any other
 * submission, followed until the pipeline has settled it.
 */
export async function runTestSubmission(deps: TestSubmissionDeps, actor: Actor, timeoutMs = 30_000): Promise<TDocument> {
  const season = await findCurrentSeason(deps.db);
  if (!season) throw new AppError('CONFLICT', 'No season exists yet: create a season before running a test.');
  const submissionId = randomUUID();
  const pdf = generateTestPdf(new Date(), actor.requestId);
  const key = stagedKey(submissionId, 0);
  const file = await stageUpload(
    Readable.from([pdf]),
    { originalFilename: 'clearbase-test-waiver.pdf', declaredType: 'waiver', key },
    { storage: deps.storage, masterKey: deps.masterKey, maxFileBytes: deps.maxFileBytes },
  );
  if (file.kind !== 'staged') throw new AppError('INTERNAL', `The generated test file was refused: ${file.message}`);
  const result = await recordSubmission(deps.db, { idPrefix: deps.idPrefix }, {
    id: submissionId,
    source: 'test',
    externalId: `admin-test-${submissionId}`,
    receivedAt: new Date(),
    fromEmail: null,
    subject: 'Clearbase pipeline test',
    player: {
      season: season.id,
      division: 'TEST',
      firstName: 'Pipeline',
      lastName: 'Test',
      birthDate: '2015-01-01',
      guardianName: 'Clearbase Test',
      guardianEmail: 'test@example.org',
      guardianPhone: null,
    },
    files: [file],
  });
  deps.onRecorded();
  const documentId = result.documents[0]?.id;
  if (!documentId) throw new AppError('INTERNAL', 'The test submission created no document.');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const document = await deps.readDocument(documentId);
    if (document.status !== 'processing') return document;
    if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', 'The test document is still processing; check System Status.');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A minimal valid one-page PDF saying what it is and when it was made; unique per run. */
export function generateTestPdf(at: Date, nonce: string): Buffer {
  return onePagePdf(`Clearbase pipeline test - ${at.toISOString()} - ${nonce}`, 14);
}
