import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ZNotificationHistory,
  ZNotificationSendResult,
  ZNotificationSettings,
  ZNotificationTemplate,
  ZNotificationTemplates,
  ZNotificationTestResult,
  ZMessagePreview,
  ZQuickActions,
  ZRecipientPreview,
  ZReminderSchedule,
  type TNotificationSend,
  type TReminderScheduleUpdate,
  type TNotificationSettingsUpdate,
  type TNotificationTemplatePatch,
  type TNotificationTest,
} from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';

/** Every notifications query starts with this key: a send, an edit or a saved setting refreshes them all. */
export const NOTIFICATIONS_KEY = ['api', 'notifications'] as const;
/** Live counts on the Send tab and the History list refresh this often, as the other lists do. */
export const NOTIFICATIONS_REFETCH_MS = 30_000;

const refreshNotifications = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });

export const templatesQueryOptions = queryOptions({
  queryKey: [...NOTIFICATIONS_KEY, 'templates'],
  queryFn: getQueryFn({ schema: ZNotificationTemplates }),
});

/** GET /api/notifications/templates. */
export function useNotificationTemplates() {
  return useQuery(templatesQueryOptions);
}

/** PATCH /api/notifications/templates/{id}: an edit or the enabled switch. */
export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...NOTIFICATIONS_KEY, 'templates', 'update'],
    mutationFn: ({ id, patch }: { id: string; patch: TNotificationTemplatePatch }) =>
      apiRequest('PATCH', `/api/notifications/templates/${encodeURIComponent(id)}`, patch, { schema: ZNotificationTemplate }),
    onSettled: () => refreshNotifications(queryClient),
  });
}

/** GET /api/notifications/quick-actions?season: the live counts on the quick action buttons. */
export function quickActionsQueryOptions(season: string | undefined) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'quick-actions', { season }],
    queryFn: getQueryFn({ schema: ZQuickActions }),
    refetchInterval: NOTIFICATIONS_REFETCH_MS,
  });
}

export function useQuickActions(season: string | undefined) {
  return useQuery(quickActionsQueryOptions(season));
}

/**
 * POST /api/notifications/preview: how many messages the form would make. A POST that changes nothing, read as
 * a query keyed on the form, so the count follows the choices; `null` (an incomplete form) reads nothing.
 */
export function useRecipientPreview(send: TNotificationSend | null) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'preview', send],
    queryFn: ({ signal }) => apiRequest('POST', '/api/notifications/preview', send, { schema: ZRecipientPreview, signal }),
    enabled: send !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The preview of exactly this request, from the cache when the form already asked (the Send button reads it before sending). */
export function fetchRecipientPreview(queryClient: QueryClient, send: TNotificationSend) {
  return queryClient.fetchQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'preview', send],
    queryFn: ({ signal }) => apiRequest('POST', '/api/notifications/preview', send, { schema: ZRecipientPreview, signal }),
    retry: false,
  });
}

/**
 * POST /api/notifications/preview/rejection: the 'Document Rejected' e-mail the guardian would get with this
 * reason; `null` reads nothing (no document, or the guardian is not to be told).
 */
export function useRejectionPreview(request: { documentId: string; reason: string } | null) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'preview', 'rejection', request],
    queryFn: ({ signal }) => apiRequest('POST', '/api/notifications/preview/rejection', request, { schema: ZMessagePreview, signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** POST /api/notifications/send: answers { sent, failed, pending }. */
export function useSendNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...NOTIFICATIONS_KEY, 'send'],
    mutationFn: (send: TNotificationSend) => apiRequest('POST', '/api/notifications/send', send, { schema: ZNotificationSendResult }),
    onSettled: () => refreshNotifications(queryClient),
  });
}

/** GET /api/notifications/history?page&pageSize: newest first. */
export function historyQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'history', { page, pageSize }],
    queryFn: getQueryFn({ schema: ZNotificationHistory }),
    refetchInterval: NOTIFICATIONS_REFETCH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useNotificationHistory(page: number, pageSize: number) {
  return useQuery(historyQueryOptions(page, pageSize));
}

export const notificationSettingsQueryOptions = queryOptions({
  queryKey: [...NOTIFICATIONS_KEY, 'settings'],
  queryFn: getQueryFn({ schema: ZNotificationSettings }),
});

/** GET /api/notifications/settings: secrets only as 'set' and a hint. */
export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions);
}

/** PUT /api/notifications/settings. */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...NOTIFICATIONS_KEY, 'settings', 'save'],
    mutationFn: (update: TNotificationSettingsUpdate) => apiRequest('PUT', '/api/notifications/settings', update, { schema: ZNotificationSettings }),
    onSuccess: (saved) => queryClient.setQueryData(notificationSettingsQueryOptions.queryKey, saved),
  });
}

/** POST /api/notifications/settings/test: one real message; the answer says whether it went. */
export function useSendTestNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...NOTIFICATIONS_KEY, 'settings', 'test'],
    mutationFn: (test: TNotificationTest) => apiRequest('POST', '/api/notifications/settings/test', test, { schema: ZNotificationTestResult }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...NOTIFICATIONS_KEY, 'history'] }),
  });
}

/** GET /api/notifications/reminders?season: a season's automatic reminders and when the next go out. */
export function reminderScheduleQueryOptions(season: string | undefined) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'reminders', { season }],
    queryFn: getQueryFn({ schema: ZReminderSchedule }),
    enabled: season !== undefined,
  });
}

export function useReminderSchedule(season: string | undefined) {
  return useQuery(reminderScheduleQueryOptions(season));
}

/** PUT /api/notifications/reminders. */
export function useSaveReminderSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...NOTIFICATIONS_KEY, 'reminders', 'save'],
    mutationFn: (update: TReminderScheduleUpdate) => apiRequest('PUT', '/api/notifications/reminders', update, { schema: ZReminderSchedule }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...NOTIFICATIONS_KEY, 'reminders'] }),
  });
}
