import { ApiError } from './api-client';
import { saveBlobAs } from './download';

/** The URL of a document's decrypted file (audited by the server on every read). */
export const documentFileUrl = (documentId: string): string => `/api/documents/${encodeURIComponent(documentId)}/file`;

/**
 * GET /api/documents/{id}/file as a blob, with the session cookie. A non-OK answer throws an ApiError,
 * whose message for people (getErrorMessage) is the server's, e.g. the 404 for a document with no stored file.
 */
export async function fetchDocumentFile(documentId: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(documentFileUrl(documentId), { credentials: 'include', signal: signal ?? null });
  if (!response.ok) {
    let bodyText = '';
    try {
      bodyText = await response.text();
    } catch {
      // The status line alone still says what happened.
    }
    throw new ApiError(response.status, response.statusText, bodyText);
  }
  return response.blob();
}

export type TPreviewKind = 'pdf' | 'image' | 'none';

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

/**
 * How the browser can show a file: PDFs in a frame, images in an <img>; anything else (HEIC, TIFF) only
 * downloads. The server's content type decides; the file name only when the type is generic.
 */
export function previewKindOf(mime: string, fileName: string): TPreviewKind {
  const type = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf') return 'pdf';
  // image/jpg: not a registered type, but what some senders and browsers say.
  if (/^image\/(png|jpe?g|gif|webp)$/.test(type)) return 'image';
  if (type === '' || type === 'application/octet-stream') {
    if (/\.pdf$/i.test(fileName)) return 'pdf';
    if (IMAGE_EXTENSIONS.test(fileName)) return 'image';
  }
  return 'none';
}

/** Fetches a document's file and saves it (the More menu's Download). */
export async function downloadDocumentFile(documentId: string, fileName: string): Promise<void> {
  saveBlobAs(await fetchDocumentFile(documentId), fileName);
}
