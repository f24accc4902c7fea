import { History, RotateCcw } from 'lucide-react';
import { LoadingState } from '@/components/loading-state';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDocumentHistory } from '../api';

export interface HistoryTarget {
  id: string;
  fileName: string;
}

function HistoryEvents({ documentId }: { documentId: string }) {
  const history = useDocumentHistory(documentId);
  if (history.isPending) {
    return (
      <LoadingState label="Loading history" className="grid gap-3">
        {[0, 1, 2].map((index) => (
          <div key={index} className="grid gap-1.5">
            <Skeleton className="h-3 w-40" />
            <Skeleton className="h-4 w-full" />
          </div>
        ))}
      </LoadingState>
    );
  }
  if (history.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm">
        <p className="break-words text-destructive-soft-foreground">{getErrorMessage(history.error)}</p>
        <Button variant="outline" size="sm" onClick={() => void history.refetch()}>
          <RotateCcw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  const { events } = history.data;
  if (events.length === 0) return <p className="text-sm text-muted-foreground">No history recorded for this document yet.</p>;
  return (
    <ol className="grid gap-0" data-testid="document-history">
      {events.map((event, index) => (
        <li key={`${event.at}-${index}`} className="relative border-l py-2 pl-4 last:pb-0" data-action={event.action}>
          <span className="absolute top-3.5 -left-[5px] size-2.5 rounded-full border-2 border-background bg-primary" aria-hidden="true" />
          <p className="flex flex-wrap gap-x-2 text-xs text-muted-foreground">
            <time dateTime={event.at}>{formatDateTime(event.at)}</time>
            <span aria-hidden="true">·</span>
            <span>{event.actorName}</span>
          </p>
          <p className="text-sm break-words">{event.summary}</p>
        </li>
      ))}
    </ol>
  );
}

/** The audit trail of one document (GET /api/documents/{id}/history), oldest first. */
export function DocumentHistoryDialog({
  target,
  onOpenChange,
}: {
  target: HistoryTarget | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={target !== null} onOpenChange={onOpenChange}>
      <DialogContent data-testid="history-dialog">
        {target ? (
          <>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <History className="size-5" aria-hidden="true" />
                Document History
              </DialogTitle>
              <DialogDescription className="break-all">{target.fileName}</DialogDescription>
            </DialogHeader>
            <HistoryEvents documentId={target.id} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
