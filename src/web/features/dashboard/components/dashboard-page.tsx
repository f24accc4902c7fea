import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Clock, FileText, Users, type LucideIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { StatCard } from '@/components/stat-card';
import { GmailIntakePanel } from '@/features/mailbox';
import { DocumentStatusOverview } from '@/features/players';
import { useSeasons } from '@/lib/seasons-query';
import { useDocumentTitle } from '@/lib/use-document-title';
import { isDashboardQuery, useStats, type TSeasonChoice } from '../api';
import { STAT_CARDS, type TStatKind } from '../stat-details';
import { DashboardHeader } from './dashboard-header';
import { ExpiringCard } from './expiring-card';
import { ProcessingCard } from './processing-card';
import { StatDetailDialog } from './stat-detail-dialog';
import { SystemStatusCard } from './system-status-card';

const STAT_ICONS: Record<TStatKind, LucideIcon> = {
  players: Users,
  documents: FileText,
  pending: Clock,
  complete: CircleCheck,
};

/** The Dashboard: header, five summary cards (the last opens the players expiring soon), mailbox intake, processing and system status, document status overview. */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const queryClient = useQueryClient();
  // Undefined until someone picks one: the server answers for the current season.
  const [season, setSeason] = useState<TSeasonChoice>(undefined);
  const [openCard, setOpenCard] = useState<TStatKind | null>(null);
  const openerRef = useRef<HTMLButtonElement | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const seasons = useSeasons();
  const stats = useStats(season);

  const seasonList = seasons.data?.seasons;
  const seasonId = season ?? stats.data?.season.id ?? seasonList?.find((s) => s.isCurrent)?.id;
  const seasonName = seasonList?.find((s) => s.id === seasonId)?.name ?? stats.data?.season.name;

  const refresh = async () => {
    setRefreshing(true);
    try {
      await queryClient.refetchQueries({ predicate: isDashboardQuery, type: 'active' });
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <>
      <DashboardHeader
        seasons={seasonList}
        seasonId={seasonId}
        onSeasonChange={setSeason}
        seasonName={seasonName}
        pendingReview={stats.data?.pendingReview}
        refreshing={refreshing}
        onRefresh={() => void refresh()}
      />
      <div className="flex flex-col gap-6">
        <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
          {STAT_CARDS.map((card) => (
            <StatCard
              key={card.kind}
              testId={card.testId}
              title={card.title}
              icon={STAT_ICONS[card.kind]}
              value={stats.data ? card.value(stats.data) : undefined}
              subtitle={stats.data ? card.subtitle(stats.data) : undefined}
              error={!stats.data && stats.isError}
              onClick={(button) => {
                openerRef.current = button;
                setOpenCard(card.kind);
              }}
            />
          ))}
          <ExpiringCard stats={stats.data} error={!stats.data && stats.isError} seasonId={season ?? stats.data?.season.id} className="col-span-2 lg:col-span-1" />
        </section>
        <GmailIntakePanel />
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <div className="min-w-0">
            <ProcessingCard />
          </div>
          <div className="min-w-0">
            <SystemStatusCard />
          </div>
        </div>
        {/* 'Document Status Overview', built by the Players feature; it follows the dashboard's season. */}
        <div data-testid="document-status-overview-slot" className="min-w-0">
          <DocumentStatusOverview season={season} />
        </div>
      </div>
      <StatDetailDialog kind={openCard} season={season} onClose={() => setOpenCard(null)} returnFocusTo={() => openerRef.current} />
    </>
  );
}
