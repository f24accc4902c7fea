import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useStatsBreakdown, type TSeasonChoice } from '../api';
import { statCardSpec, type TStatKind } from '../stat-details';
import { DetailAnalytics } from './detail-analytics';
import { DetailItems } from './detail-items';
import { DetailOverview } from './detail-overview';

function DetailSkeleton() {
  return (
    <LoadingState label="Loading details" className="flex flex-col gap-4">
      <Skeleton className="h-9 w-64 max-w-full" />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-20" />
        ))}
      </div>
      <Skeleton className="h-40" />
    </LoadingState>
  );
}

/** The modal's body for one card: mounted while open, so each opening reads the breakdown afresh. */
function StatDetailBody({ kind, season }: { kind: TStatKind; season: TSeasonChoice }) {
  const breakdown = useStatsBreakdown(season);
  const spec = statCardSpec(kind);
  return (
    <>
      <DialogHeader>
        <DialogTitle>{spec.title}</DialogTitle>
        <DialogDescription>
          {breakdown.data ? spec.describe(breakdown.data) : breakdown.isError ? 'The breakdown could not be loaded.' : 'Loading the season’s breakdown…'}
        </DialogDescription>
      </DialogHeader>
      {breakdown.data ? (
        <Tabs defaultValue="overview" className="flex min-w-0 flex-col gap-4">
          <TabsList className="w-full sm:w-fit">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="details">Details</TabsTrigger>
            <TabsTrigger value="analytics">Analytics</TabsTrigger>
          </TabsList>
          <TabsContent value="overview">
            <DetailOverview kind={kind} breakdown={breakdown.data} />
          </TabsContent>
          <TabsContent value="details">
            <DetailItems kind={kind} breakdown={breakdown.data} />
          </TabsContent>
          <TabsContent value="analytics">
            <DetailAnalytics kind={kind} breakdown={breakdown.data} />
          </TabsContent>
        </Tabs>
      ) : breakdown.isError ? (
        <LoadError title="Unable to load details" onRetry={() => void breakdown.refetch()} retrying={breakdown.isFetching} />
      ) : (
        <DetailSkeleton />
      )}
    </>
  );
}

interface StatDetailDialogProps {
  /** The card whose details are open; null when closed. */
  kind: TStatKind | null;
  season: TSeasonChoice;
  onClose: () => void;
  /** Where focus goes back to on close: the card that opened the modal (it is no Radix trigger). */
  returnFocusTo: () => HTMLElement | null;
}

/** The detail dialog: Overview, Details and Analytics of one summary card, from GET /api/stats/breakdown. */
export function StatDetailDialog({ kind, season, onClose, returnFocusTo }: StatDetailDialogProps) {
  return (
    <Dialog open={kind !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        className="max-w-3xl"
        data-testid="stat-detail-dialog"
        onCloseAutoFocus={(event) => {
          const opener = returnFocusTo();
          if (!opener) return;
          event.preventDefault();
          opener.focus();
        }}
      >
        {/* Keyed by card, so each card opens on its Overview with a fresh search. */}
        {kind ? <StatDetailBody key={kind} kind={kind} season={season} /> : null}
      </DialogContent>
    </Dialog>
  );
}
