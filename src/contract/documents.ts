import { z } from 'zod';
import { ZDocType, ZDocumentStatus } from './domain';
import { ZExtracted, ZReadingCheck, ZReadingState } from './reading';

/** A row of the recent-uploads lists. */
export const ZUploadItem = z.object({
  id: z.string(),
  fileName: z.string(),
  playerId: z.string(),
  playerName: z.string(),
  docType: ZDocType.nullable(),
  status: ZDocumentStatus,
  uploadedAt: z.string(),
  bytes: z.number(),
  fileSha256: z.string().nullable(),
  /**
   * Still processing because its virus scan keeps failing (the scanner is down or refused it): shown as
   * 'Scan failed, will retry'. Retried automatically for a day, and at once with POST /api/documents/{id}/retry-scan.
   */
  scanFailed: z.boolean(),
});
export type TUploadItem = z.infer<typeof ZUploadItem>;

export const ZRecentUploadsQuery = z.object({
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(10),
});
export const ZRecentUploads = z.object({ uploads: z.array(ZUploadItem) });
export type TRecentUploads = z.infer<typeof ZRecentUploads>;

/**
 * The facts an approval records for the season's requirement rules: the date of birth a birth certificate
 * shows (it locks the player's date of birth), a medical form's exam date or a residency document's date
 * (`documentDate`, from which an approval that lasts months is counted), and the residency group.
 */
export const ZDocumentFacts = z.object({
  birthDate: z.string().nullable(),
  documentDate: z.string().nullable(),
  residencyGroup: z.string().nullable(),
});
export type TDocumentFacts = z.infer<typeof ZDocumentFacts>;

/** One stored document as the API shows it, with the review fields staff act on. */
export const ZDocument = z.object({
  id: z.string(),
  docType: ZDocType.nullable(),
  originalFilename: z.string(),
  status: ZDocumentStatus,
  uploadedAt: z.string(),
  bytes: z.number(),
  fileSha256: z.string().nullable(),
  /** `s3://bucket/key` or `file://…`: a location, never a public link; null when no file is stored. */
  storageUrl: z.string().nullable(),
  /** Where the file is kept (`local`: on this server, `s3`: in the S3 bucket), for screens to say in words; null when no file is stored. */
  storageDriver: z.enum(['local', 's3']).nullable(),
  guardianEmail: z.string().nullable(),
  guardianPhone: z.string().nullable(),
  reviewNotes: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** Still processing because its virus scan keeps failing: shown as 'Scan failed, will retry' (see ZUploadItem). */
  scanFailed: z.boolean(),
  /** What the approval recorded for the season's rules (see ZDocumentFacts). */
  facts: ZDocumentFacts,
  /** Who approved or rejected it, in words (a person's name, 'Shared password'); null before a review. */
  reviewedBy: z.string().nullable(),
  /**
   * Set when the stored file of a verified document was deleted on purpose (verify, then minimise): the
   * verification, its facts and the SHA-256 stay, and the document still counts. ISO; null while the file is kept.
   */
  fileRemovedAt: z.string().nullable(),
  /** What reading the document found; every field null until it is read, or when it was not found. */
  extracted: ZExtracted,
  /** What the extracted facts disagree with (the registration, the declared type, the date); empty when nothing does. */
  checks: z.array(ZReadingCheck),
  /** Where its reading stands, how it was read (its PDF's text, or OCR) and when. */
  reading: z.object({
    state: ZReadingState,
    method: z.enum(['pdf-text', 'ocr']).nullable(),
    readAt: z.string().nullable(),
  }),
});
export type TDocument = z.infer<typeof ZDocument>;


/** The decisions a review makes on a document under review; back to Under Review is POST /api/documents/{id}/reopen. */
export const REVIEW_STATUSES = ['verified', 'rejected'] as const;
export const ZDocumentStatusChange = z
  .object({
    status: z.enum(REVIEW_STATUSES, { error: 'must be verified or rejected (to put a document back under review, reopen it)' }),
    reviewNotes: z.string().trim().max(2000, 'must be at most 2000 characters').optional(),
    /** With a rejection: e-mail the guardian the 'Document Rejected' template with the reason, after the change commits. */
    notifyGuardian: z.boolean({ error: 'must be true or false' }).optional(),
    /** Approving a birth certificate: the date of birth it shows (YYYY-MM-DD). It becomes the player's, locked. */
    birthDate: z.iso.date('must be a date such as 2016-04-30').optional(),
    /**
     * Approving a birth certificate whose date differs from the player's registered one: true to change the
     * player's date of birth to the certificate's. Without it, such an approval is refused (409) with both dates.
     */
    confirmBirthDateChange: z.boolean({ error: 'must be true or false' }).optional(),
    /** Approving a medical form: its exam date; a residency document: the date it bears (YYYY-MM-DD). */
    documentDate: z.iso.date('must be a date such as 2026-03-15').optional(),
    /** Approving a residency document: which of the season's residency groups it belongs to. */
    residencyGroup: z.string().trim().min(1, 'must name a group').max(120, 'must be at most 120 characters').optional(),
  })
  .refine((change) => change.status !== 'rejected' || (change.reviewNotes ?? '').length > 0, {
    path: ['reviewNotes'],
    message: 'a reason is required to reject a document',
  });
export type TDocumentStatusChange = z.infer<typeof ZDocumentStatusChange>;

/** POST /api/documents/{id}/reopen: a verified or rejected document goes back to Under Review, saying why. */
export const ZDocumentReopen = z.object({
  reason: z
    .string({ error: 'a reason is required to reopen a document' })
    .trim()
    .min(1, 'a reason is required to reopen a document')
    .max(2000, 'must be at most 2000 characters'),
});
export type TDocumentReopen = z.infer<typeof ZDocumentReopen>;

export const ZUploadToStorageRequest = z.object({
  documentIds: z
    .array(z.uuid('must be document ids'))
    .min(1, 'No documents to upload. Please select documents.')
    .max(500, 'at most 500 documents at a time'),
});
export const ZUploadToStorageResponse = z.object({ uploaded: z.number() });

/** A row of the Documents screen: an upload item with what review shows. */
export const ZDocumentListItem = ZUploadItem.extend({
  division: z.string().nullable(),
  reviewNotes: z.string().nullable(),
  /** Where the file is kept (`local` or `s3`); null when nothing is stored (refused when it arrived, past retention). */
  storageDriver: z.enum(['local', 's3']).nullable(),
  /** Whether anyone has opened its file (viewed or downloaded it) since it arrived. */
  opened: z.boolean(),
  /** Verified, and its file deleted on purpose afterwards (verify, then minimise): shown as 'Verified, file removed'. */
  fileRemoved: z.boolean(),
});
export type TDocumentListItem = z.infer<typeof ZDocumentListItem>;

/** `scan_failed`: the documents still processing whose virus scan keeps failing. */
export const DOCUMENT_STATUS_FILTERS = ['all', 'verified', 'pending', 'processing', 'scan_failed', 'rejected'] as const;
export const DOC_TYPE_FILTERS = ['all', 'birth_certificate', 'residency', 'medical', 'waiver', 'undetected'] as const;
export const MAX_DOCUMENTS_PAGE_SIZE = 100;

export const DOCUMENT_SORTS = ['newest', 'oldest'] as const;

/**
 * GET /api/documents: newest first (`sort=oldest`: the review queue's order). `search` is a substring of the
 * player's name or the file name, ignoring case and accents; for staff who may open files, it also finds
 * documents whose text holds every word searched (whole words of at least MIN_CONTENT_SEARCH_WORD letters).
 */
export const ZDocumentListQuery = z.object({
  search: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  status: z.enum(DOCUMENT_STATUS_FILTERS, { error: 'must be all, verified, pending, processing, scan_failed or rejected' }).default('all'),
  docType: z.enum(DOC_TYPE_FILTERS, { error: 'must be all, a document type or undetected' }).default('all'),
  /** A year or a season id; omitted = every season. */
  season: z
    .string()
    .trim()
    .regex(/^(\d{4}|[a-z0-9][a-z0-9-]{0,39})$/, 'must be a year such as 2025 or a season id such as fall-2025')
    .optional(),
  sort: z.enum(DOCUMENT_SORTS, { error: 'must be newest or oldest' }).default('newest'),
  page: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').default(1),
  pageSize: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_DOCUMENTS_PAGE_SIZE, `must be at most ${MAX_DOCUMENTS_PAGE_SIZE}`)
    .default(50),
});
export type TDocumentListQuery = z.input<typeof ZDocumentListQuery>;
/**
 * One page of GET /api/documents and how many documents match in all. `total` is exact while at most about a
 * thousand match (or the page reaches the end of the list); past that it is the database's estimate, and
 * `totalIsEstimate` says so: screens show it as an estimate ('about 12,400 documents'), never as a count. An
 * estimate is never below the documents this page shows with those before it, nor above what came before an
 * empty page past the end. Paging on past an estimate is safe: a page past the real end answers no documents.
 */
export const ZDocumentList = z.object({
  documents: z.array(ZDocumentListItem),
  total: z.number(),
  /** `total` is the database's estimate of how many match (more than counting them would be worth), not a count. */
  totalIsEstimate: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
});
export type TDocumentList = z.infer<typeof ZDocumentList>;

/** POST /api/documents/status: one review decision for many documents (bulk approve). */
export const ZBulkStatusChange = z.object({
  documentIds: z
    .array(z.uuid('must be document ids'))
    .min(1, 'Select at least one document.')
    .max(500, 'at most 500 documents at a time'),
  status: z.literal('verified', { error: 'only approving (verified) is offered for many documents at once' }),
});
export const ZBulkStatusResult = z.object({
  updated: z.number(),
  /** Documents left as they were, each with why (not pending any more, unknown). */
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
});
export type TBulkStatusResult = z.infer<typeof ZBulkStatusResult>;

/** GET /api/documents/{id}/history: the document's audit trail, oldest first. */
export const ZDocumentHistory = z.object({
  events: z.array(
    z.object({
      at: z.string(),
      /** The kind of actor: 'user', 'shared-password', 'system', or the intake channel. */
      actor: z.string(),
      /** Who, in words: the person's name, 'Shared password', 'System', 'Registration form'... */
      actorName: z.string(),
      action: z.string(),
      /** One sentence for people, e.g. 'Status changed from pending to rejected: blurry scan'. */
      summary: z.string(),
    }),
  ),
});
export type TDocumentHistory = z.infer<typeof ZDocumentHistory>;

/** The label of a verified document whose file was removed after verification, wherever its status is shown. */
export const FILE_REMOVED_LABEL = 'Verified, file removed';

/** The label of a document whose virus scan keeps failing, wherever a document's status is shown. */
export const SCAN_FAILED_LABEL = 'Scan failed, will retry';

/** The `{id}` of the /api/documents/{id}/… routes. */
export const ZDocumentIdParams = z.object({ id: z.uuid('must be a document id') });

/** POST /api/documents/{id}/retry-scan: the document's scan is queued to run at once. */
export const ZScanRetryResult = z.object({
  id: z.string(),
  /** A sentence for a toast, e.g. 'The virus scan of birth.pdf will run again now.' */
  message: z.string(),
});
export type TScanRetryResult = z.infer<typeof ZScanRetryResult>;
