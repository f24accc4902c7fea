import { CircleCheck, CircleX, Inbox, LoaderCircle, Paperclip, RotateCcw, UserRound } from 'lucide-react';
import { useId } from 'react';
import type { TMailboxSubmission } from '../../../../contract';
import { LoadingState } from '@/components/loading-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { cn } from '@/lib/utils';
import { useMailboxRecent, useRetryMailboxSubmission } from '../api';
import { formatAttachmentCount, formatDateTime, mailboxControls } from '../mailbox-figures';

/** 20 submissions are read, the first 10 are shown. */
export const MAILBOX_RECENT_SHOWN = 10;

const STATUS_LABELS: Record<TMailboxSubmission['status'], string> = {
  pending: 'Pending',
  processed: 'Processed',
  failed: 'Failed',
};

/** A submission's state as an icon: pending spinner, processed check, failed cross. */
function SubmissionStatusIcon({ status }: { status: TMailboxSubmission['status'] }) {
  const label = STATUS_LABELS[status];
  return (
    <span role="img" aria-label={label} title={label} className="mt-0.5 flex shrink-0">
      {status === 'processed' ? (
        <CircleCheck className="size-5 text-success-soft-foreground" aria-hidden="true" />
      ) : status === 'failed' ? (
        <CircleX className="size-5 text-destructive-soft-foreground" aria-hidden="true" />
      ) : (
        <LoaderCircle className="size-5 animate-spin text-muted-foreground" aria-hidden="true" />
      )}
    </span>
  );
}

interface SubmissionRowProps {
  submission: TMailboxSubmission;
  /** Absent for a role that cannot retry ('mailbox.check'): a failed e-mail then shows only its error. */
  onRetry: ((id: string) => void) | undefined;
  retrying: boolean;
}

function SubmissionRow({ submission, onRetry, retrying }: SubmissionRowProps) {
  const { id, subject, fromEmail, receivedAt, playerName, playerDivision, attachmentCount, status, errorMessage } = submission;
  const player = [playerName, playerDivision].filter(Boolean).join(' · ');
  return (
    <li data-testid="gmail-submission" data-status={status} className="flex gap-3 py-3 first:pt-0 last:pb-0">
      <SubmissionStatusIcon status={status} />
      {/* One column on narrow panels; on wide ones subject, player and time side by side, error and Retry below. */}
      <div className="grid min-w-0 flex-1 gap-1 @3xl:grid-cols-[minmax(0,1fr)_minmax(0,15rem)_auto] @3xl:gap-x-6">
        <div className="flex min-w-0 flex-col gap-0.5 @3xl:col-start-1 @3xl:row-start-1">
          <p className={subject ? 'text-sm font-medium break-words' : 'text-sm text-muted-foreground italic'}>
            {subject ?? 'No subject'}
          </p>
          <p className="text-xs break-all text-muted-foreground">{fromEmail ?? 'Unknown sender'}</p>
        </div>
        <time
          dateTime={receivedAt}
          className="text-xs text-muted-foreground tabular-nums @3xl:col-start-3 @3xl:row-start-1 @3xl:pt-0.5 @3xl:text-right"
        >
          {formatDateTime(receivedAt)}
        </time>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground @3xl:col-start-2 @3xl:row-start-1 @3xl:flex-col @3xl:items-start @3xl:pt-0.5">
          {player ? (
            <span className="inline-flex min-w-0 items-center gap-1 text-foreground">
              <UserRound className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="break-words">{player}</span>
            </span>
          ) : null}
          <span className="inline-flex items-center gap-1">
            <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
            {formatAttachmentCount(attachmentCount)}
          </span>
        </p>
        {status === 'failed' ? (
          <>
            <p className="text-xs break-words text-destructive-soft-foreground @3xl:col-span-2 @3xl:col-start-1 @3xl:row-start-2">
              Error: {errorMessage ?? 'Unknown error'}
            </p>
            {onRetry ? (
              <Button
                data-testid="gmail-retry"
                variant="outline"
                size="sm"
                className="mt-1 justify-self-start @3xl:col-start-3 @3xl:row-start-2 @3xl:mt-0 @3xl:justify-self-end"
                onClick={() => onRetry(id)}
                disabled={retrying}
              >
                {retrying ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
                Retry
                <span className="sr-only"> e-mail “{subject ?? 'No subject'}”</span>
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
    </li>
  );
}

function RecentSkeleton() {
  return (
    <LoadingState label="Loading recent submissions" className="flex flex-col gap-4">
      {[0, 1, 2].map((index) => (
        <div key={index} className="flex gap-3">
          <Skeleton className="size-5 rounded-full" />
          <div className="flex flex-1 flex-col gap-1.5">
            <Skeleton className="h-3.5 w-48 max-w-full" />
            <Skeleton className="h-3 w-36 max-w-full" />
            <Skeleton className="h-3 w-28" />
          </div>
        </div>
      ))}
    </LoadingState>
  );
}

interface MailboxRecentListProps {
  /** Polls every 30 s while true (the panel is in view). */
  polling: boolean;
  className?: string;
}

/** The latest e-mail submissions with their status, and Retry on failed ones for a role that may check the mailbox. */
export function MailboxRecentList({ polling, className }: MailboxRecentListProps) {
  const recent = useMailboxRecent('all', { polling });
  const retry = useRetryMailboxSubmission();
  const { can } = usePermissions();
  const onRetry = mailboxControls(can).check ? (id: string) => retry.mutate(id) : undefined;
  const headingId = useId();
  const submissions = recent.data?.submissions.slice(0, MAILBOX_RECENT_SHOWN) ?? [];

  return (
    <section data-testid="gmail-recent" aria-labelledby={headingId} className={cn('@container', className)}>
      <h3 id={headingId} className="mb-3 text-sm font-semibold">
        Recent submissions
      </h3>
      {recent.isPending ? (
        <RecentSkeleton />
      ) : recent.isError ? (
        <p className="text-sm break-words text-destructive-soft-foreground">
          Unable to load recent submissions: {getErrorMessage(recent.error)}
        </p>
      ) : submissions.length === 0 ? (
        <div className="flex flex-col items-center gap-1 rounded-lg border border-dashed px-4 py-8 text-center">
          <Inbox className="mb-1 size-6 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm font-medium">No email submissions found</p>
          <p className="text-xs text-muted-foreground">The mailbox may not be set up yet</p>
        </div>
      ) : (
        <ul aria-labelledby={headingId} className="flex flex-col divide-y">
          {submissions.map((submission) => (
            <SubmissionRow
              key={submission.id}
              submission={submission}
              onRetry={onRetry}
              retrying={retry.isPending && retry.variables === submission.id}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
