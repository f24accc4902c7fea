import { z } from 'zod';
import { ZDocType, ZDocumentStatus } from './domain';

/** A row of the recent-uploads lists (spec §3 'Upload item'). */
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
});
export type TUploadItem = z.infer<typeof ZUploadItem>;

export const ZRecentUploadsQuery = z.object({
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(10),
});
export const ZRecentUploads = z.object({ uploads: z.array(ZUploadItem) });
export type TRecentUploads = z.infer<typeof ZRecentUploads>;

/** spec §3 'Document', with the review fields staff act on. */
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
  guardianEmail: z.string().nullable(),
  guardianPhone: z.string().nullable(),
  reviewNotes: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type TDocument = z.infer<typeof ZDocument>;

export const REVIEW_STATUSES = ['verified', 'rejected', 'pending'] as const;
export const ZDocumentStatusChange = z
  .object({
    status: z.enum(REVIEW_STATUSES, { error: 'must be verified, rejected or pending' }),
    reviewNotes: z.string().trim().max(2000, 'must be at most 2000 characters').optional(),
  })
  .refine((change) => change.status !== 'rejected' || (change.reviewNotes ?? '').length > 0, {
    path: ['reviewNotes'],
    message: 'a reason is required to reject a document',
  });
export type TDocumentStatusChange = z.infer<typeof ZDocumentStatusChange>;

export const ZUploadToStorageRequest = z.object({
  documentIds: z
    .array(z.uuid('must be document ids'))
    .min(1, 'No documents to upload. Please select documents.')
    .max(500, 'at most 500 documents at a time'),
});
export const ZUploadToStorageResponse = z.object({ uploaded: z.number() });
