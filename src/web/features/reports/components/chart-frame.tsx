import type { CSSProperties, ReactElement } from 'react';
import { ResponsiveContainer, type XAxisTickContentProps } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { twoLineLabel } from '../report-charts';

/** Recharts props drawn from the theme's CSS variables, so axes, grid and tooltips read in light and dark alike. */
export const AXIS_TICK = { fill: 'var(--muted-foreground)', fontSize: 12 } as const;
export const AXIS_LINE = { stroke: 'var(--border)' } as const;
export const GRID_STROKE = 'var(--border)';
export const TOOLTIP_PROPS = {
  // The series in the order they are drawn and listed in the legend (Recharts sorts by name unless told).
  itemSorter: () => 0,
  contentStyle: {
    background: 'var(--popover)',
    border: '1px solid var(--border)',
    borderRadius: 8,
    color: 'var(--popover-foreground)',
    fontSize: 12,
  } satisfies CSSProperties,
  labelStyle: { color: 'var(--popover-foreground)', fontWeight: 600 } satisfies CSSProperties,
  itemStyle: { color: 'var(--popover-foreground)', padding: 0 } satisfies CSSProperties,
} as const;
/**
 * No entry animation: live document events refresh the report often, and each refresh would replay it on every
 * chart. The figures simply change.
 */
export const STILL = { isAnimationActive: false } as const;
/** Room for a two-line season tick under the axis. */
export const SEASON_AXIS_HEIGHT = 40;
/** Keeps the first and last points (and their labels) off the card's edges. */
export const LINE_X_PADDING = { left: 16, right: 16 } as const;

/** A season's tick on two lines ('Spring' over '2024'), so six seasons fit a phone's width. */
export function SeasonTick({ x, y, payload }: XAxisTickContentProps) {
  const [first, second] = twoLineLabel(String(payload.value));
  return (
    <text x={x} y={y} dy={12} textAnchor="middle" fill={AXIS_TICK.fill} fontSize={AXIS_TICK.fontSize}>
      <tspan x={x}>{first}</tspan>
      <tspan x={x} dy={14}>
        {second}
      </tspan>
    </text>
  );
}

export const BAR_CURSOR = { fill: 'var(--muted)' } as const;
export const LINE_CURSOR = { stroke: 'var(--border)' } as const;

export interface LegendItem {
  label: string;
  colour: string;
  /** A dashed line (a projection) rather than a solid swatch. */
  dashed?: boolean;
}

export interface ChartTable {
  columns: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<string | number>>;
}

interface ChartCardProps {
  title: string;
  description?: string;
  /** One sentence saying what the chart shows: the accessible name of the chart image. */
  summary: string;
  /** The chart's figures as a table for screen readers (the image itself is not navigable). */
  table: ChartTable;
  legend?: readonly LegendItem[];
  height?: number;
  testId?: string;
  className?: string;
  /** One Recharts chart; it fills the width and `height`. */
  children: ReactElement;
}

/** A chart in a card: title, the chart as an image named by its summary, a legend, and a hidden data table. */
export function ChartCard({ title, description, summary, table, legend, height = 260, testId, className, children }: ChartCardProps) {
  return (
    <Card className={cn('min-w-0 gap-4 py-5', className)} data-testid={testId}>
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex min-w-0 flex-col gap-3 px-2 sm:px-4">
        <div role="img" aria-label={summary} className="w-full min-w-0" style={{ height }} data-testid="chart">
          <ResponsiveContainer width="100%" height="100%" minWidth={0}>
            {children}
          </ResponsiveContainer>
        </div>
        {legend ? <ChartLegend items={legend} /> : null}
        {/* The wrapper hides the table: a table ignores the 1 px width of sr-only and would widen the page. */}
        <div className="sr-only">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                {table.columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, cellIndex) =>
                    cellIndex === 0 ? (
                      <th key={cellIndex} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={cellIndex}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </CardContent>
    </Card>
  );
}

/** The series' names beside their colours; hidden from screen readers, which get the summary and the table. */
function ChartLegend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul aria-hidden="true" className="flex flex-wrap justify-center gap-x-4 gap-y-1 px-2 text-xs text-muted-foreground">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          {item.dashed ? (
            <span className="w-4 border-t-2 border-dashed" style={{ borderColor: item.colour }} />
          ) : (
            <span className="size-2.5 rounded-sm" style={{ background: item.colour }} />
          )}
          {item.label}
        </li>
      ))}
    </ul>
  );
}
