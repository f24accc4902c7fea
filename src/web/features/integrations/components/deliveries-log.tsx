import { CircleCheck, CircleX, Copy, History, LoaderCircle, RotateCcw, ShieldAlert, type LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { DELIVERIES_KEPT, type TDeliveryOutcome, type TIntakeDelivery, type TIntegration } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { FormError } from '@/components/form-field';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useMediaQuery } from '@/lib/use-media-query';
import { useDeliveries, useReplayDelivery } from '../api';
import { deliveryError, documentCount, OUTCOME_LABELS } from '../integrations-text';

/** Six columns need a tablet's width; phones get one stacked row per delivery. */
const TABLE_QUERY = '(min-width: 768px)';

const OUTCOME_STYLE: Record<TDeliveryOutcome, { variant: 'success' | 'secondary' | 'warning' | 'destructive'; icon: LucideIcon }> = {
  stored: { variant: 'success', icon: CircleCheck },
  duplicate: { variant: 'secondary', icon: Copy },
  refused: { variant: 'warning', icon: ShieldAlert },
  failed: { variant: 'destructive', icon: CircleX },
};

/** The outcome in words with an icon, so colour is not the only cue. */
function OutcomeBadge({ outcome }: { outcome: TDeliveryOutcome }) {
  const { variant, icon: Icon } = OUTCOME_STYLE[outcome];
  return (
    <Badge variant={variant} data-outcome={outcome}>
      <Icon aria-hidden="true" />
      {OUTCOME_LABELS[outcome]}
    </Badge>
  );
}

const NOT_KEPT = 'Its body is no longer kept, so it cannot be replayed.';

function ReplayButton({ delivery, onReplay, replaying }: { delivery: TIntakeDelivery; onReplay: (id: string) => void; replaying: boolean }) {
  const noteId = useId();
  const when = formatDateTime(delivery.receivedAt);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onReplay(delivery.id)}
        disabled={!delivery.replayable || replaying}
        aria-describedby={delivery.replayable ? undefined : noteId}
        title={delivery.replayable ? undefined : NOT_KEPT}
        data-testid="delivery-replay"
      >
        {replaying ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
        Replay<span className="sr-only"> the delivery of {when}</span>
      </Button>
      {delivery.replayable ? null : (
        <span id={noteId} className="sr-only">
          {NOT_KEPT}
        </span>
      )}
    </>
  );
}

type RowsProps = { deliveries: TIntakeDelivery[]; onReplay: (id: string) => void; replayingId: string | undefined };

function StackedRows({ deliveries, onReplay, replayingId }: RowsProps) {
  return (
    <ul className="flex flex-col gap-3" aria-label="Deliveries">
      {deliveries.map((delivery) => {
        const error = deliveryError(delivery);
        return (
          <li key={delivery.id} className="flex min-w-0 flex-col gap-2 rounded-lg border p-3" data-testid="delivery-row" data-outcome={delivery.outcome}>
            <div className="flex flex-wrap items-center gap-2">
              <OutcomeBadge outcome={delivery.outcome} />
              <time dateTime={delivery.receivedAt} className="ml-auto text-xs text-muted-foreground tabular-nums">
                {formatDateTime(delivery.receivedAt)}
              </time>
            </div>
            <p className="text-sm break-words">
              <span className="font-medium">{delivery.playerName ?? 'No player'}</span>
              <span className="text-muted-foreground"> · {documentCount(delivery.documents)}</span>
            </p>
            {error ? <p className="text-sm break-words text-destructive-soft-foreground">{error}</p> : null}
            <div>
              <ReplayButton delivery={delivery} onReplay={onReplay} replaying={replayingId === delivery.id} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function TableRows({ deliveries, onReplay, replayingId }: RowsProps) {
  return (
    // Fixed columns that wrap their text: the table fits its card instead of scrolling sideways.
    <Table className="table-fixed">
      <TableHeader>
        <TableRow>
          <TableHead className="w-44">Time</TableHead>
          <TableHead className="w-28">Outcome</TableHead>
          <TableHead className="w-[20%]">Player</TableHead>
          <TableHead className="w-24">Documents</TableHead>
          <TableHead>Error</TableHead>
          <TableHead className="w-28">
            <span className="sr-only">Replay</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((delivery) => (
          <TableRow key={delivery.id} data-testid="delivery-row" data-outcome={delivery.outcome}>
            <TableCell className="whitespace-normal tabular-nums">
              <time dateTime={delivery.receivedAt}>{formatDateTime(delivery.receivedAt)}</time>
            </TableCell>
            <TableCell>
              <OutcomeBadge outcome={delivery.outcome} />
            </TableCell>
            <TableCell className="break-words whitespace-normal">{delivery.playerName ?? <span className="text-muted-foreground">—</span>}</TableCell>
            <TableCell className="tabular-nums">{delivery.documents}</TableCell>
            <TableCell className="break-words whitespace-normal text-destructive-soft-foreground">{deliveryError(delivery) ?? ''}</TableCell>
            <TableCell className="text-right">
              <ReplayButton delivery={delivery} onReplay={onReplay} replaying={replayingId === delivery.id} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The provider's last deliveries, newest first, with Replay for those whose body is still kept. */
export function DeliveriesLog({ integration }: { integration: TIntegration }) {
  const headingId = useId();
  const deliveries = useDeliveries(integration.provider);
  const replay = useReplayDelivery(integration.provider);
  const wide = useMediaQuery(TABLE_QUERY);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const onReplay = (id: string) => {
    setStatus('');
    setFailure(null);
    replay.mutate(id, {
      onSuccess: (delivery) =>
        setStatus(delivery ? `Replayed: ${OUTCOME_LABELS[delivery.outcome].toLowerCase()}${delivery.error ? ` (${delivery.error})` : ''}.` : 'Replayed.'),
      onError: (error) => setFailure(getErrorMessage(error, 'The delivery could not be replayed. Please try again.')),
    });
  };

  let body;
  if (deliveries.isPending) {
    body = (
      <LoadingState label="Loading deliveries" className="flex flex-col gap-2">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </LoadingState>
    );
  } else if (deliveries.isError) {
    body = (
      <LoadError
        title="Unable to load the deliveries."
        detail={getErrorMessage(deliveries.error)}
        onRetry={() => void deliveries.refetch()}
        retrying={deliveries.isFetching}
      />
    );
  } else if (deliveries.data.deliveries.length === 0) {
    body = (
      <EmptyState
        icon={History}
        iconSize="size-6"
        title="No deliveries yet"
        description={`Each response ${integration.name} sends appears here, whether it was stored or refused.`}
        className="rounded-lg border border-dashed px-4 py-6"
        testId="deliveries-empty"
      />
    );
  } else {
    const props = { deliveries: deliveries.data.deliveries, onReplay, replayingId: replay.isPending ? replay.variables : undefined };
    body = wide ? <TableRows {...props} /> : <StackedRows {...props} />;
  }

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3" data-testid="deliveries-log">
      <h4 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <History className="size-4 text-muted-foreground" aria-hidden="true" />
        Deliveries
      </h4>
      <p className="text-sm text-muted-foreground">The last {DELIVERIES_KEPT}, newest first. Replay runs a kept delivery again, after a fix to the mapping or the secret.</p>
      <p role="status" className="text-sm text-success-soft-foreground empty:hidden" data-testid="replay-status">
        {status}
      </p>
      <FormError message={failure} testId="replay-error" />
      {body}
    </section>
  );
}
