import { Bell, ClipboardCheck, FileText, FileUp, UserPlus } from 'lucide-react';
import { useState } from 'react';
import type { TPlayerTimelineEntry, TPlayerTimelineKind } from '../../../../contract';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { usePlayerTimeline } from '../api';

const KIND_ICONS: Record<TPlayerTimelineKind, typeof FileText> = {
  registration: UserPlus,
  upload: FileUp,
  review: ClipboardCheck,
  document: FileText,
  notification: Bell,
};

/** How many entries show before 'Show all'. */
const FIRST_ENTRIES = 8;

function TimelineEntry({ entry }: { entry: TPlayerTimelineEntry }) {
  const Icon = KIND_ICONS[entry.kind];
  return (
    <li className="flex min-w-0 gap-3" data-testid="timeline-entry" data-kind={entry.kind}>
      <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full border bg-muted text-muted-foreground">
        <Icon className="size-3.5" aria-hidden="true" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 border-b pb-3">
        <p className="text-sm font-medium break-words">{entry.what}</p>
        <p className="text-xs text-muted-foreground">
          <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, by </span>
          <span data-testid="timeline-who">{entry.who}</span>
          {entry.season ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, </span>
              {entry.season.name}
            </>
          ) : null}
        </p>
        {entry.details ? <p className="text-xs break-words">{entry.details}</p> : null}
      </div>
    </li>
  );
}

/** The player's story across seasons, newest first: registrations, uploads, reviews with who and why, messages to the family. */
export function PlayerTimeline({ playerId }: { playerId: string }) {
  const timeline = usePlayerTimeline(playerId);
  const [showAll, setShowAll] = useState(false);

  if (timeline.isPending) {
    return (
      <LoadingState label="Loading the timeline" className="flex flex-col gap-3">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} className="h-10 w-full" />
        ))}
      </LoadingState>
    );
  }
  if (timeline.isError) {
    return (
      <LoadError
        title="Unable to load the timeline"
        detail={getErrorMessage(timeline.error)}
        onRetry={() => void timeline.refetch()}
        retrying={timeline.isFetching}
      />
    );
  }
  const { entries } = timeline.data;
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>;
  const shown = showAll ? entries : entries.slice(0, FIRST_ENTRIES);
  return (
    <div className="flex flex-col gap-3">
      <ol className="flex flex-col gap-3" aria-label="Timeline, newest first" data-testid="player-timeline">
        {shown.map((entry) => (
          <TimelineEntry key={entry.id} entry={entry} />
        ))}
      </ol>
      {entries.length > shown.length ? (
        <Button variant="outline" size="sm" className="self-start" onClick={() => setShowAll(true)}>
          Show all {entries.length} entries
        </Button>
      ) : null}
    </div>
  );
}
