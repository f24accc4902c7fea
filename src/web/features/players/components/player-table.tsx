import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, SearchX } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { DOC_TYPES, type TDivision, type TDivisionAges, type TMissingReport, type TPlayerReportRow, type TPlayerSort, type TPlayerSortKey } from '../../../../contract';
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
import { useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { useSeasonRequirements } from '../api';
import { nextSort, PLAYER_PAGE_SIZE, pageCountFor, sortParts } from '../player-filters';
import { LeagueAge } from './league-age';
import { ListSkeleton } from '@/components/list-skeleton';

/** Wider than this the players are a table; a phone gets one card per player instead. */
const TABLE_QUERY = '(min-width: 640px)';

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

/** The order of a list and how to change it; a list without it has plain headers. */
export interface PlayerSorting {
  sort: TPlayerSort;
  onSortChange: (sort: TPlayerSort) => void;
}

interface PlayerTableProps {
  players: readonly TPlayerReportRow[];
  onOpenPlayer: (player: TPlayerReportRow) => void;
  caption: string;
  sorting?: PlayerSorting | undefined;
  /** A row's own actions (a menu), in a last column; none when undefined. */
  renderActions?: RowActions | undefined;
  /** The season's divisions' ages, for the league-age flag's words; undefined while unknown. */
  divisionAges?: DivisionAges | undefined;
}

type DivisionAges = Partial<Record<TDivision, TDivisionAges>>;

/** The actions of one player's row or card. */
export type RowActions = (player: TPlayerReportRow) => ReactNode;

/** A column header that orders the list by its column (again: the other way), with aria-sort saying how it is ordered. */
function SortableHead({ column, sorting, children }: { column: TPlayerSortKey; sorting: PlayerSorting | undefined; children: ReactNode }) {
  if (!sorting) return <TableHead scope="col">{children}</TableHead>;
  const { key, descending } = sortParts(sorting.sort);
  const active = key === column;
  const Icon = active ? (descending ? ArrowDown : ArrowUp) : ArrowUpDown;
  return (
    <TableHead scope="col" aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="-mx-1 inline-flex items-center gap-1 rounded-sm px-1 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
        onClick={() => sorting.onSortChange(nextSort(sorting.sort, column))}
        data-testid={`sort-${column}`}
      >
        {children}
        <Icon className={cn('size-3.5', !active && 'opacity-40')} aria-hidden="true" />
      </button>
    </TableHead>
  );
}

/** The player table: 'Last, First' with initials, division, league age, one status per document type, completion. */
export function PlayerTable({ players, onOpenPlayer, caption, sorting, renderActions, divisionAges }: PlayerTableProps) {
  return (
    <Table data-testid="player-table">
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <SortableHead column="name" sorting={sorting}>
            Player
          </SortableHead>
          <SortableHead column="division" sorting={sorting}>
            Division
          </SortableHead>
          <TableHead scope="col" className="whitespace-normal">
            League age
          </TableHead>
          {DOC_TYPES.map((type) => (
            <TableHead scope="col" key={type} className="whitespace-normal">
              {DOC_TYPE_COLUMN_LABELS[type]}
            </TableHead>
          ))}
          <SortableHead column="completion" sorting={sorting}>
            Completion
          </SortableHead>
          {renderActions ? (
            <TableHead scope="col" className="w-8 px-0">
              <span className="sr-only">Actions</span>
            </TableHead>
          ) : null}
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
              {/* A long name may wrap, so the table fits 1280 px. */}
              <TableCell className="py-2.5 whitespace-normal">
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
                    <span className="font-mono text-xs whitespace-nowrap text-muted-foreground" data-testid="player-id">
                      {player.playerId}
                    </span>
                  </div>
                </div>
              </TableCell>
              <TableCell>
                <Badge variant="outline">{player.division}</Badge>
              </TableCell>
              <TableCell>
                <LeagueAge player={player} divisionAges={divisionAges} compact />
              </TableCell>
              {DOC_TYPES.map((type) => (
                <TableCell key={type}>
                  <PlayerDocStatusBadge status={player.documentsStatus[type]} />
                </TableCell>
              ))}
              <TableCell>
                {/* Narrower beside the actions, so the table still fits 1280 px without scrolling. */}
                <CompletionBar percent={player.completionPercentage} label={`Completion for ${name}`} className={renderActions ? 'w-24' : 'w-32'} />
              </TableCell>
              {renderActions ? <TableCell className="w-8 py-2 pr-0 pl-1 text-right">{renderActions(player)}</TableCell> : null}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The players as cards, one each: name and id, division, the four document states, completion (a phone). */
export function PlayerCards({
  players,
  onOpenPlayer,
  label,
  renderActions,
  divisionAges,
}: {
  players: readonly TPlayerReportRow[];
  onOpenPlayer: (player: TPlayerReportRow) => void;
  label: string;
  renderActions?: RowActions | undefined;
  divisionAges?: DivisionAges | undefined;
}) {
  return (
    <ul className="flex flex-col gap-3" aria-label={label} data-testid="player-cards">
      {players.map((player) => {
        const name = lastFirst(player.firstName, player.lastName);
        return (
          <li key={player.playerId} className="rounded-lg border p-3" data-testid="player-card" data-player-id={player.playerId}>
            <div className="flex items-start justify-between gap-2">
              <div className="flex min-w-0 items-center gap-3">
                <PlayerAvatar firstName={player.firstName} lastName={player.lastName} />
                <div className="flex min-w-0 flex-col">
                  <button
                    type="button"
                    aria-haspopup="dialog"
                    data-testid="player-name"
                    className="w-fit truncate rounded-sm text-left font-medium underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    onClick={() => onOpenPlayer(player)}
                  >
                    {name}
                  </button>
                  <span className="truncate font-mono text-xs text-muted-foreground" data-testid="player-id">
                    {player.playerId}
                  </span>
                </div>
              </div>
              <div className="flex shrink-0 items-center gap-1">
                <Badge variant="outline" data-testid="player-division">
                  {player.division}
                </Badge>
                {renderActions?.(player)}
              </div>
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-2">
              <div className="col-span-2 flex min-w-0 flex-col gap-1">
                <dt className="text-xs text-muted-foreground">League age</dt>
                <dd>
                  <LeagueAge player={player} divisionAges={divisionAges} />
                </dd>
              </div>
              {DOC_TYPES.map((type) => (
                <div key={type} className="flex min-w-0 flex-col gap-1">
                  <dt className="text-xs text-muted-foreground">{DOC_TYPE_COLUMN_LABELS[type]}</dt>
                  <dd>
                    <PlayerDocStatusBadge status={player.documentsStatus[type]} />
                  </dd>
                </div>
              ))}
            </dl>
            <CompletionBar percent={player.completionPercentage} label={`Completion for ${name}`} className="mt-3" />
          </li>
        );
      })}
    </ul>
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
  /** The list's order, changed from the table's column headers. */
  sorting?: PlayerSorting;
  /** Each row's own actions (a menu); none when undefined. */
  renderActions?: RowActions;
}

/**
 * One page of the report as a table (as cards on a phone), with its loading, error and empty states and the
 * pager (10 a page).
 */
export function PlayerResults({ report, page, onPageChange, onOpenPlayer, label, sorting, renderActions }: PlayerResultsProps) {
  const { data, isPlaceholderData } = report;
  const wide = useMediaQuery(TABLE_QUERY);
  const pageCount = data ? pageCountFor(data.total, data.pageSize ?? PLAYER_PAGE_SIZE) : 1;
  const divisionAges = useSeasonRequirements(data?.season.id).data?.divisionAges;

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
      ) : wide ? (
        <PlayerTable
          players={players}
          onOpenPlayer={onOpenPlayer}
          caption={`${label}: page ${report.data.page} of ${pageCount}, ${total} ${total === 1 ? 'player' : 'players'}`}
          sorting={sorting}
          renderActions={renderActions}
          divisionAges={divisionAges}
        />
      ) : (
        <PlayerCards players={players} onOpenPlayer={onOpenPlayer} label={`${label}: page ${report.data.page} of ${pageCount}`} renderActions={renderActions} divisionAges={divisionAges} />
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
