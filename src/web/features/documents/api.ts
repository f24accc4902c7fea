import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ZBulkStatusResult,
  ZDocument,
  ZDocumentHistory,
  ZDocumentList,
  ZScanRetryResult,
  ZUploadToStorageResponse,
  type TDocumentListQuery, ZDocumentReviewContext
} from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';
import { downloadDocumentFile } from '@/lib/document-file';
import { DOCUMENTS_PAGE_SIZE, type DocumentFilters } from './document-filters';

/** The documents screen refreshes every 30 s. */
export const DOCUMENTS_REFETCH_MS = 30_000;

/** Every documents query starts with this key; live events invalidate it too (src/web/lib/live-messages.ts). */
export const DOCUMENTS_KEY = ['api', 'documents'] as const;

/** What a review or storage action makes stale: the list and history, the dashboard figures, reports, recent uploads. */
const AFFECTED_BY_DOCUMENT_CHANGES = [DOCUMENTS_KEY, ['api', 'stats'], ['api', 'report'], ['api', 'uploads']] as const;

function refreshAfterDocumentChange(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(AFFECTED_BY_DOCUMENT_CHANGES.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** The query string of GET /api/documents for the screen's filters (an empty search is left out). */
export function documentListQuery(filters: DocumentFilters): TDocumentListQuery {
  const search = filters.search.trim();
  return {
    ...(search ? { search } : {}),
    status: filters.status,
    docType: filters.docType,
    page: filters.page,
    pageSize: DOCUMENTS_PAGE_SIZE,
  };
}

/** GET /api/documents?search&status&docType&page&pageSize, polled every 30 s. */
export function documentListQueryOptions(filters: DocumentFilters) {
  return queryOptions({
    queryKey: [...DOCUMENTS_KEY, documentListQuery(filters)],
    queryFn: getQueryFn({ schema: ZDocumentList }),
    refetchInterval: DOCUMENTS_REFETCH_MS,
    // Paging or filtering keeps the previous rows on screen (dimmed) until the next ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useDocumentList(filters: DocumentFilters) {
  return useQuery(documentListQueryOptions(filters));
}

/** GET /api/documents/{id}/history: read only while its dialog is open. */
export function documentHistoryQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: [...DOCUMENTS_KEY, documentId, 'history'],
    queryFn: getQueryFn({ schema: ZDocumentHistory }),
    // Opened again later, it shows what happened since.
    staleTime: 0,
  });
}

export function useDocumentHistory(documentId: string | null) {
  return useQuery({ ...documentHistoryQueryOptions(documentId ?? ''), enabled: documentId !== null });
}

/** An approval with the facts its step asked for (none for a waiver, or in bulk), or a rejection with its reason. */
export type TReviewDecision =
  | { status: 'verified'; birthDate?: string; confirmBirthDateChange?: boolean; documentDate?: string; residencyGroup?: string }
  | { status: 'rejected'; reviewNotes: string; notifyGuardian?: boolean };

/** GET /api/documents/{id}/review: the player's registered date of birth and the season's residency groups, while the approval step is open. */
export function useDocumentReviewContext(documentId: string | null) {
  return useQuery({
    queryKey: [...DOCUMENTS_KEY, documentId ?? '', 'review'],
    queryFn: getQueryFn({ schema: ZDocumentReviewContext }),
    enabled: documentId !== null,
    staleTime: 0,
  });
}

/** GET /api/documents/{id}: read while the reject dialog is open, for the guardian's e-mail. */
export function useDocumentDetail(documentId: string | null) {
  return useQuery({
    queryKey: [...DOCUMENTS_KEY, documentId ?? ''],
    queryFn: getQueryFn({ schema: ZDocument }),
    enabled: documentId !== null,
    staleTime: 0,
  });
}

/** PATCH /api/documents/{id}/status: approve (pending → verified) or reject with a reason (pending → rejected). */
export function useReviewDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'review'],
    mutationFn: ({ documentId, decision }: { documentId: string; decision: TReviewDecision }) =>
      apiRequest('PATCH', `/api/documents/${encodeURIComponent(documentId)}/status`, decision, { schema: ZDocument }),
    // Refreshed on failure too: a 409 means someone else reviewed it, and the row should show that.
    onSettled: () => refreshAfterDocumentChange(queryClient),
  });
}

/** POST /api/documents/{id}/reopen: a verified or rejected document goes back under review, with the reason. */
export function useReopenDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'reopen'],
    mutationFn: ({ documentId, reason }: { documentId: string; reason: string }) =>
      apiRequest('POST', `/api/documents/${encodeURIComponent(documentId)}/reopen`, { reason }, { schema: ZDocument }),
    // Refreshed on failure too: a 409 means someone else reopened it, and the row should show that.
    onSettled: () => refreshAfterDocumentChange(queryClient),
  });
}

/** What opening a file changes: the list's 'opened' flags, and the document's history. */
export function refreshAfterFileOpened(queryClient: QueryClient): Promise<unknown> {
  return queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
}

/** POST /api/documents/status: approve many documents at once; the server says which it skipped and why. */
export function useBulkApproveDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'bulk-approve'],
    mutationFn: (documentIds: string[]) =>
      apiRequest('POST', '/api/documents/status', { documentIds, status: 'verified' }, { schema: ZBulkStatusResult }),
    onSettled: () => refreshAfterDocumentChange(queryClient),
  });
}

/** POST /api/documents/upload-to-storage: moves the files into the configured secure storage. */
export function useUploadToStorage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'upload-to-storage'],
    mutationFn: (documentIds: string[]) =>
      apiRequest('POST', '/api/documents/upload-to-storage', { documentIds }, { schema: ZUploadToStorageResponse }),
    onSettled: () => refreshAfterDocumentChange(queryClient),
  });
}

/** POST /api/documents/{id}/retry-scan: the virus scan of a document whose scan keeps failing runs again now. */
export function useRetryScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'retry-scan'],
    mutationFn: (documentId: string) =>
      apiRequest('POST', `/api/documents/${encodeURIComponent(documentId)}/retry-scan`, undefined, { schema: ZScanRetryResult }),
    // Refreshed on failure too: a 409 means the scan has succeeded meanwhile, and the row should show that.
    onSettled: () => Promise.all([refreshAfterDocumentChange(queryClient), queryClient.invalidateQueries({ queryKey: ['api', 'health'] })]),
  });
}

/**
 * GET /api/documents/{id}/file, saved under its name (More → Download). A mutation, so a refusal (the role lost
 * 'files.open' while the page was open) has the session read again like every other call.
 */
export function useDownloadDocumentFile() {
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'download'],
    mutationFn: ({ documentId, fileName }: { documentId: string; fileName: string }) => downloadDocumentFile(documentId, fileName),
  });
}
