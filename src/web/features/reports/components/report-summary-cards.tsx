import { CircleAlert, CircleCheck, FileText, Users } from 'lucide-react';
import type { TSeasonReport } from '../../../../contract';
import { StatCard } from '@/components/stat-card';
import { formatPercent, totalPlayersGrowth } from '../report-text';

/** Total Players (with growth when compared), Complete Profiles, Incomplete Profiles, Total Documents. */
export function ReportSummaryCards({ report, error }: { report: TSeasonReport | undefined; error: boolean }) {
  const summary = report?.summary;
  const growth = summary ? totalPlayersGrowth(summary) : null;
  return (
    <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        testId="report-total-players"
        title="Total Players"
        icon={Users}
        value={summary?.totalPlayers}
        error={error}
        trend={growth?.kind === 'change' ? { text: growth.text, positive: growth.positive } : undefined}
        // Without a comparison, or without a season to compare with, the card says which.
        subtitle={growth?.text ?? (report ? `Registered in ${report.season.name}` : undefined)}
      />
      <StatCard
        testId="report-complete-profiles"
        title="Complete Profiles"
        icon={CircleCheck}
        value={summary?.completeProfiles}
        error={error}
        subtitle={summary ? `${formatPercent(summary.completionRate)} completion rate` : undefined}
      />
      <StatCard
        testId="report-incomplete-profiles"
        title="Incomplete Profiles"
        icon={CircleAlert}
        value={summary?.incompleteProfiles}
        error={error}
        subtitle={summary ? 'Missing at least one document' : undefined}
      />
      <StatCard
        testId="report-total-documents"
        title="Total Documents"
        icon={FileText}
        value={summary?.totalDocuments}
        error={error}
        subtitle={summary ? 'Stored, neither rejected nor purged' : undefined}
      />
    </section>
  );
}
