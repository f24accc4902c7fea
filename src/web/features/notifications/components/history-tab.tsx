import { Inbox, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { NOTIFICATION_HISTORY_PAGE_SIZE, type TNotificationHistoryItem } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { PastEstimatedEnd } from '@/components/past-estimated-end';
import { Pagination } from '@/components/pagination';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { listPageCount, pastEstimatedEnd } from '@/lib/list-pages';
import { useMediaQuery } from '@/lib/use-media-query';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useNotificationHistory } from '../api';
import { historySummary } from '../history-summary';
import { ChannelBadge, NotificationStatusBadge } from './notification-badges';

/** Sent: when it went. Pending: when it is due. Failed: when it was tried. */
function timeOf(item: TNotificationHistoryItem): { label: string; iso: string } {
  if (item.status === 'pending') return { label: item.sentAt ? `Due ${formatDateTime(item.sentAt)}` : 'Waiting', iso: item.sentAt ?? item.createdAt };
  const iso = item.sentAt ?? item.createdAt;
  return { label: formatDateTime(iso), iso };
}

/** Six columns need a tablet's width; phones get one card per message. */
const TABLE_QUERY = '(min-width: 640px)';

/** The subject, as the button that opens the message. */
function OpenMessageButton({ item, onOpen }: { item: TNotificationHistoryItem; onOpen: (item: TNotificationHistoryItem) => void }) {
  return (
    <Button
      variant="link"
      className="h-auto p-0 text-left font-medium break-words whitespace-normal text-foreground underline decoration-muted-foreground/50 underline-offset-4"
      onClick={() => onOpen(item)}
      data-testid="history-open"
    >
      {item.subject || '(no subject)'}
      <span className="sr-only"> (open the message to {item.recipient})</span>
    </Button>
  );
}

/** One message of History as it was sent: to whom, when, how it went, and its whole text. */
function HistoryMessageDialog({ item, onClose }: { item: TNotificationHistoryItem | null; onClose: () => void }) {
  const returnFocus = useReturnFocus();
  const time = item ? timeOf(item) : undefined;
  return (
    <Dialog open={item !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-2xl" data-testid="history-message-dialog" {...returnFocus}>
        {item && time ? (
          <>
            <DialogHeader>
              <DialogTitle className="break-words">{item.subject || '(no subject)'}</DialogTitle>
              <DialogDescription className="break-all">To {item.recipient}</DialogDescription>
            </DialogHeader>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <ChannelBadge channel={item.type} />
              <NotificationStatusBadge status={item.status} />
              <time dateTime={time.iso} className="text-muted-foreground">
                {time.label}
              </time>
            </div>
            {item.errorMessage ? <p className="text-sm break-words text-destructive-soft-foreground">Error: {item.errorMessage}</p> : null}
            {item.body === null ? (
              <p className="rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground" data-testid="history-message-body">
                The text of this message was not kept: it was recorded before Clearbase kept the text of each message. The subject and recipient above are
                what is known.
              </p>
            ) : (
              <div
                className="max-h-[50vh] overflow-y-auto rounded-md border bg-muted/40 px-3 py-2 text-sm break-words whitespace-pre-wrap"
                data-testid="history-message-body"
                tabIndex={0}
                role="region"
          aria-label="Full text as sent"
              >
                {item.body}
              </div>
            )}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function HistoryRows({ items, onOpen }: { items: TNotificationHistoryItem[]; onOpen: (item: TNotificationHistoryItem) => void }) {
  const wide = useMediaQuery(TABLE_QUERY);
  if (!wide) {
    return (
      <ul className="flex flex-col gap-3" aria-label="Notification history">
        {items.map((item) => {
          const time = timeOf(item);
          return (
            <li key={item.id} className="flex flex-col gap-2 rounded-lg border p-3" data-testid="history-row">
              <div className="flex flex-wrap items-center gap-2">
                <ChannelBadge channel={item.type} />
                <NotificationStatusBadge status={item.status} />
                <time dateTime={time.iso} className="ml-auto text-xs text-muted-foreground">
                  {time.label}
                </time>
              </div>
              <p className="text-sm">
                <OpenMessageButton item={item} onOpen={onOpen} />
              </p>
              <p className="text-sm break-all text-muted-foreground">{item.recipient}</p>
              {item.errorMessage ? <p className="text-sm break-words text-destructive-soft-foreground">Error: {item.errorMessage}</p> : null}
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    // Fixed columns that wrap their text: the table fits its card instead of scrolling sideways.
    <Table className="table-fixed">
      <TableHeader>
        <TableRow>
          <TableHead className="w-28">Type</TableHead>
          <TableHead className="w-[18%]">Recipient</TableHead>
          <TableHead className="w-[20%]">Subject</TableHead>
          <TableHead className="w-40">Time</TableHead>
          <TableHead className="w-24">Status</TableHead>
          <TableHead>Error</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => {
          const time = timeOf(item);
          return (
            <TableRow key={item.id} data-testid="history-row">
              <TableCell>
                <ChannelBadge channel={item.type} />
              </TableCell>
              <TableCell className="break-all whitespace-normal">{item.recipient}</TableCell>
              <TableCell className="break-words whitespace-normal">
                <OpenMessageButton item={item} onOpen={onOpen} />
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <time dateTime={time.iso}>{time.label}</time>
              </TableCell>
              <TableCell>
                <NotificationStatusBadge status={item.status} />
              </TableCell>
              <TableCell className="text-xs break-words whitespace-normal text-destructive-soft-foreground">{item.errorMessage ?? ''}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** History: every message, newest first, paged; a failure shows its error. */
export function HistoryTab({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const history = useNotificationHistory(page, NOTIFICATION_HISTORY_PAGE_SIZE);
  const data = history.data;
  const listed = data ? { page: data.page, pageSize: data.pageSize, total: data.total, totalIsEstimate: data.totalIsEstimate, rows: data.items.length } : undefined;
  const pageCount = listed ? listPageCount(listed) : 1;
  const pastTheEstimatedEnd = listed !== undefined && !history.isPlaceholderData && pastEstimatedEnd(listed);
  const [opened, setOpened] = useState<TNotificationHistoryItem | null>(null);

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1.5">
          <CardTitle>History</CardTitle>
          <CardDescription>
            {data ? historySummary(data) : 'Every message sent, failed or waiting'}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void history.refetch()} disabled={history.isFetching}>
          <RefreshCw aria-hidden="true" className={history.isFetching ? 'animate-spin' : undefined} />
          Refresh
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 px-3 sm:px-6">
        {history.isPending ? (
          <LoadingState label="Loading history…" className="flex flex-col gap-2">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} className="h-10 w-full" />
            ))}
          </LoadingState>
        ) : history.isError ? (
          <LoadError
            variant="banner"
            title="Unable to load the notification history."
            detail={getErrorMessage(history.error)}
            onRetry={() => void history.refetch()}
          />
        ) : pastTheEstimatedEnd ? (
          <PastEstimatedEnd icon={Inbox} things="messages" list="history" page={page} onFirstPage={() => onPageChange(1)} testId="history-past-end" />
        ) : data && data.items.length === 0 ? (
          <EmptyState
            icon={Inbox}
            title="No notifications yet"
            description="Messages appear here once they are sent or scheduled."
            className="py-10"
            testId="history-empty"
          />
        ) : data ? (
          <div className={history.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined} aria-busy={history.isPlaceholderData}>
            <HistoryRows items={data.items} onOpen={setOpened} />
          </div>
        ) : null}
        <Pagination
          page={Math.min(page, pageCount)}
          pageCount={pageCount}
          onPageChange={onPageChange}
          label="History pages"
          lastPageKnown={!data?.totalIsEstimate}
        />
      </CardContent>
      <HistoryMessageDialog item={opened} onClose={() => setOpened(null)} />
    </Card>
  );
}
