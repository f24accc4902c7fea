import { useCallback, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TPlayerReportRow } from '../../../../contract';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { useMissingReport } from '@/lib/missing-report-query';
import { usePermissions } from '@/lib/session-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import {
  clearPlayerFilters,
  missingReportParams,
  parsePlayerFilters,
  PLAYER_PAGE_SIZE,
  serializePlayerFilters,
  updatePlayerFilters,
  type PlayerFilters,
} from '../player-filters';
import { AddPlayerDialog } from './add-player-dialog';
import { ExportPlayersButton } from './export-players-button';
import { PlayerCountCards } from './player-count-cards';
import { PlayerDetailDialog } from './player-detail-dialog';
import { PlayerFiltersBar } from './player-filters-bar';
import { PlayerRowActions } from './player-row-actions';
import { PlayerResults } from './player-table';
import { RemindFamiliesDialog } from './remind-families-dialog';

/** The filters live in the query string (?search=&division=&status=&missing=&season=&sort=&page=), so a link or a reload keeps them. */
function useUrlPlayerFilters() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filters = parsePlayerFilters(search);
  const setFilters = useCallback(
    (next: PlayerFilters, options: { replace?: boolean } = {}) => {
      const query = serializePlayerFilters(next);
      navigate(query ? `${location}?${query}` : location, { replace: options.replace ?? false });
    },
    [location, navigate],
  );
  return [filters, setFilters] as const;
}

export function PlayersPage() {
  useDocumentTitle('Players');
  const [filters, setFilters] = useUrlPlayerFilters();
  const [selected, setSelected] = useState<TPlayerReportRow | null>(null);
  const report = useMissingReport(missingReportParams(filters, PLAYER_PAGE_SIZE));
  const season = report.data?.season;
  const { can } = usePermissions();
  // The row menu works on the season the list shows, once the list has said which one it is.
  const seasonId = season?.id;
  const renderActions =
    can('notifications.send') && seasonId !== undefined ? (player: TPlayerReportRow) => <PlayerRowActions player={player} season={seasonId} /> : undefined;

  const filtersKey = serializePlayerFilters(filters);
  const onPageChange = useCallback(
    (page: number, options?: { replace: boolean }) => setFilters(updatePlayerFilters(parsePlayerFilters(filtersKey), { page }), options),
    [filtersKey, setFilters],
  );

  return (
    <>
      <PageHeader
        title="Players"
        description={
          <span className="flex flex-wrap items-center gap-2">
            {season ? (
              <Badge variant="secondary" data-testid="players-season">
                {season.name}
              </Badge>
            ) : (
              // A <span>: the header's description is a paragraph, which cannot hold the <div> Skeleton.
              <span className="inline-block h-5 w-24 animate-pulse rounded-md bg-muted" aria-hidden="true" />
            )}
            <span>Registration documents of every player</span>
          </span>
        }
        actions={
          <>
            <ExportPlayersButton params={missingReportParams(filters)} disabled={!report.data || report.data.total === 0} />
            {can('players.add') ? <AddPlayerDialog /> : null}
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <Card className="py-4 sm:py-5">
          <CardContent className="px-3 sm:px-5">
            <PlayerFiltersBar
              showSeason
              filters={filters}
              // Typing replaces the history entry; picking a filter adds one, so Back undoes it.
              onChange={(change) => setFilters(updatePlayerFilters(filters, change), { replace: change.search !== undefined })}
              onClear={() => setFilters(clearPlayerFilters(filters))}
            />
          </CardContent>
        </Card>
        <PlayerCountCards summary={report.data?.summary} />
        <Card className="py-4 sm:py-5">
          <CardContent className="flex flex-col gap-4 px-3 sm:px-5">
            {can('notifications.send') ? (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-muted-foreground" data-testid="players-in-list">
                  {report.data ? `${report.data.total.toLocaleString('en-US')} ${report.data.total === 1 ? 'player' : 'players'} in this list` : null}
                </p>
                <RemindFamiliesDialog filters={filters} season={season?.id ?? filters.season} disabled={!report.data || report.data.total === 0} />
              </div>
            ) : null}
            <PlayerResults
              report={report}
              page={filters.page}
              onPageChange={onPageChange}
              onOpenPlayer={setSelected}
              label="Players"
              sorting={{ sort: filters.sort, onSortChange: (sort) => setFilters(updatePlayerFilters(filters, { sort })) }}
              {...(renderActions ? { renderActions } : {})}
            />
          </CardContent>
        </Card>
      </div>
      <PlayerDetailDialog
        playerId={selected?.playerId ?? null}
        playerName={selected?.playerName}
        season={season?.id ?? filters.season}
        row={selected}
        onOpenChange={(open) => !open && setSelected(null)}
      />
    </>
  );
}
