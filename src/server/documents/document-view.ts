import { NOTHING_EXTRACTED, type TDocument, type TUploadItem } from '../../contract';
import { NOT_READ, type DocumentReadingView } from '../reading';
import type { Storage } from '../adapters/storage/port';
import type { DocumentRow, UploadRow } from './documents.repository';

/** A document row with its player's guardian contact: what a ZDocument is made from. */
export type DocumentViewRow = DocumentRow & { guardianEmail: string | null; guardianPhone: string | null };

/** The storage holding objects of a driver; throws when that driver is not configured here. */
export type StorageFor = (driver: 'local' | 's3') => Storage;

/**
 * Where a stored file is, for display (`file://…` or `s3://bucket/key`, never a public link); null when no
 * file is stored (rejected, past retention, demo rows without a key) or its storage is not configured here.
 */
export function storageLocation(storageFor: StorageFor, row: Pick<DocumentRow, 'storageDriver' | 'storageKey'>): string | null {
  if (!row.storageKey || !row.storageDriver) return null;
  try {
    return storageFor(row.storageDriver).urlFor(row.storageKey);
  } catch {
    return null;
  }
}

/** A document as the API shows it, shared by the documents and reports services. */
export function toDocument(row: DocumentViewRow, storageFor: StorageFor, reading: DocumentReadingView = NOT_READ): TDocument {
  return {
    id: row.id,
    docType: row.docType,
    originalFilename: row.originalFilename,
    status: row.status,
    uploadedAt: row.uploadedAt.toISOString(),
    bytes: row.bytes,
    fileSha256: row.fileSha256,
    storageUrl: storageLocation(storageFor, row),
    storageDriver: row.storageKey && row.storageDriver ? row.storageDriver : null,
    guardianEmail: row.guardianEmail,
    guardianPhone: row.guardianPhone,
    reviewNotes: row.reviewNotes,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    scanFailed: row.status === 'processing' && row.scanFailedAt !== null,
    facts: { birthDate: row.factBirthDate, documentDate: row.documentDate, residencyGroup: row.residencyGroup },
    reviewedBy: row.reviewedBy,
    fileRemovedAt: row.fileRemovedAt?.toISOString() ?? null,
    extracted: reading.extracted ?? NOTHING_EXTRACTED,
    checks: reading.checks,
    reading: { state: reading.state, method: reading.method, readAt: reading.readAt?.toISOString() ?? null },
  };
}

/** An upload as the lists show it, shared by recent uploads, the documents list and the dashboard. */
export function toUploadItem(row: UploadRow): TUploadItem {
  return {
    id: row.id,
    fileName: row.originalFilename,
    playerId: row.playerId,
    playerName: `${row.firstName} ${row.lastName}`,
    docType: row.docType,
    status: row.status,
    uploadedAt: row.uploadedAt.toISOString(),
    bytes: row.bytes,
    fileSha256: row.fileSha256,
    scanFailed: row.status === 'processing' && row.scanFailedAt !== null,
  };
}
