import type { TSeasonReport } from '../../../../contract';
import { CompletionBar } from '@/components/completion-bar';
import { DOC_TYPE_COLUMN_LABELS } from '@/components/status-tones';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { formatPercent } from '../report-text';

interface ProgressItem {
  key: string;
  label: string;
  done: number;
  total: number;
  percent: number;
}

/** A labelled list of completion bars: name, done/total and percent, then the bar in the completion colours. */
function ProgressList({ items, label, testId }: { items: readonly ProgressItem[]; label: string; testId: string }) {
  return (
    <ul className="flex flex-col gap-4" aria-label={label} data-testid={testId}>
      {items.map((item) => (
        <li key={item.key} className="flex flex-col gap-1.5" data-testid="progress-row" data-key={item.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate font-medium">{item.label}</span>
            <span className="shrink-0 tabular-nums text-muted-foreground" data-testid="progress-figures">
              {item.done.toLocaleString()}/{item.total.toLocaleString()} · {formatPercent(item.percent)}
            </span>
          </div>
          <CompletionBar percent={item.percent} label={`${item.label} completion`} className="[&>span]:hidden" />
        </li>
      ))}
    </ul>
  );
}

const typeItems = (report: TSeasonReport): ProgressItem[] =>
  report.documentStats.map((stat) => ({
    key: stat.docType,
    label: DOC_TYPE_COLUMN_LABELS[stat.docType],
    done: stat.complete,
    total: report.summary.totalPlayers,
    percent: stat.completionRate,
  }));

const divisionItems = (report: TSeasonReport): ProgressItem[] =>
  report.divisionStats.map((stat) => ({
    key: stat.division,
    label: stat.division,
    done: stat.complete,
    total: stat.players,
    percent: stat.completionRate,
  }));

/** Completion per document type and per division, side by side on a wide screen (below the tabs). */
export function ProgressCards({ report, className }: { report: TSeasonReport; className?: string }) {
  return (
    <div className={cn('grid gap-4 lg:grid-cols-2', className)}>
      <Card className="min-w-0 gap-4 py-5">
        <CardHeader className="px-4 sm:px-6">
          <CardTitle className="text-base">Completion by document type</CardTitle>
          <CardDescription>Players with each document complete</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <ProgressList items={typeItems(report)} label="Completion by document type" testId="progress-types" />
        </CardContent>
      </Card>
      <Card className="min-w-0 gap-4 py-5">
        <CardHeader className="px-4 sm:px-6">
          <CardTitle className="text-base">Completion by division</CardTitle>
          <CardDescription>Players with every document complete</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <ProgressList items={divisionItems(report)} label="Completion by division" testId="progress-divisions" />
        </CardContent>
      </Card>
    </div>
  );
}
