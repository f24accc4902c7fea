import { DOC_TYPE_LABELS, DOC_TYPES, type TDocType, type TDocument, type TDocumentsStatus, type TDocumentStatus, type TPlayerDocStatus } from '../../../contract';

/** A required document's state in a season: a document status, or none at all (Missing). */
export type RequiredDocument = {
  docType: TDocType;
  label: string;
  /** Null: Missing (nothing was sent, or the file was removed after the retention period). */
  status: TDocumentStatus | null;
  /** Still processing because its virus scan keeps failing. */
  scanFailed: boolean;
  /** The registration's summary of the type: 'expired' and 'not_required' are shown as such, not as a document's status. */
  summary: TPlayerDocStatus;
};

/**
 * Each type of the season with its state, from the registration's summary: Verified, Under Review,
 * Processing; a type with no live document reads Rejected when a sent copy was rejected, else Missing. An
 * approval that lapsed reads Expired, a type the season does not ask for Not Required (`summary`).
 */
export function requiredDocuments(status: TDocumentsStatus, documents: readonly TDocument[]): RequiredDocument[] {
  return DOC_TYPES.map((docType) => {
    const ofType = documents.filter((document) => document.docType === docType);
    const state = status[docType];
    const documentStatus: TDocumentStatus | null =
      state === 'complete'
        ? 'verified'
        : state === 'pending'
          ? 'pending'
          : state === 'processing'
            ? 'processing'
            : ofType.some((document) => document.status === 'rejected')
              ? 'rejected'
              : null;
    return {
      docType,
      label: DOC_TYPE_LABELS[docType],
      status: documentStatus,
      scanFailed: documentStatus === 'processing' && ofType.some((document) => document.status === 'processing' && document.scanFailed),
      summary: state,
    };
  });
}

/**
 * 'Missing: Birth Certificate, Medical Form', the expired ones and the rejected ones a new copy is needed for;
 * null when nothing is.
 */
export function whatIsMissing(required: readonly RequiredDocument[]): string | null {
  const needed = required.filter((document) => document.summary !== 'not_required');
  const expired = needed.filter((document) => document.summary === 'expired').map((document) => document.label);
  const open = needed.filter((document) => document.summary !== 'expired');
  const missing = open.filter((document) => document.status === null).map((document) => document.label);
  const rejected = open.filter((document) => document.status === 'rejected').map((document) => document.label);
  const parts = [
    missing.length > 0 ? `Missing: ${missing.join(', ')}` : null,
    expired.length > 0 ? `Expired, a new one is needed: ${expired.join(', ')}` : null,
    rejected.length > 0 ? `Rejected, a new copy is needed: ${rejected.join(', ')}` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? `${parts.join('. ')}.` : null;
}

/** Where a stored file is kept, in words (never its path). */
export const STORAGE_WORDS: Record<'local' | 's3', string> = {
  local: 'Stored encrypted on this server',
  s3: 'Stored encrypted in the S3 bucket',
};
