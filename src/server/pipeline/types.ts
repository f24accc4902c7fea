import type { TDocType, TSubmissionSource } from '../../contract';
import type { Envelope } from '../platform/crypto/envelope';

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
  player: SubmittedPlayer;
  files: Array<StagedFile | RefusedFile>;
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
