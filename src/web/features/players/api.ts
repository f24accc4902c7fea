import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZCreatedPlayer,
  ZErasedPlayer,
  ZPlayerReport,
  ZPlayerTimeline,
  ZSeasonRequirements,
  ZUploadLink,
  ZUploadLinkRevokeResult,
  ZUploadLinkSendResult,
  ZUploadLinkStatus,
  type TCreatePlayer,
  type TErasePlayer,
} from '../../../contract';
import { ApiError, apiRequest, fileNameOfDisposition, getQueryFn, type ApiFile } from '@/lib/api-client';

const REPORT_KEY = ['api', 'report'] as const;
const STATS_KEY = ['api', 'stats'] as const;
/** The Reports screen's season reports count players too: a new player changes them. */
const SEASON_REPORTS_KEY = ['api', 'reports'] as const;

export const playerReportQueryOptions = (playerId: string, season: string | undefined) =>
  queryOptions({
    queryKey: [...REPORT_KEY, 'player', { player_id: playerId, season }],
    queryFn: getQueryFn({ schema: ZPlayerReport }),
  });

/** GET /api/report/player: one player's status, guardian and documents in a season. */
export function usePlayerReport(playerId: string | null, season: string | undefined) {
  return useQuery({ ...playerReportQueryOptions(playerId ?? '', season), enabled: playerId !== null });
}

/**
 * GET /api/seasons/{id}/requirements: the season's rules and divisions' ages, for the league-age flag's words
 * and which approvals lapse (the key the Seasons settings read it under, so they share one copy).
 */
export function useSeasonRequirements(seasonId: string | undefined) {
  return useQuery({
    queryKey: ['api', 'seasons', seasonId ?? '', 'requirements'],
    queryFn: getQueryFn({ schema: ZSeasonRequirements }),
    enabled: seasonId !== undefined,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

const playerTimelineKey = (playerId: string) => ['api', 'players', playerId, 'timeline'] as const;

/** GET /api/players/{playerId}/timeline: the player's story across seasons, read again each time the dialog opens. */
export function usePlayerTimeline(playerId: string | null) {
  return useQuery({
    queryKey: playerTimelineKey(playerId ?? ''),
    queryFn: getQueryFn({ schema: ZPlayerTimeline }),
    enabled: playerId !== null,
    staleTime: 0,
  });
}

/** After a review from the player dialog: its timeline gains the decision. */
export function useRefreshPlayerTimeline() {
  const queryClient = useQueryClient();
  return (playerId: string) => queryClient.invalidateQueries({ queryKey: playerTimelineKey(playerId) });
}

/** POST /api/players; the tables and the dashboard's figures count the new player once it is in. */
export function useCreatePlayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['api', 'players', 'create'],
    mutationFn: (player: TCreatePlayer) => apiRequest('POST', '/api/players', player, { schema: ZCreatedPlayer }),
    onSuccess: () =>
      Promise.all([REPORT_KEY, STATS_KEY, SEASON_REPORTS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

const uploadLinkPath = (playerId: string) => `/api/players/${encodeURIComponent(playerId)}/upload-link`;
const uploadLinkStatusKey = (playerId: string, season: string) => ['api', 'players', playerId, 'upload-link', { season }] as const;

/** GET /api/players/{playerId}/upload-link?season=: how many of the family's links work, and when one was last opened. */
export function useUploadLinkStatus(playerId: string, season: string) {
  return useQuery({ queryKey: uploadLinkStatusKey(playerId, season), queryFn: getQueryFn({ schema: ZUploadLinkStatus }), staleTime: 0 });
}

type UploadLinkTarget = { playerId: string; season: string };

/** After a link is issued, sent or stopped: the status line and the timeline read it again. */
function useRefreshUploadLinks() {
  const queryClient = useQueryClient();
  return ({ playerId, season }: UploadLinkTarget) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: uploadLinkStatusKey(playerId, season) }),
      queryClient.invalidateQueries({ queryKey: playerTimelineKey(playerId) }),
    ]);
}

/** POST /api/players/{playerId}/upload-link: a new link for the family (shown once: only its hash is kept). */
export function useIssueUploadLink() {
  const refresh = useRefreshUploadLinks();
  return useMutation({
    mutationFn: ({ playerId, season }: UploadLinkTarget) => apiRequest('POST', uploadLinkPath(playerId), { season }, { schema: ZUploadLink }),
    onSettled: (_data, _error, target) => refresh(target),
  });
}

/** POST /api/players/{playerId}/upload-link/send: e-mails the guardian a new link. */
export function useSendUploadLink() {
  const refresh = useRefreshUploadLinks();
  return useMutation({
    mutationFn: ({ playerId, season }: UploadLinkTarget) =>
      apiRequest('POST', `${uploadLinkPath(playerId)}/send`, { season }, { schema: ZUploadLinkSendResult }),
    onSettled: (_data, _error, target) => refresh(target),
  });
}

/** DELETE /api/players/{playerId}/upload-link?season=: every working link of the player for the season stops. */
export function useRevokeUploadLinks() {
  const refresh = useRefreshUploadLinks();
  return useMutation({
    mutationFn: ({ playerId, season }: UploadLinkTarget) =>
      apiRequest('DELETE', `${uploadLinkPath(playerId)}?${new URLSearchParams({ season }).toString()}`, undefined, { schema: ZUploadLinkRevokeResult }),
    onSettled: (_data, _error, target) => refresh(target),
  });
}

const playerPath = (playerId: string) => `/api/players/${encodeURIComponent(playerId)}`;

/**
 * GET /api/players/{id}/export: the player's ZIP, read as it arrives so the caller can show how much has come
 * (`onProgress` with the bytes so far; the server does not know the size ahead). Non-OK throws an ApiError.
 */
export async function fetchPlayerExport(playerId: string, onProgress: (bytes: number) => void, signal?: AbortSignal): Promise<ApiFile> {
  const response = await fetch(`${playerPath(playerId)}/export`, { credentials: 'include', signal: signal ?? null });
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text().catch(() => ''));
  const fileName = fileNameOfDisposition(response.headers.get('content-disposition'));
  if (!response.body) return { blob: await response.blob(), fileName };
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    onProgress(bytes);
  }
  return { blob: new Blob(chunks, { type: 'application/zip' }), fileName };
}

/**
 * POST /api/players/{id}/erase with the typed name; every list and figure that counted the player is read again.
 * Not awaited: the caller's own onSuccess must run at once and close the player's dialog, whose report would
 * otherwise be read again first, fail (the player is gone) and take the dialog, and that callback, away.
 */
export function useErasePlayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['api', 'players', 'erase'],
    mutationFn: ({ playerId, confirmName }: { playerId: string } & TErasePlayer) =>
      apiRequest('POST', `${playerPath(playerId)}/erase`, { confirmName }, { schema: ZErasedPlayer }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['api'] });
    },
  });
}
