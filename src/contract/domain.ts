import { z } from 'zod';

/** The four documents every player must hand in each season. */
export const DOC_TYPES = ['birth_certificate', 'residency', 'medical', 'waiver'] as const;
export const ZDocType = z.enum(DOC_TYPES);
export type TDocType = z.infer<typeof ZDocType>;

export const DOC_TYPE_LABELS: Record<TDocType, string> = {
  birth_certificate: 'Birth Certificate',
  residency: 'Residency Proof',
  medical: 'Medical Form',
  waiver: 'Liability Waiver',
};

/** The tables' short names of the document types: Birth Certificate, Residency, Medical, Waiver. */
export const DOC_TYPE_COLUMN_LABELS: Record<TDocType, string> = {
  birth_certificate: 'Birth Certificate',
  residency: 'Residency',
  medical: 'Medical',
  waiver: 'Waiver',
};

/** Status of one stored document. */
export const DOCUMENT_STATUSES = ['verified', 'pending', 'processing', 'rejected'] as const;
export const ZDocumentStatus = z.enum(DOCUMENT_STATUSES);
export type TDocumentStatus = z.infer<typeof ZDocumentStatus>;

/**
 * Per-player, per-type status shown in tables, as the season's requirement rules judge it: complete (the rule is
 * met: approved documents that still count, carried over from an earlier season where the rule allows), pending
 * (not met, a document waits for review), processing, expired (not met: an approval that counted has lapsed),
 * missing, not_required (the season does not ask for the type; counts as met).
 */
export const PLAYER_DOC_STATUSES = ['complete', 'missing', 'pending', 'processing', 'expired', 'not_required'] as const;
export const ZPlayerDocStatus = z.enum(PLAYER_DOC_STATUSES);
export type TPlayerDocStatus = z.infer<typeof ZPlayerDocStatus>;

/** How a player's document of one type reads in the tables and the exported files. */
export const PLAYER_DOC_STATUS_LABELS: Record<TPlayerDocStatus, string> = {
  complete: 'Verified',
  pending: 'Under Review',
  processing: 'Processing',
  missing: 'Missing',
  expired: 'Expired',
  not_required: 'Not Required',
};

/** Divisions a player can be in, and those filters offer: Peewee and TEST exist in data but are no filter choice. */
export const DIVISIONS = ['AAA', 'AA', 'A', 'TEST', 'Peewee'] as const;
export const FILTER_DIVISIONS = ['AAA', 'AA', 'A'] as const;
export const ZDivision = z.enum(DIVISIONS);
export type TDivision = z.infer<typeof ZDivision>;

export const SUBMISSION_SOURCES = ['form', 'mailbox', 'upload', 'test', 'family'] as const;
export const ZSubmissionSource = z.enum(SUBMISSION_SOURCES);
export type TSubmissionSource = z.infer<typeof ZSubmissionSource>;

export const SUBMISSION_STATUSES = ['pending', 'processed', 'failed'] as const;
export const ZSubmissionStatus = z.enum(SUBMISSION_STATUSES);
export type TSubmissionStatus = z.infer<typeof ZSubmissionStatus>;

export const SEASON_KINDS = ['Spring Ball', 'Fall Ball'] as const;
export type TSeasonKind = (typeof SEASON_KINDS)[number];

export const USER_ROLES = ['admin', 'moderator', 'viewer'] as const;
export const ZUserRole = z.enum(USER_ROLES);
export type TUserRole = z.infer<typeof ZUserRole>;

export const USER_STATUSES = ['active', 'inactive', 'pending'] as const;
export const ZUserStatus = z.enum(USER_STATUSES);
export type TUserStatus = z.infer<typeof ZUserStatus>;

export const NOTIFICATION_CHANNELS = ['email', 'slack', 'teams'] as const;
export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS);
export type TNotificationChannel = z.infer<typeof ZNotificationChannel>;

export const NOTIFICATION_STATUSES = ['sent', 'failed', 'pending'] as const;
export const ZNotificationStatus = z.enum(NOTIFICATION_STATUSES);
export type TNotificationStatus = z.infer<typeof ZNotificationStatus>;

/** Documents are kept this long after upload unless configured otherwise. */
export const DEFAULT_RETENTION_YEARS = 7;
