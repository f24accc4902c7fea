import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZCreatedPlayer,
  ZNotificationSendResult,
  ZNotificationTemplates,
  ZPlayerReport,
  ZPlayerTimeline,
  ZRecipientPreview,
  type TCreatePlayer,
  type TNotificationSend,
} from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';

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

const NOTIFICATIONS_KEY = ['api', 'notifications'] as const;

/** GET /api/notifications/templates: the templates a reminder can use. */
export function useReminderTemplates(enabled: boolean) {
  return useQuery({ queryKey: [...NOTIFICATIONS_KEY, 'templates'], queryFn: getQueryFn({ schema: ZNotificationTemplates }), enabled });
}

/** POST /api/notifications/preview: how many guardians a reminder to the list reaches; null reads nothing. */
export function useReminderPreview(send: TNotificationSend | null) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'preview', send],
    queryFn: ({ signal }) => apiRequest('POST', '/api/notifications/preview', send, { schema: ZRecipientPreview, signal }),
    enabled: send !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** POST /api/notifications/send; History and the quick actions read again afterwards. */
export function useSendReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...NOTIFICATIONS_KEY, 'send', 'players-list'],
    mutationFn: (send: TNotificationSend) => apiRequest('POST', '/api/notifications/send', send, { schema: ZNotificationSendResult }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
