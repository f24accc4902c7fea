import { LoaderCircle, Play, RefreshCw, Square } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TMailboxStatus } from '../../../../contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { usePermissions } from '@/lib/session-api';
import { useCheckMailbox, useRefreshWhenCheckEnds, useStartMailboxScheduler, useStopMailboxScheduler } from '../api';
import { checkIntervalMinutes, formatDateTime, mailboxControls, notConnectedNote } from '../mailbox-figures';

function StatusItem({ label, children, testId, state }: { label: string; children: ReactNode; testId?: string; state?: string }) {
  return (
    <div className="flex min-w-0 items-center justify-between gap-3 px-3 py-2.5 sm:flex-col sm:items-start sm:justify-start sm:gap-1.5 sm:py-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd data-testid={testId} data-state={state} className="flex min-w-0 items-center gap-2 text-sm font-medium">
        {children}
      </dd>
    </div>
  );
}

/**
 * The scheduler's state and its controls: connection Connected/Disconnected with the
 * reason, scheduler Running/Stopped, the check interval, and Start (stopped and connected), Stop
 * (running) and Check Now (connected), each only for a role that may use it (Start and Stop: admins;
 * Check Now: moderators and admins). Shown on the dashboard panel and the settings card alike.
 */
export function MailboxSchedulerControls({ status }: { status: TMailboxStatus }) {
  const start = useStartMailboxScheduler();
  const stop = useStopMailboxScheduler();
  const check = useCheckMailbox();
  const { connection, error, scheduler, checking, lastCheckAt } = status;
  useRefreshWhenCheckEnds(checking);
  const busy = start.isPending || stop.isPending || check.isPending;
  const minutes = checkIntervalMinutes(scheduler.intervalMs);
  const { can } = usePermissions();
  const controls = mailboxControls(can);
  const note = notConnectedNote(controls);

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid divide-y rounded-lg border sm:grid-cols-3 sm:divide-x sm:divide-y-0">
        <StatusItem label="Connection" testId="gmail-connection" state={connection ? 'connected' : 'disconnected'}>
          <Badge variant={connection ? 'success' : 'destructive'}>{connection ? 'Connected' : 'Disconnected'}</Badge>
        </StatusItem>
        <StatusItem label="Scheduler" testId="gmail-scheduler" state={scheduler.isRunning ? 'running' : 'stopped'}>
          <Badge variant={scheduler.isRunning ? 'success' : 'secondary'}>{scheduler.isRunning ? 'Running' : 'Stopped'}</Badge>
        </StatusItem>
        <StatusItem label="Check interval" testId="gmail-interval">
          Every {minutes} {minutes === 1 ? 'minute' : 'minutes'}
        </StatusItem>
      </dl>

      {!connection && error ? (
        <p data-testid="gmail-connection-error" className="rounded-md bg-destructive-soft px-3 py-2 text-sm break-words text-destructive-soft-foreground">
          {error}
        </p>
      ) : null}

      <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
        {checking ? (
          <>
            <LoaderCircle className="size-3.5 animate-spin" aria-hidden="true" />
            Checking the inbox now…
          </>
        ) : (
          lastCheckAt ? `Last checked ${formatDateTime(lastCheckAt)}` : 'Not checked yet'
        )}
      </p>

      {controls.schedule || controls.check ? (
        <div className="flex flex-wrap gap-2">
          {controls.schedule ? (
            <>
              <Button data-testid="gmail-start" size="sm" onClick={() => start.mutate()} disabled={busy || scheduler.isRunning || !connection}>
                {start.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Play aria-hidden="true" />}
                Start
              </Button>
              <Button data-testid="gmail-stop" size="sm" variant="outline" onClick={() => stop.mutate()} disabled={busy || !scheduler.isRunning}>
                {stop.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Square aria-hidden="true" />}
                Stop
              </Button>
            </>
          ) : null}
          {controls.check ? (
            <Button data-testid="gmail-check" size="sm" variant="outline" onClick={() => check.mutate()} disabled={busy || !connection}>
              <RefreshCw className={check.isPending || checking ? 'animate-spin' : undefined} aria-hidden="true" />
              Check Now
            </Button>
          ) : null}
        </div>
      ) : null}
      {!connection && note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </div>
  );
}
