import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { TSeasonReport } from '../../../../contract';
import { describeCompletionRateChart, describeHistoryChart, historyChartData, SERIES_COLOURS } from '../report-charts';
import { divisionLabel, formatPercent } from '../report-text';
import {
  AXIS_LINE,
  AXIS_TICK,
  BAR_CURSOR,
  ChartCard,
  GRID_STROKE,
  LINE_CURSOR,
  LINE_X_PADDING,
  SEASON_AXIS_HEIGHT,
  SeasonTick,
  STILL,
  TOOLTIP_PROPS,
} from './chart-frame';

const percentTick = (value: number) => `${value}%`;

/** Historical Trends: every season up to the report's (both kinds), players and completion. */
export function TrendsTab({ report }: { report: TSeasonReport }) {
  const data = historyChartData(report.history);
  const scope = `Every season up to ${report.season.name}, ${divisionLabel(report.division)}`;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartCard
        title="Players per season"
        description={scope}
        summary={describeHistoryChart(data)}
        testId="chart-history"
        legend={[
          { label: 'Total players', colour: SERIES_COLOURS.players },
          { label: 'Complete profiles', colour: SERIES_COLOURS.completions },
        ]}
        table={{ columns: ['Season', 'Total players', 'Complete profiles'], rows: data.map((d) => [d.label, d.totalPlayers, d.completeProfiles]) }}
      >
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke={GRID_STROKE} />
          <XAxis dataKey="shortLabel" tick={SeasonTick} interval={0} padding={LINE_X_PADDING} height={SEASON_AXIS_HEIGHT} axisLine={AXIS_LINE} tickLine={false} />
          <YAxis allowDecimals={false} width={40} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} />
          <Tooltip cursor={LINE_CURSOR} {...TOOLTIP_PROPS} />
          <Line {...STILL} type="monotone" dataKey="totalPlayers" name="Total players" stroke={SERIES_COLOURS.players} strokeWidth={2} dot={{ r: 3 }} />
          <Line {...STILL} type="monotone" dataKey="completeProfiles" name="Complete profiles" stroke={SERIES_COLOURS.completions} strokeWidth={2} dot={{ r: 3 }} />
        </LineChart>
      </ChartCard>
      <ChartCard
        title="Completion rate per season"
        description={scope}
        summary={describeCompletionRateChart(data)}
        testId="chart-completion-rate"
        table={{ columns: ['Season', 'Completion rate'], rows: data.map((d) => [d.label, formatPercent(d.completionRate)]) }}
      >
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke={GRID_STROKE} />
          <XAxis dataKey="shortLabel" tick={SeasonTick} interval={0} height={SEASON_AXIS_HEIGHT} axisLine={AXIS_LINE} tickLine={false} />
          <YAxis domain={[0, 100]} tickFormatter={percentTick} width={44} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} />
          <Tooltip cursor={BAR_CURSOR} formatter={(value) => `${String(value)}%`} {...TOOLTIP_PROPS} />
          <Bar {...STILL} dataKey="completionRate" name="Completion rate" fill={SERIES_COLOURS.rate} maxBarSize={40} radius={[4, 4, 0, 0]} />
        </BarChart>
      </ChartCard>
    </div>
  );
}
