import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MAX_DOCUMENTS_PAGE_SIZE, ZDocument, ZDocumentList, ZDocumentReviewContext, type TDocument, type TDocumentListQuery } from '../../../contract';
import { apiRequest, getQueryFn, queryKeyToUrl } from '@/lib/api-client';
import type { TReviewDecision } from '@/features/documents';
import { nextQueuePage } from './review-queue';

/**
 * The Review screen's reads. Every key starts with ['api', 'documents'], so a decision (useReviewDocument of
 * the documents feature) and the live events that refresh the Documents screen refresh this queue too.
 */
const DOCUMENTS_KEY = ['api', 'documents'] as const;

/** The queue is read again this often, besides after each decision and on live events. */
export const REVIEW_QUEUE_REFETCH_MS = 30_000;
/** While a document is still being read, its record is read again this often. */
export const READING_POLL_MS = 3_000;

/** GET /api/documents?status=pending&sort=oldest: the pending documents, oldest first, of one season or all. */
export function reviewQueueQuery(season: string | undefined, page: number): TDocumentListQuery {
  return { status: 'pending', sort: 'oldest', pageSize: MAX_DOCUMENTS_PAGE_SIZE, page, ...(season ? { season } : {}) };
}

/**
 * The queue, a hundred at a time: the next page is read when the reviewer steps past the last one shown, while
 * there is one (nextQueuePage: past an estimated total, after every full page). A decision refreshes the pages
 * read so far, from the first.
 */
export function useReviewQueue(season: string | undefined) {
  return useInfiniteQuery({
    queryKey: [...DOCUMENTS_KEY, 'review-queue', { season: season ?? null }],
    queryFn: ({ pageParam, signal }) =>
      apiRequest('GET', queryKeyToUrl([...DOCUMENTS_KEY, { ...reviewQueueQuery(season, pageParam) }]), undefined, { schema: ZDocumentList, signal }),
    initialPageParam: 1,
    getNextPageParam: nextQueuePage,
    refetchInterval: REVIEW_QUEUE_REFETCH_MS,
  });
}

/** GET /api/documents/{id}: what reading found, its checks, the guardian; read again while it is still being read. */
export function useReviewedDocument(documentId: string | null) {
  return useQuery<TDocument>({
    queryKey: [...DOCUMENTS_KEY, documentId ?? ''],
    queryFn: getQueryFn({ schema: ZDocument }),
    enabled: documentId !== null,
    refetchInterval: (query) => (query.state.data?.reading.state === 'waiting' ? READING_POLL_MS : false),
  });
}

/** GET /api/documents/{id}/review: the registered player and date of birth (the approval step reads the same). */
export function useReviewContext(documentId: string | null) {
  return useQuery({
    queryKey: [...DOCUMENTS_KEY, documentId ?? '', 'review'],
    queryFn: getQueryFn({ schema: ZDocumentReviewContext }),
    enabled: documentId !== null,
  });
}

/** Reads a document's record and registration ahead, so stepping on to it shows them at once. */
export function prefetchReview(queryClient: QueryClient, documentId: string): void {
  const staleTime = 10_000;
  void queryClient.prefetchQuery({ queryKey: [...DOCUMENTS_KEY, documentId], queryFn: getQueryFn({ schema: ZDocument }), staleTime });
  void queryClient.prefetchQuery({ queryKey: [...DOCUMENTS_KEY, documentId, 'review'], queryFn: getQueryFn({ schema: ZDocumentReviewContext }), staleTime });
}

/** What a decision makes stale, as on the Documents screen: the lists and records, the dashboard figures, reports, recent uploads. */
const AFFECTED_BY_DECISIONS = [DOCUMENTS_KEY, ['api', 'stats'], ['api', 'report'], ['api', 'uploads']] as const;

/**
 * PATCH /api/documents/{id}/status from the Review screen. The screen moves on as soon as the server says yes:
 * the lists are refreshed behind it, not waited for (the decided document already left the queue on screen).
 */
export function useDecideDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...DOCUMENTS_KEY, 'review'],
    mutationFn: ({ documentId, decision }: { documentId: string; decision: TReviewDecision }) =>
      apiRequest('PATCH', `/api/documents/${encodeURIComponent(documentId)}/status`, decision, { schema: ZDocument }),
    // Refreshed on failure too: a 409 means someone else decided it.
    onSettled: () => {
      for (const queryKey of AFFECTED_BY_DECISIONS) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
