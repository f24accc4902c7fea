import type { TDocType, TSubmissionSource } from '../../contract';
import type { Envelope } from '../platform/crypto/envelope';
import type { Db } from '../platform/db/client';

/** The player details a submission carries, as the form or the e-mail gave them (already validated). */
export type SubmittedPlayer = {
  season: string;
  division: 'AAA' | 'AA' | 'A' | 'TEST' | 'Peewee';
  firstName: string;
  lastName: string;
  birthDate: string;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianPhone: string | null;
};

/**
 * A player the server already knows (a family's upload link names them and the season): the submission is
 * theirs whatever its fields say. Nothing about the player or their registration is changed by it.
 */
export type KnownPlayer = { kind: 'known'; playerId: string; seasonId: string };

/** What the recording transaction did, for a caller's own writes in that transaction. */
export type RecordedInTransaction = { submissionId: string; playerId: string; seasonId: string; documents: IntakeDocumentResult[] };

/** A file written encrypted to staging, waiting for the pipeline. */
export type StagedFile = {
  kind: 'staged';
  originalFilename: string;
  declaredType: TDocType | null;
  stagedKey: string;
  envelope: Envelope;
  sha256: string;
  bytes: number;
  mime: string;
  extension: string;
};

/** A file refused at intake (empty, too large, not a PDF or image …): recorded as rejected, never stored. */
export type RefusedFile = {
  kind: 'refused';
  originalFilename: string;
  declaredType: TDocType | null;
  code: string;
  message: string;
  bytes: number;
};

/** One input type for every source (form, e-mail, staff upload, test). */
export type IntakeSubmission = {
  id: string;
  source: TSubmissionSource;
  externalId: string;
  receivedAt: Date;
  fromEmail: string | null;
  subject: string | null;
  /** The player as the submission describes them (found or created by their derived id), or one already known. */
  player: SubmittedPlayer | KnownPlayer;
  files: Array<StagedFile | RefusedFile>;
  /** The family upload link it came through (source `family`). */
  uploadLinkId?: string;
  /**
   * The caller's own steps in the recording transaction: `before` runs first (a lock, a limit; throwing refuses
   * the submission and leaves nothing), `after` once its rows are written (an audit of its own). Neither runs
   * for a replay of an external id already recorded.
   */
  inTransaction?: { before?(tx: Db): Promise<void>; after?(tx: Db, recorded: RecordedInTransaction): Promise<void> };
  /** A failed submission this one takes the place of (a staff retry): deleted in the same transaction. */
  replaces?: string;
};

export type IntakeDocumentResult = { id: string; status: string; duplicateOf?: string; message?: string };

export type IntakeResult = {
  submissionId: string;
  /** False when this external id was seen before: nothing new was created. */
  created: boolean;
  documents: IntakeDocumentResult[];
  /** Staged objects that must be deleted after commit (duplicates, replays). */
  discardStagedKeys: string[];
};
