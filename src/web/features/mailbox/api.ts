import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  MAILBOX_RECENT_LIMIT,
  ZMailboxActionResult,
  ZMailboxRecent,
  ZMailboxStats,
  ZMailboxStatus,
  type MAILBOX_STATS_RANGES,
  ZMailboxSettings,
  ZMailboxTestResult,
  type TMailboxActionResult,
  type TMailboxSettingsInput,
  type TMailboxTestInput,
} from '../../../contract';
import { apiRequest, getErrorMessage, getQueryFn } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';

/** The mailbox status is polled every 10 s; stats and recent submissions every 30 s. */
export const MAILBOX_STATUS_REFETCH_MS = 10_000;
export const MAILBOX_ACTIVITY_REFETCH_MS = 30_000;

export type TMailboxStatsRange = (typeof MAILBOX_STATS_RANGES)[number];
export type TMailboxRecentFilter = 'all' | 'processed' | 'failed';

/** Every mailbox query starts with this key, so one invalidation can reach them all. */
const MAILBOX_KEY = ['api', 'gmail'] as const;
export const MAILBOX_STATUS_KEY = [...MAILBOX_KEY, 'status'] as const;
const MAILBOX_STATS_KEY = [...MAILBOX_KEY, 'stats'] as const;
const MAILBOX_RECENT_KEY = [...MAILBOX_KEY, 'recent'] as const;

export const mailboxStatusQueryOptions = queryOptions({
  queryKey: MAILBOX_STATUS_KEY,
  queryFn: getQueryFn({ schema: ZMailboxStatus }),
  refetchInterval: MAILBOX_STATUS_REFETCH_MS,
});

/** GET /api/gmail/status, every 10 s while a screen shows it. */
export function useMailboxStatus() {
  return useQuery(mailboxStatusQueryOptions);
}

/**
 * Stats and recent submissions: read only once the mailbox is known to be configured (they answer 503
 * otherwise), so their components render inside MailboxStatusGate.
 */
interface ActivityQueryOptions {
  /** Stats and recent submissions refresh only while the panel is in view. */
  polling: boolean;
}

/** GET /api/gmail/stats?range=…; the panel opens on today. */
export function useMailboxStats(range: TMailboxStatsRange, { polling }: ActivityQueryOptions) {
  return useQuery({
    queryKey: [...MAILBOX_STATS_KEY, { range }],
    queryFn: getQueryFn({ schema: ZMailboxStats }),
    refetchInterval: polling ? MAILBOX_ACTIVITY_REFETCH_MS : false,
  });
}

/** GET /api/gmail/recent?status=…&limit=20 (20 read, the screen shows the first 10). */
export function useMailboxRecent(status: TMailboxRecentFilter, { polling }: ActivityQueryOptions) {
  return useQuery({
    queryKey: [...MAILBOX_RECENT_KEY, { status, limit: MAILBOX_RECENT_LIMIT }],
    queryFn: getQueryFn({ schema: ZMailboxRecent }),
    refetchInterval: polling ? MAILBOX_ACTIVITY_REFETCH_MS : false,
  });
}

/**
 * A long check is still running when POST /api/gmail/check answers (and scheduled checks run unseen);
 * when the status shows one has ended, the mail it read is in the stats and the list, so read them
 * again without waiting 30 s.
 */
export function useRefreshWhenCheckEnds(checking: boolean): void {
  const queryClient = useQueryClient();
  const wasChecking = useRef(checking);
  useEffect(() => {
    if (wasChecking.current && !checking) void refreshAfter(queryClient, true);
    wasChecking.current = checking;
  }, [checking, queryClient]);
}

function postAction(path: string): Promise<TMailboxActionResult> {
  return apiRequest('POST', path, undefined, { schema: ZMailboxActionResult });
}

/** What an action makes stale: the scheduler's state always; the submissions when mail may have been read. */
function refreshAfter(queryClient: QueryClient, activity: boolean): Promise<unknown> {
  const refreshes = [queryClient.invalidateQueries({ queryKey: MAILBOX_STATUS_KEY })];
  if (activity) {
    refreshes.push(
      queryClient.invalidateQueries({ queryKey: MAILBOX_RECENT_KEY }),
      queryClient.invalidateQueries({ queryKey: MAILBOX_STATS_KEY }),
    );
  }
  return Promise.all(refreshes);
}

interface ActionSpec {
  path: string;
  success: string;
  failure: string;
  /** The action may read mail, so recent submissions and stats change too. */
  refreshesActivity: boolean;
}

/** The toast texts of the three scheduler actions. */
const ACTIONS = {
  start: { path: '/api/gmail/start', success: 'Mailbox checks started', failure: 'The mailbox checks could not be started', refreshesActivity: false },
  stop: { path: '/api/gmail/stop', success: 'Mailbox checks stopped', failure: 'The mailbox checks could not be stopped', refreshesActivity: false },
  check: { path: '/api/gmail/check', success: 'Mailbox check started', failure: 'The mailbox could not be checked', refreshesActivity: true },
} as const satisfies Record<string, ActionSpec>;

export type TMailboxAction = keyof typeof ACTIONS;

function useMailboxAction(action: TMailboxAction) {
  const queryClient = useQueryClient();
  const { path, success, failure, refreshesActivity } = ACTIONS[action];
  return useMutation({
    mutationKey: [...MAILBOX_KEY, action],
    mutationFn: () => postAction(path),
    onSuccess: () => {
      toast({ title: success });
    },
    onError: (error) => {
      toast({ title: failure, description: getErrorMessage(error), variant: 'destructive' });
    },
    // A failed start or stop may still have changed the scheduler (or shown the mailbox is gone): refetch either way.
    onSettled: () => refreshAfter(queryClient, refreshesActivity),
  });
}

/** POST /api/gmail/start */
export function useStartMailboxScheduler() {
  return useMailboxAction('start');
}

/** POST /api/gmail/stop */
export function useStopMailboxScheduler() {
  return useMailboxAction('stop');
}

/** POST /api/gmail/check */
export function useCheckMailbox() {
  return useMailboxAction('check');
}

/** POST /api/gmail/submissions/{id}/retry: its toasts show the server's own message. */
export function useRetryMailboxSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...MAILBOX_KEY, 'retry'],
    mutationFn: (submissionId: string) =>
      postAction(`/api/gmail/submissions/${encodeURIComponent(submissionId)}/retry`),
    onSuccess: (result) => {
      toast({ title: 'E-mail submission retried', description: result.message });
    },
    onError: (error) => {
      toast({ title: 'Failed to retry e-mail submission', description: getErrorMessage(error), variant: 'destructive' });
    },
    onSettled: () => refreshAfter(queryClient, true),
  });
}

/** The mailbox's settings (Settings → Integrations); a save also changes the status every screen shows. */
export const MAILBOX_SETTINGS_KEY = ['api', 'integrations', 'mailbox'] as const;

/** GET /api/integrations/mailbox: the values in force and where they come from, never the password. */
export function useMailboxSettings() {
  return useQuery({ queryKey: MAILBOX_SETTINGS_KEY, queryFn: getQueryFn({ schema: ZMailboxSettings }) });
}

/** PUT /api/integrations/mailbox: the mailbox runner uses the saved mailbox at once, so the status is read again. */
export function useSaveMailboxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...MAILBOX_SETTINGS_KEY, 'save'],
    mutationFn: (input: TMailboxSettingsInput) => apiRequest('PUT', '/api/integrations/mailbox', input, { schema: ZMailboxSettings }),
    onSuccess: (saved) => {
      queryClient.setQueryData(MAILBOX_SETTINGS_KEY, saved);
      void refreshAfter(queryClient, true);
    },
  });
}

/** POST /api/integrations/mailbox/test: connects with the values on the screen; every outcome is an answer, not an error. */
export function useTestMailboxConnection() {
  return useMutation({
    mutationKey: [...MAILBOX_SETTINGS_KEY, 'test'],
    mutationFn: (input: TMailboxTestInput) => apiRequest('POST', '/api/integrations/mailbox/test', input, { schema: ZMailboxTestResult }),
  });
}
