import { Bar, BarChart, CartesianGrid, Line, LineChart, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { TSeasonReport } from '../../../../contract';
import {
  describeDivisionChart,
  describeDocumentTypeChart,
  describeMonthlyChart,
  divisionChartData,
  documentTypeChartData,
  monthlyChartData,
  SERIES_COLOURS,
} from '../report-charts';
import { formatPercent } from '../report-text';
import { PLAYER_DOC_STATUS_LABELS } from '@/components/status-tones';
import { AXIS_LINE, AXIS_TICK, BAR_CURSOR, ChartCard, GRID_STROKE, LINE_CURSOR, LINE_X_PADDING, STILL, TOOLTIP_PROPS } from './chart-frame';

const TYPE_SERIES = [
  { key: 'complete', label: PLAYER_DOC_STATUS_LABELS.complete, colour: SERIES_COLOURS.complete },
  { key: 'pending', label: PLAYER_DOC_STATUS_LABELS.pending, colour: SERIES_COLOURS.pending },
  { key: 'processing', label: PLAYER_DOC_STATUS_LABELS.processing, colour: SERIES_COLOURS.processing },
  { key: 'missing', label: PLAYER_DOC_STATUS_LABELS.missing, colour: SERIES_COLOURS.missing },
] as const;

/** Overview: completion by document type, players by division, registrations and completions by month. */
export function OverviewTab({ report }: { report: TSeasonReport }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <DocumentTypeChart report={report} />
      <DivisionChart report={report} />
      <MonthlyChart report={report} className="lg:col-span-2" />
    </div>
  );
}

function DocumentTypeChart({ report }: { report: TSeasonReport }) {
  const data = documentTypeChartData(report.documentStats);
  return (
    <ChartCard
      title="Completion by document type"
      description="Each player's status for each of the four documents"
      summary={describeDocumentTypeChart(data)}
      testId="chart-document-types"
      legend={TYPE_SERIES.map(({ label, colour }) => ({ label, colour }))}
      table={{
        columns: ['Document type', 'Complete', 'Under review', 'Processing', 'Missing', 'Completion'],
        rows: data.map((d) => [d.label, d.complete, d.pending, d.processing, d.missing, formatPercent(d.completionRate)]),
      }}
    >
      <BarChart data={data} layout="vertical" margin={{ top: 4, right: 12, bottom: 4, left: 4 }} accessibilityLayer={false}>
        <CartesianGrid horizontal={false} stroke={GRID_STROKE} />
        <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} />
        <YAxis type="category" dataKey="label" width={112} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} />
        <Tooltip cursor={BAR_CURSOR} {...TOOLTIP_PROPS} />
        {TYPE_SERIES.map(({ key, label, colour }) => (
          <Bar {...STILL} key={key} dataKey={key} name={label} stackId="players" fill={colour} maxBarSize={28} />
        ))}
      </BarChart>
    </ChartCard>
  );
}

function DivisionChart({ report }: { report: TSeasonReport }) {
  const data = divisionChartData(report.divisionStats);
  return (
    <ChartCard
      title="Players by division"
      description={`Registered players in ${report.season.name}`}
      summary={describeDivisionChart(data)}
      testId="chart-divisions"
      legend={data.map((d) => ({ label: `${d.division} · ${d.players} (${formatPercent(d.share)})`, colour: d.fill }))}
      table={{ columns: ['Division', 'Players', 'Share'], rows: data.map((d) => [d.division, d.players, formatPercent(d.share)]) }}
    >
      <PieChart accessibilityLayer={false}>
        <Pie {...STILL} data={data} dataKey="players" nameKey="division" innerRadius="52%" outerRadius="88%" paddingAngle={data.length > 1 ? 2 : 0} stroke="var(--card)" />
        <Tooltip {...TOOLTIP_PROPS} />
      </PieChart>
    </ChartCard>
  );
}

function MonthlyChart({ report, className }: { report: TSeasonReport; className?: string }) {
  const data = monthlyChartData(report.monthly);
  return (
    <ChartCard
      title="Monthly registrations and completions"
      description="Registrations by month registered; completions by month the player became complete (UTC)"
      summary={describeMonthlyChart(data)}
      testId="chart-monthly"
      className={className}
      legend={[
        { label: 'Registrations', colour: SERIES_COLOURS.registrations },
        { label: 'Completions', colour: SERIES_COLOURS.completions },
      ]}
      table={{ columns: ['Month', 'Registrations', 'Completions'], rows: data.map((d) => [d.label, d.registrations, d.completions]) }}
    >
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke={GRID_STROKE} />
        <XAxis dataKey="label" tick={AXIS_TICK} padding={LINE_X_PADDING} axisLine={AXIS_LINE} tickLine={false} minTickGap={12} />
        <YAxis allowDecimals={false} width={40} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} />
        <Tooltip cursor={LINE_CURSOR} {...TOOLTIP_PROPS} />
        <Line {...STILL} type="monotone" dataKey="registrations" name="Registrations" stroke={SERIES_COLOURS.registrations} strokeWidth={2} dot={{ r: 3 }} />
        <Line {...STILL} type="monotone" dataKey="completions" name="Completions" stroke={SERIES_COLOURS.completions} strokeWidth={2} dot={{ r: 3 }} />
      </LineChart>
    </ChartCard>
  );
}
