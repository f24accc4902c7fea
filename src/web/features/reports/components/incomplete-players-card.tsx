import { CircleCheck, FileDown, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { DOC_TYPES, type TPlayerDocStatus, type TSeasonReport } from '../../../../contract';
import { DOC_TYPE_COLUMN_LABELS, PLAYER_DOC_STATUS_LABELS } from '@/components/status-tones';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/csv';
import { fetchAllMissingRows } from '@/lib/missing-report-query';
import { toast } from '@/lib/toast-store';
import { cn } from '@/lib/utils';
import { buildIncompletePlayersCsv, incompletePlayersCsvFilename, inReportOrder } from '../report-export';
import { isReportDivision, type TReportDivision } from '../report-params';
import { formatPercent, plural, unlistedPlayersText } from '../report-text';

type TReportPlayer = TSeasonReport['players'][number];

const isFilterDivision = (division: TSeasonReport['division']): division is Exclude<TReportDivision, 'all'> =>
  division !== 'all' && isReportDivision(division);

/**
 * A document's state: green complete, orange pending, amber expired, a grey ring when not required, red
 * otherwise (processing or missing). Each dot's name says the state, so colour is not the only cue.
 */
const DOT_CLASS: Record<TPlayerDocStatus, string> = {
  complete: 'bg-green-600 dark:bg-green-500',
  pending: 'bg-orange-500 dark:bg-orange-400',
  processing: 'bg-red-600 dark:bg-red-500',
  missing: 'bg-red-600 dark:bg-red-500',
  expired: 'bg-amber-400 ring-2 ring-inset ring-amber-700 dark:bg-amber-500 dark:ring-amber-300',
  not_required: 'bg-transparent ring-2 ring-inset ring-gray-400 dark:ring-gray-500',
};

const dotLabel = (type: (typeof DOC_TYPES)[number], status: TPlayerDocStatus) =>
  `${DOC_TYPE_COLUMN_LABELS[type]}: ${PLAYER_DOC_STATUS_LABELS[status].toLowerCase()}`;

function StatusDots({ player }: { player: TReportPlayer }) {
  return (
    <span className="flex items-center gap-1.5">
      {DOC_TYPES.map((type) => {
        const status = player.documentsStatus[type];
        const label = dotLabel(type, status);
        return <span key={type} role="img" aria-label={label} title={label} data-status={status} className={cn('size-3 rounded-full', DOT_CLASS[status])} />;
      })}
    </span>
  );
}

/** The players below 100 %, lowest first, scrolling inside the card, and their CSV export. */
export function IncompletePlayersCard({ report }: { report: TSeasonReport }) {
  const unlisted = unlistedPlayersText(report);
  return (
    <Card className="min-w-0 gap-4 py-5" data-testid="incomplete-players">
      <CardHeader className="flex flex-col gap-3 px-4 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle className="text-base">Incomplete profiles</CardTitle>
          <CardDescription data-testid="incomplete-count">
            {report.playersTotal === 0 ? 'Every player has all four documents complete' : `${plural(report.playersTotal, 'player')} below 100% completion, lowest first`}
          </CardDescription>
        </div>
        <ExportIncompleteButton report={report} />
      </CardHeader>
      <CardContent className="flex flex-col gap-3 px-4 sm:px-6">
        {report.players.length === 0 ? (
          <p className="flex items-center gap-2 py-6 text-sm font-medium" data-testid="incomplete-none">
            <CircleCheck className="size-5 text-success-soft-foreground" aria-hidden="true" />
            All players have complete profiles!
          </p>
        ) : (
          <>
            <DotLegend />
            {/* Focusable, so the list scrolls from the keyboard too. */}
            <div
              role="region"
              aria-label="Incomplete players"
              tabIndex={0}
              className="max-h-[26rem] overflow-y-auto rounded-md border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <ul className="divide-y">
                {report.players.map((player) => (
                  <li key={player.playerId} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1.5 px-3 py-2.5" data-testid="incomplete-player" data-player-id={player.playerId}>
                    <div className="flex min-w-0 flex-1 flex-col">
                      <span className="flex min-w-0 items-center gap-2">
                        <span className="truncate font-medium" data-testid="incomplete-player-name">
                          {player.playerName}
                        </span>
                        <Badge variant="outline" data-testid="incomplete-player-division">
                          {player.division}
                        </Badge>
                      </span>
                      <span className="truncate font-mono text-xs text-muted-foreground">{player.playerId}</span>
                    </div>
                    <span className="flex items-center gap-3">
                      <StatusDots player={player} />
                      <span className="w-10 text-right text-sm font-medium tabular-nums" data-testid="incomplete-player-percent">
                        {formatPercent(player.completionPercentage)}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            </div>
            {unlisted ? (
              <p className="text-sm text-muted-foreground" data-testid="incomplete-unlisted">
                {unlisted}
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function DotLegend() {
  const items = [
    { label: 'Complete', className: DOT_CLASS.complete },
    { label: 'Under review', className: DOT_CLASS.pending },
    { label: 'Missing or processing', className: DOT_CLASS.missing },
  ];
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
      <span>Dots, in order: {DOC_TYPES.map((type) => DOC_TYPE_COLUMN_LABELS[type]).join(', ')}.</span>
      {items.map((item) => (
        <span key={item.label} className="flex items-center gap-1.5">
          <span className={cn('size-2.5 rounded-full', item.className)} aria-hidden="true" />
          {item.label}
        </span>
      ))}
    </p>
  );
}

/**
 * Every incomplete player as CSV: the report's own list when it holds them all, else every incomplete row of
 * GET /api/report/missing (the report lists at most 1,000), put in the report's order.
 */
function ExportIncompleteButton({ report }: { report: TSeasonReport }) {
  const [exporting, setExporting] = useState(false);

  async function exportCsv(): Promise<void> {
    setExporting(true);
    try {
      const players: readonly TReportPlayer[] =
        report.players.length >= report.playersTotal
          ? report.players
          : inReportOrder(
              (
                await fetchAllMissingRows({
                  season: report.season.id,
                  status: 'incomplete',
                  ...(isFilterDivision(report.division) ? { division: report.division } : {}),
                })
              ).players,
            );
      downloadFile(incompletePlayersCsvFilename(report.season.id, new Date()), buildIncompletePlayersCsv(players));
      toast({ title: 'Export Successful', description: `${plural(players.length, 'incomplete player')} exported to CSV.` });
    } catch (error) {
      toast({ title: 'Export Failed', description: getErrorMessage(error, 'The players could not be exported.'), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={exporting || report.playersTotal === 0} className="self-start">
      {exporting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <FileDown aria-hidden="true" />}
      {exporting ? 'Exporting…' : 'Export incomplete players (CSV)'}
    </Button>
  );
}
