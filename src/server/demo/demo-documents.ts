/**
 * The documents of a registration: which of the four are sent and how they end up, the submissions that
 * carry them, file names and sizes, reviews, and corrected files after a rejection.
 */
import { DEFAULT_RETENTION_YEARS, DOC_TYPES, type TDocType, type TDocumentStatus, type TSubmissionSource } from '../../contract';
import { buildStoredPath } from '../files';
import type { DocumentOutcome, SeasonPlan } from './demo-seasons';
import { addSubmission, type SubmissionRef } from './demo-submissions';
import {
  DAY_MS,
  HOUR_MS,
  pickTimeAfter,
  type Child,
  type Generation,
  type PlannedDocument,
  type RecentSlot,
  type RegistrationRef,
} from './generation-state';
import { buildWeightedTable, type Random } from './seeded-random';

/** Files that arrived in the last week have mostly not been looked at yet. */
const RECENT_OUTCOMES = buildWeightedTable<DocumentOutcome>([
  ['pending', 55],
  ['processing', 10],
  ['verified', 17],
  ['rejected', 4],
  ['missing', 14],
]);

/** How documents arrive: most through the registration form, the rest by e-mail. */
const SOURCE_WEIGHTS = buildWeightedTable<TSubmissionSource>([
  ['form', 70],
  ['mailbox', 30],
]);

/** About 1% of documents: one extra, unrecognised file in ~3.5% of registrations (≈3.5 documents each). */
const UNDETECTED_SHARE = 0.035;
/** Rejected documents followed by a corrected file. */
const REPLACED_AFTER_REJECTION_SHARE = 0.5;
/** Registrations whose documents come in two submissions rather than one. */
const SPLIT_SUBMISSION_SHARE = 0.25;

/** Review notes of a rejected document, by its type. */
const REJECTION_REASONS: Readonly<Record<TDocType, readonly string[]>> = {
  birth_certificate: [
    'Image is blurry; the birth date cannot be read',
    'Name on the certificate does not match the player',
    'Only the first page was sent',
  ],
  residency: [
    'Proof of residency is older than 90 days',
    'Address is outside the league boundary',
    'Guardian name is not on the document',
  ],
  medical: [
    'Physician signature is missing',
    'Medical form is from last season',
    'Page 2 of the medical form is missing',
  ],
  waiver: ['Waiver is not signed by a guardian', 'Wrong season on the waiver', 'Waiver page is cut off'],
};

/** The kinds of file parents send, with the size range of each. */
interface FileKind {
  extension: string;
  mime: string;
  minBytes: number;
  maxBytes: number;
}
const PDF: FileKind = { extension: 'pdf', mime: 'application/pdf', minBytes: 30 * 1024, maxBytes: 1_600 * 1024 };
const JPEG: FileKind = { extension: 'jpg', mime: 'image/jpeg', minBytes: 600 * 1024, maxBytes: 4 * 1024 * 1024 };
const PNG: FileKind = { extension: 'png', mime: 'image/png', minBytes: 300 * 1024, maxBytes: 3 * 1024 * 1024 };

/**
 * The submissions and documents of one registration, from the moment the player registered
 * (`registeredMs`, and `registeredAt` as the registration row has it) on.
 */
export function generateRegistrationDocuments(
  generation: Generation,
  ref: RegistrationRef,
  registeredMs: number,
  registeredAt: Date,
  recent: RecentSlot | undefined,
): void {
  const { random, nowMs } = generation;
  const { season } = ref;
  const planned = planDocuments(random, season, recent);
  const lastActivityMs = Math.min(season.windowEndMs, nowMs);
  // Most families send everything at once; some send the rest within the next weeks.
  const canSplit = planned.length >= 2 && !recent && lastActivityMs - registeredMs > DAY_MS;
  const splitAt = canSplit && random.rollChance(SPLIT_SUBMISSION_SHARE)
    ? random.nextInt(1, planned.length - 1)
    : planned.length;
  const firstSource: TSubmissionSource = recent ? 'mailbox' : random.pickWeighted(SOURCE_WEIGHTS);
  const rejected: Array<{ docType: TDocType | null; reviewedAt: Date }> = [];

  const firstBatch = planned.slice(0, splitAt);
  const firstStatus = recent === 'queued' ? 'pending' : 'processed';
  const firstSubmission = addSubmission(generation, ref, firstSource, registeredAt, firstBatch, firstStatus);
  rejected.push(...addDocuments(generation, ref, firstSubmission, firstBatch));

  if (splitAt < planned.length) {
    const laterMs = pickTimeAfter(random, registeredMs, Math.min(registeredMs + 40 * DAY_MS, lastActivityMs));
    const laterBatch = planned.slice(splitAt);
    const later = addSubmission(generation, ref, random.pickWeighted(SOURCE_WEIGHTS), new Date(laterMs), laterBatch, 'processed');
    rejected.push(...addDocuments(generation, ref, later, laterBatch));
  }

  // A rejected file is often followed by a corrected one; the newest decides the player's status.
  for (const { docType, reviewedAt } of rejected) {
    if (docType === null || !random.rollChance(REPLACED_AFTER_REJECTION_SHARE)) continue;
    const reviewedMs = reviewedAt.getTime();
    // Rejected at the very end of the season: nobody sends a corrected file after it closed.
    if (lastActivityMs - reviewedMs < HOUR_MS) continue;
    const replacementMs = pickTimeAfter(random, reviewedMs, Math.min(reviewedMs + 10 * DAY_MS, lastActivityMs));
    const status: TDocumentStatus = season.isCurrent
      ? random.pickOne(['pending', 'pending', 'processing', 'verified'] as const)
      : random.rollChance(0.9) ? 'verified' : 'pending';
    const batch = [{ docType, status }];
    const source = random.pickWeighted(SOURCE_WEIGHTS);
    const resubmission = addSubmission(generation, ref, source, new Date(replacementMs), batch, 'processed');
    addDocuments(generation, ref, resubmission, batch);
  }
}

function planDocuments(random: Random, season: SeasonPlan, recent: RecentSlot | undefined): PlannedDocument[] {
  const planned: PlannedDocument[] = [];
  const allVerified = !recent && random.rollChance(season.allVerifiedShare);
  const outcomes = recent ? RECENT_OUTCOMES : season.documentOutcomes;
  for (const docType of DOC_TYPES) {
    const outcome = allVerified ? 'verified' : random.pickWeighted(outcomes);
    if (outcome === 'missing') continue;
    // Still in the pipeline: nothing about these files is decided yet.
    planned.push({ docType, status: recent === 'queued' ? 'processing' : outcome });
  }
  // Type detection has not run on queued files yet, so only processed submissions hold undetected ones.
  if (recent !== 'queued' && random.rollChance(UNDETECTED_SHARE)) planned.push({ docType: null, status: 'pending' });
  return planned;
}

/** How long before it is sent a medical form's exam took place, in weeks. */
const MEDICAL_EXAM_WEEKS_BEFORE = { min: 1, max: 10 } as const;

/** Adds the batch's documents; returns the rejected ones so a replacement can follow. */
function addDocuments(
  generation: Generation,
  ref: RegistrationRef,
  submission: SubmissionRef,
  batch: readonly PlannedDocument[],
): Array<{ docType: TDocType | null; reviewedAt: Date }> {
  const { random, nowMs } = generation;
  const { child } = ref.player;
  const rejected: Array<{ docType: TDocType | null; reviewedAt: Date }> = [];
  for (const planned of batch) {
    const file = nameFile(random, child, planned.docType, ref.season.year);
    const fileSha256 = random.nextHex(64);
    const uploadedMs = Math.min(submission.receivedAt.getTime() + random.nextInt(5, 180) * 1000, nowMs);
    const reviewed = planned.status === 'verified' || planned.status === 'rejected';
    const reviewedAt = reviewed
      ? new Date(pickTimeAfter(random, uploadedMs, Math.min(uploadedMs + 4 * DAY_MS, nowMs)))
      : null;
    const storedPath = buildStoredPath({
      year: ref.season.year,
      division: ref.division,
      storedName: child.storedName,
      birthDate: child.birthDate,
      playerId: ref.player.id,
      docType: planned.docType,
      submissionId: submission.id,
      fileSha256,
      extension: file.kind.extension,
    });
    const uploadedAt = new Date(uploadedMs);
    // A verified medical form records its exam date, some weeks before it was sent: its year runs from then.
    const documentDate =
      planned.status === 'verified' && planned.docType === 'medical'
        ? new Date(uploadedMs - random.nextInt(MEDICAL_EXAM_WEEKS_BEFORE.min * 7, MEDICAL_EXAM_WEEKS_BEFORE.max * 7) * DAY_MS).toISOString().slice(0, 10)
        : null;
    const reviewNotes = planned.status === 'rejected' && planned.docType
      ? random.pickOne(REJECTION_REASONS[planned.docType])
      : null;
    generation.data.documents.push({
      id: random.nextUuid(),
      playerId: ref.player.id,
      seasonId: ref.season.id,
      submissionId: submission.id,
      docType: planned.docType,
      originalFilename: file.name,
      // The key holds no object yet: seeding with a file store writes the file there and adds its envelope (demo-files.ts).
      storedPath,
      storageDriver: 'local',
      storageKey: storedPath,
      status: planned.status,
      bytes: random.nextInt(file.kind.minBytes, file.kind.maxBytes),
      mime: file.kind.mime,
      fileSha256,
      uploadedAt,
      reviewedAt,
      reviewNotes,
      documentDate,
      retainUntil: addYears(uploadedAt, DEFAULT_RETENTION_YEARS),
      createdAt: uploadedAt,
    });
    if (planned.status === 'rejected' && reviewedAt) rejected.push({ docType: planned.docType, reviewedAt });
  }
  return rejected;
}

function addYears(date: Date, years: number): Date {
  const result = new Date(date.getTime());
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}

/** File names as parents really send them: tidy PDFs, phone photos, scanner defaults. */
function nameFile(random: Random, child: Child, docType: TDocType | null, year: number): { name: string; kind: FileKind } {
  const last = child.fileSurname;
  const first = child.firstName;
  const photo = (): { name: string; kind: FileKind } => {
    // Photos are JPEG or PNG, which a browser shows (phones send HEIC as JPEG to a web form).
    const kind = random.pickOne([JPEG, JPEG, JPEG, JPEG, PNG]);
    const stem = kind === PNG ? `Screenshot ${year}-${String(random.nextInt(1, 12)).padStart(2, '0')}-${String(random.nextInt(1, 28)).padStart(2, '0')}` : `IMG_${random.nextInt(1000, 9999)}`;
    return { name: `${stem}.${kind.extension}`, kind };
  };
  const pdf = (name: string) => ({ name, kind: PDF });
  const roll = random.nextFloat();
  if (roll < 0.25) return photo();
  switch (docType) {
    case 'birth_certificate':
      return pdf(random.pickOne([`birth_certificate_${last}.pdf`, `Birth Certificate - ${first}.pdf`, `scan_${random.nextInt(1, 999).toString().padStart(4, '0')}.pdf`]));
    case 'residency':
      return pdf(random.pickOne(['utility_bill.pdf', `Lease Agreement ${year}.pdf`, `proof_of_address_${last}.pdf`, 'bank statement.pdf']));
    case 'medical':
      return pdf(random.pickOne([`Medical Form - ${first}.pdf`, `physical_${year}_${last}.pdf`, 'sports_physical.pdf']));
    case 'waiver':
      return pdf(random.pickOne(['waiver_signed.pdf', `Liability Waiver - ${first} ${child.lastName}.pdf`, `waiver_${last}.pdf`]));
    case null:
      return pdf(random.pickOne(['document.pdf', `scan${random.nextInt(1, 99).toString().padStart(4, '0')}.pdf`, 'attachment.pdf', 'forms.pdf']));
  }
}
