import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { Info } from 'lucide-react';
import type { TProjectionPeriod, TSeasonReport } from '../../../../contract';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { describeProjectionChart, projectionChartData, SERIES_COLOURS } from '../report-charts';
import { formatPercent, plural } from '../report-text';
import { AXIS_LINE, AXIS_TICK, ChartCard, GRID_STROKE, LINE_CURSOR, LINE_X_PADDING, SEASON_AXIS_HEIGHT, SeasonTick, STILL, TOOLTIP_PROPS } from './chart-frame';

/**
 * Growth Projections: the server's least-squares projection of the next seasons of the report's kind
 * (src/server/services/projections.ts), a card per period and the players' line continuing the history.
 */
export function ProjectionsTab({ report }: { report: TSeasonReport }) {
  const { projections, season } = report;
  const pastSeasons = report.history.filter((row) => row.kind === season.kind).length;
  if (!projections.enoughHistory) {
    return (
      <Card className="py-5" data-testid="projection-message">
        <CardContent className="flex items-start gap-3 px-4 sm:px-6">
          <Info className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <p className="font-medium">No projection for {season.name}</p>
            <p className="text-sm text-muted-foreground">{projections.message ?? 'Not enough history for a projection.'}</p>
          </div>
        </CardContent>
      </Card>
    );
  }
  const data = projectionChartData(report);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        A straight-line trend through {plural(pastSeasons, `${season.kind} season`)} up to {season.name}, continued to the next{' '}
        {projections.periods.length === 1 ? 'season' : `${projections.periods.length} seasons`} of that kind.
      </p>
      <ul className="grid gap-4 sm:grid-cols-2" aria-label="Projected seasons">
        {projections.periods.map((period, index) => (
          <li key={period.period} className="min-w-0">
            <ProjectionCard period={period} ahead={index + 1} />
          </li>
        ))}
      </ul>
      <ChartCard
        title="Projected players"
        description={`${season.kind} seasons up to ${season.name}, then the projection`}
        summary={describeProjectionChart(report)}
        testId="chart-projection"
        legend={[
          { label: 'Players', colour: SERIES_COLOURS.players },
          { label: 'Projected players', colour: SERIES_COLOURS.projected, dashed: true },
        ]}
        table={{
          columns: ['Season', 'Players', 'Projected players'],
          rows: data.map((d) => [d.label, d.actual ?? '—', d.actual === null ? (d.projected ?? '—') : '—']),
        }}
      >
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke={GRID_STROKE} />
          <XAxis dataKey="shortLabel" tick={SeasonTick} interval={0} padding={LINE_X_PADDING} height={SEASON_AXIS_HEIGHT} axisLine={AXIS_LINE} tickLine={false} />
          <YAxis allowDecimals={false} width={40} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} />
          <Tooltip cursor={LINE_CURSOR} {...TOOLTIP_PROPS} />
          <Line {...STILL} type="monotone" dataKey="actual" name="Players" stroke={SERIES_COLOURS.players} strokeWidth={2} dot={{ r: 3 }} connectNulls={false} />
          <Line
            {...STILL}
            type="monotone"
            dataKey="projected"
            name="Projected players"
            stroke={SERIES_COLOURS.projected}
            strokeWidth={2}
            strokeDasharray="6 4"
            dot={{ r: 3 }}
            connectNulls={false}
          />
        </LineChart>
      </ChartCard>
    </div>
  );
}

function ProjectionCard({ period, ahead }: { period: TProjectionPeriod; ahead: number }) {
  return (
    <Card className="h-full gap-4 py-5" data-testid="projection-period">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base" data-testid="projection-period-name">
          {period.period}
        </CardTitle>
        <CardDescription>{ahead === 1 ? 'Next season' : `${ahead} seasons ahead`}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 px-4 sm:px-6">
        <dl className="grid grid-cols-3 gap-2">
          <Figure label="Players" value={period.projectedPlayers.toLocaleString()} testId="projection-players" />
          <Figure label="Completion" value={formatPercent(period.projectedCompletion)} testId="projection-completion" />
          <Figure label="Confidence" value={`${period.confidenceLevel}%`} testId="projection-confidence" />
        </dl>
        {period.factors.length > 0 ? (
          <div className="flex flex-col gap-1.5">
            <h3 className="text-sm font-medium">Key factors</h3>
            <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
              {period.factors.map((factor) => (
                <li key={factor}>{factor}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 rounded-lg bg-muted/60 px-2 py-2 sm:px-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
