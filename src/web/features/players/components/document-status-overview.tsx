import { ClipboardList } from 'lucide-react';
import { useCallback, useState } from 'react';
import type { TPlayerReportRow } from '../../../../contract';
import { IconCardTitle } from '@/components/icon-card-title';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useMissingReport } from '@/lib/missing-report-query';
import { usePermissions } from '@/lib/session-api';
import {
  clearPlayerFilters,
  DEFAULT_PLAYER_FILTERS,
  missingReportParams,
  PLAYER_PAGE_SIZE,
  updatePlayerFilters,
  type PlayerFilters,
} from '../player-filters';
import { ExportPlayersButton } from './export-players-button';
import { PlayerDetailDialog } from './player-detail-dialog';
import { PlayerFiltersBar } from './player-filters-bar';
import { PlayerResults } from './player-table';
import { RemindFamiliesDialog } from './remind-families-dialog';

interface DocumentStatusOverviewProps {
  /** The dashboard's season: a year (2025) or a season id (fall-2025); undefined = the current season. */
  season?: string | number;
  className?: string;
}

/**
 * The dashboard's 'Document Status Overview': search, division, status and missing-document filters, the
 * player table 10 rows a page (sortable), each player's detail dialog, the CSV export of every matching player
 * and the reminder to their families.
 */
export function DocumentStatusOverview({ season, className }: DocumentStatusOverviewProps) {
  const seasonParam = season === undefined ? undefined : String(season);
  const [localFilters, setFilters] = useState<PlayerFilters>(DEFAULT_PLAYER_FILTERS);
  const filters: PlayerFilters = { ...localFilters, season: seasonParam };
  const [selected, setSelected] = useState<TPlayerReportRow | null>(null);

  const report = useMissingReport(missingReportParams(filters, PLAYER_PAGE_SIZE));
  const seasonId = report.data?.season.id;
  const { can } = usePermissions();

  const onPageChange = useCallback((page: number) => setFilters((current) => updatePlayerFilters(current, { page })), []);

  return (
    <Card className={className} data-testid="document-status-overview">
      <CardHeader className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <IconCardTitle icon={ClipboardList}>Document Status Overview</IconCardTitle>
          <CardDescription>
            {report.data ? `Each player's documents for ${report.data.season.name}` : "Each player's registration documents"}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          {can('notifications.send') ? (
            <RemindFamiliesDialog filters={filters} season={seasonId ?? seasonParam} disabled={!report.data || report.data.total === 0} />
          ) : null}
          <ExportPlayersButton params={missingReportParams(filters)} disabled={!report.data || report.data.total === 0} />
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <PlayerFiltersBar
          filters={filters}
          onChange={(change) => setFilters((current) => updatePlayerFilters(current, change))}
          onClear={() => setFilters((current) => clearPlayerFilters(current))}
        />
        <PlayerResults
          report={report}
          page={filters.page}
          onPageChange={onPageChange}
          onOpenPlayer={setSelected}
          label="Document status overview"
          sorting={{ sort: filters.sort, onSortChange: (sort) => setFilters((current) => updatePlayerFilters(current, { sort })) }}
        />
      </CardContent>
      <PlayerDetailDialog
        playerId={selected?.playerId ?? null}
        playerName={selected?.playerName}
        season={seasonId ?? seasonParam}
        row={selected}
        onOpenChange={(open) => !open && setSelected(null)}
      />
    </Card>
  );
}
