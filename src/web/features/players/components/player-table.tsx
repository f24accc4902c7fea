import type { UseQueryResult } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useEffect } from 'react';
import { DOC_TYPES, type TMissingReport, type TPlayerReportRow } from '../../../../contract';
import { CompletionBar } from '@/components/completion-bar';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { Pagination } from '@/components/pagination';
import { PlayerDocStatusBadge } from '@/components/status-badges';
import { DOC_TYPE_COLUMN_LABELS } from '@/components/status-tones';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getErrorMessage } from '@/lib/api-client';
import { initials, lastFirst } from '@/lib/format';
import { cn } from '@/lib/utils';
import { PLAYER_PAGE_SIZE, pageCountFor } from '../player-filters';
import { ListSkeleton } from '@/components/list-skeleton';

export function PlayerAvatar({ firstName, lastName, className }: { firstName: string; lastName: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-secondary text-xs font-semibold text-secondary-foreground', className)}
    >
      {initials(firstName, lastName)}
    </span>
  );
}

interface PlayerTableProps {
  players: readonly TPlayerReportRow[];
  onOpenPlayer: (player: TPlayerReportRow) => void;
  caption: string;
}

/** The player table: 'Last, First' with initials, division, one status per document type, completion. */
export function PlayerTable({ players, onOpenPlayer, caption }: PlayerTableProps) {
  return (
    <Table data-testid="player-table">
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">Player</TableHead>
          <TableHead scope="col">Division</TableHead>
          {DOC_TYPES.map((type) => (
            <TableHead scope="col" key={type}>
              {DOC_TYPE_COLUMN_LABELS[type]}
            </TableHead>
          ))}
          <TableHead scope="col">Completion</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {players.map((player) => {
          const name = lastFirst(player.firstName, player.lastName);
          return (
            <TableRow
              key={player.playerId}
              data-testid="player-row"
              data-player-id={player.playerId}
              className="cursor-pointer"
              // The whole row opens the player; the name's button is the keyboard and screen-reader way in,
              // and takes focus on a row click too, so closing the dialog returns there.
              onClick={(event) => {
                event.currentTarget.querySelector<HTMLButtonElement>('[data-testid="player-name"]')?.focus();
                onOpenPlayer(player);
              }}
            >
              <TableCell className="py-2.5">
                <div className="flex items-center gap-3">
                  <PlayerAvatar firstName={player.firstName} lastName={player.lastName} />
                  <div className="flex min-w-0 flex-col">
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      data-testid="player-name"
                      className="w-fit rounded-sm text-left font-medium underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      onClick={(event) => {
                        event.stopPropagation();
                        onOpenPlayer(player);
                      }}
                    >
                      {name}
                    </button>
                    <span className="font-mono text-xs text-muted-foreground" data-testid="player-id">
                      {player.playerId}
                    </span>
                  </div>
                </div>
              </TableCell>
              <TableCell>
                <Badge variant="outline">{player.division}</Badge>
              </TableCell>
              {DOC_TYPES.map((type) => (
                <TableCell key={type}>
                  <PlayerDocStatusBadge status={player.documentsStatus[type]} />
                </TableCell>
              ))}
              <TableCell>
                <CompletionBar percent={player.completionPercentage} label={`Completion for ${name}`} className="w-32" />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

interface PlayerResultsProps {
  report: UseQueryResult<TMissingReport>;
  page: number;
  /** `replace` when the table itself corrects the page (past the end), so Back does not return to it. */
  onPageChange: (page: number, options?: { replace: boolean }) => void;
  onOpenPlayer: (player: TPlayerReportRow) => void;
  /** Names the table and its pager for screen readers, e.g. 'Players'. */
  label: string;
}

/** One page of the report as a table, with its loading, error and empty states and the pager (10 a page). */
export function PlayerResults({ report, page, onPageChange, onOpenPlayer, label }: PlayerResultsProps) {
  const { data, isPlaceholderData } = report;
  const pageCount = data ? pageCountFor(data.total, data.pageSize ?? PLAYER_PAGE_SIZE) : 1;

  // A page past the end (an old link, or rows gone since): go to the last page that exists.
  const pastTheEnd = data !== undefined && !isPlaceholderData && data.total > 0 && page > pageCount;
  useEffect(() => {
    if (pastTheEnd) onPageChange(pageCount, { replace: true });
  }, [pastTheEnd, pageCount, onPageChange]);

  if (report.isPending) {
    return (
      <ListSkeleton
        label="Loading players"
        rows={6}
        leading="size-8 rounded-full"
        lines={['h-3.5 w-40 max-w-full', 'h-3 w-28 max-w-full']}
        trailing="hidden h-5 w-full max-w-md sm:block"
        className="flex flex-col gap-3 py-2"
        testId="player-table-loading"
      />
    );
  }
  if (report.isError) {
    return (
      <LoadError
        title="Unable to load players"
        detail={getErrorMessage(report.error)}
        onRetry={() => void report.refetch()}
        retrying={report.isFetching}
        className="py-4"
        testId="player-table-error"
      />
    );
  }

  const { players, total } = report.data;
  const first = (report.data.page - 1) * (report.data.pageSize ?? PLAYER_PAGE_SIZE) + 1;
  return (
    <div
      data-testid="player-results"
      aria-busy={isPlaceholderData}
      className={cn('flex flex-col gap-4 transition-opacity', isPlaceholderData && 'opacity-60')}
    >
      {players.length === 0 ? (
        <EmptyState
          icon={SearchX}
          title="No players found"
          description="No players match your current filters."
          className="py-12"
          testId="player-table-empty"
        />
      ) : (
        <PlayerTable
          players={players}
          onOpenPlayer={onOpenPlayer}
          caption={`${label}: page ${report.data.page} of ${pageCount}, ${total} ${total === 1 ? 'player' : 'players'}`}
        />
      )}
      {total > 0 ? (
        <div className="flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
          <p className="text-sm text-muted-foreground" data-testid="player-range" aria-live="polite">
            {players.length > 0 ? `Showing ${first}–${first + players.length - 1} of ${total}` : `${total} players`}
          </p>
          <Pagination
            page={Math.min(page, pageCount)}
            pageCount={pageCount}
            onPageChange={(next) => onPageChange(next)}
            label={`${label} pages`}
            // A tighter gap keeps previous, five numbers, the ellipsis, the last page and next on one line at 390 px.
            className="gap-0.5 sm:gap-1"
          />
        </div>
      ) : null}
    </div>
  );
}
