import { LoaderCircle, MailX, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TMailboxStatus } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useMailboxStatus } from '../api';

interface MailboxStatusGateProps {
  /** What to show once the mailbox is known to be configured. */
  children: (status: TMailboxStatus) => ReactNode;
}

/**
 * Reads the mailbox status and says what stands in the way until there is one to show:
 * 'Loading the mailbox status…' while loading, 'The mailbox is not set up yet' when no mailbox is
 * set up, or why the status cannot be read.
 */
export function MailboxStatusGate({ children }: MailboxStatusGateProps) {
  const status = useMailboxStatus();

  if (status.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
        Loading the mailbox status…
      </p>
    );
  }

  // A failed poll keeps the last status on screen; only a status never read counts as unavailable.
  if (!status.data?.configured) {
    return (
      <div data-testid="gmail-unavailable" className="flex items-start gap-3">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-secondary text-secondary-foreground">
          <MailX className="size-4" aria-hidden="true" />
        </span>
        <div className="flex min-w-0 flex-col items-start gap-1">
          <p className="text-sm font-medium">{status.data === undefined ? 'The mailbox status could not be read' : 'The mailbox is not set up yet'}</p>
          <p className="text-sm break-words text-muted-foreground">
            {status.data === undefined
              ? getErrorMessage(status.error)
              : 'E-mailed documents are not collected until it is. Set it up in Settings → Integrations.'}
          </p>
          {status.data === undefined ? (
            <Button
              variant="outline"
              size="sm"
              className="mt-2"
              onClick={() => void status.refetch()}
              disabled={status.isFetching}
            >
              <RefreshCw className={status.isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
              Try again
            </Button>
          ) : null}
        </div>
      </div>
    );
  }

  return children(status.data);
}
