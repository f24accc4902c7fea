/**
 * Submission rows: the form posts and e-mails that brought a registration's documents, and the ones
 * that failed before any document was made.
 */
import { DOC_TYPE_LABELS, type TSubmissionSource } from '../../contract';
import { MINUTE_MS, type Child, type Generation, type PlannedDocument, type RegistrationRef } from './generation-state';
import { EMAIL_DOMAINS, MAIL_HOSTS } from './name-pools';
import type { Random } from './seeded-random';

/** Failures phrased so staff know what to do next. */
const SUBMISSION_FAILURES: ReadonlyArray<{ message: string; source: TSubmissionSource; identified: boolean }> = [
  { message: 'No player name found in the e-mail', source: 'mailbox', identified: false },
  { message: 'Attachment is not a PDF or image', source: 'mailbox', identified: true },
  { message: 'Virus found: Eicar-Test-Signature', source: 'mailbox', identified: true },
  { message: 'No attachments found in the e-mail', source: 'mailbox', identified: true },
  { message: 'Birth date is missing from the form', source: 'form', identified: false },
];

/**
 * One submission carrying `batch`: an e-mail gets a subject and the fields a parent writes, a form post
 * the form's fields. Returns its id and when it arrived, for the documents it carries.
 */
export function addSubmission(
  generation: Generation,
  ref: RegistrationRef,
  requestedSource: TSubmissionSource,
  receivedAt: Date,
  batch: readonly PlannedDocument[],
  status: 'pending' | 'processed',
): SubmissionRef {
  const { random } = generation;
  const { child } = ref.player;
  // A mailbox submission needs a sender, and an e-mail with no files would not register anyone.
  const source = child.guardianEmail === null || batch.length === 0 ? 'form' : requestedSource;
  const id = random.nextUuid();
  const isMailbox = source === 'mailbox';
  generation.data.submissions.push({
    id,
    source,
    externalId: nextExternalId(generation, source),
    receivedAt,
    fromEmail: child.guardianEmail,
    subject: isMailbox ? composeSubject(random, child, batch) : null,
    playerId: ref.player.id,
    seasonId: ref.season.id,
    fields: isMailbox ? describeMailboxFields(ref) : describeFormFields(ref),
    status,
    errorMessage: null,
    attachmentCount: batch.length,
    createdAt: receivedAt,
  });
  return { id, receivedAt };
}

export interface SubmissionRef {
  id: string;
  receivedAt: Date;
}

function nextExternalId(generation: Generation, source: TSubmissionSource): string {
  if (source === 'mailbox') {
    generation.mailboxCounter += 1;
    // Fixed-width random part + counter: unique by construction, still looks like a Message-ID.
    const local = `${generation.random.nextHex(10)}.${generation.mailboxCounter.toString(36)}`;
    return `<${local}@${generation.random.pickOne(MAIL_HOSTS)}>`;
  }
  generation.formCounter += 1;
  return `form-${String(generation.formCounter).padStart(6, '0')}`;
}

function composeSubject(random: Random, child: Child, batch: readonly PlannedDocument[]): string | null {
  const fullName = `${child.firstName} ${child.lastName}`;
  const firstType = batch[0]?.docType;
  const roll = random.nextFloat();
  if (roll < 0.1) return null;
  if (roll < 0.55) return `Registration documents for ${fullName}`;
  if (roll < 0.75 && firstType) return `${DOC_TYPE_LABELS[firstType]} - ${fullName}`;
  if (roll < 0.9) return `Fwd: ${child.firstName}'s paperwork`;
  return `Re: Missing documents for ${fullName}`;
}

function describeFormFields(ref: RegistrationRef): Record<string, string> {
  const { child } = ref.player;
  const fields: Record<string, string> = {
    playerFirstName: child.firstName,
    playerLastName: child.lastName,
    birthDate: child.birthDate,
    division: ref.division,
    season: ref.season.name,
  };
  if (child.guardianName !== null) fields.guardianName = child.guardianName;
  if (child.guardianEmail !== null) fields.guardianEmail = child.guardianEmail;
  if (child.guardianPhone !== null) fields.guardianPhone = child.guardianPhone;
  return fields;
}

function describeMailboxFields(ref: RegistrationRef): Record<string, string> {
  const { child } = ref.player;
  return {
    playerName: `${child.firstName} ${child.lastName}`,
    birthDate: child.birthDate,
    division: ref.division,
  };
}

/**
 * The newest failures: three in the last day and three in the last week, one of each message at least,
 * so the mailbox panel's "today" numbers include failures whatever the size of the demo.
 */
export function generateRecentFailures(generation: Generation): void {
  const { random, nowMs } = generation;
  const pool = generation.currentSample.length > 0 ? generation.currentSample : [generation.firstRegistration];
  for (let i = 0; i < 6; i += 1) {
    const ref = random.pickOne(pool);
    if (!ref) return;
    const minutesAgo = i < 3 ? random.nextInt(10, 20 * 60) : random.nextInt(26 * 60, 6 * 24 * 60);
    addFailedSubmission(generation, ref, nowMs - minutesAgo * MINUTE_MS, SUBMISSION_FAILURES[i % SUBMISSION_FAILURES.length]);
  }
}

/** A failed submission never produced a document; the ones no player could be read from have no player. */
export function addFailedSubmission(
  generation: Generation,
  ref: RegistrationRef,
  receivedMs: number,
  failure = SUBMISSION_FAILURES[generation.failureCounter++ % SUBMISSION_FAILURES.length],
): void {
  if (!failure) return;
  const { random } = generation;
  const receivedAt = new Date(Math.floor(receivedMs));
  const { child } = ref.player;
  const isMailbox = failure.source === 'mailbox';
  const fromEmail = child.guardianEmail ?? `parent${random.nextInt(1, 999)}@${random.pickOne(EMAIL_DOMAINS)}`;
  const attachmentCount = failure.message.startsWith('No attachments') ? 0 : random.nextInt(1, 3);
  generation.data.submissions.push({
    id: random.nextUuid(),
    source: failure.source,
    externalId: nextExternalId(generation, failure.source),
    receivedAt,
    fromEmail,
    subject: isMailbox
      ? failure.identified
        ? `Registration documents for ${child.firstName} ${child.lastName}`
        : random.pickOne([null, 'Documents', 'Sign up', 'Fwd: forms'])
      : null,
    playerId: failure.identified ? ref.player.id : null,
    seasonId: ref.season.id,
    fields: failure.identified
      ? describeMailboxFields(ref)
      : isMailbox
        ? {}
        : { playerFirstName: child.firstName, playerLastName: child.lastName },
    status: 'failed',
    errorMessage: failure.message,
    attachmentCount,
    createdAt: receivedAt,
  });
}
