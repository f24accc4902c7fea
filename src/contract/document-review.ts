import { z } from 'zod';
import { ZDocType } from './domain';

/**
 * GET /api/documents/{id}/review: what the approval step asks with, beside the document itself: the player's
 * registered date of birth (a birth certificate's date is checked against it), whether a birth certificate
 * already verified it, and the season's residency groups (a residency document is filed under one of them).
 */
export const ZDocumentReviewContext = z.object({
  documentId: z.string(),
  docType: ZDocType.nullable(),
  seasonId: z.string(),
  player: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** The registered date of birth (YYYY-MM-DD). */
    birthDate: z.string(),
    /** When a verified birth certificate locked the date of birth (ISO); null while it is not verified. */
    birthDateVerifiedAt: z.string().nullable(),
  }),
  /** The groups the season's residency rule lists; empty when it lists none (no group is asked). */
  residencyGroups: z.array(z.string()),
});
export type TDocumentReviewContext = z.infer<typeof ZDocumentReviewContext>;
