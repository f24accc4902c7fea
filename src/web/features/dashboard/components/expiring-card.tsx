import { CalendarClock } from 'lucide-react';
import { EXPIRING_WITHIN_DAYS, type TStats } from '../../../../contract';
import { StatCard } from '@/components/stat-card';

/** The Players screen listing the season's players whose approval runs out soon. */
export function expiringPlayersHref(seasonId: string | undefined): string {
  const params = new URLSearchParams({ status: 'expiring' });
  if (seasonId !== undefined) params.set('season', seasonId);
  return `/players?${params.toString()}`;
}

/**
 * 'Expiring within 30 days': the season's players with an approval (a medical form's year) running out soon,
 * a link to the Players screen filtered to them.
 */
export function ExpiringCard({ stats, error, seasonId, className }: { stats: TStats | undefined; error: boolean; seasonId: string | undefined; className?: string }) {
  return (
    <StatCard
      title={`Expiring within ${EXPIRING_WITHIN_DAYS} days`}
      value={stats?.expiringSoon}
      subtitle="Players whose approval runs out soon"
      icon={CalendarClock}
      href={expiringPlayersHref(seasonId)}
      linkLabel="Show these players"
      error={error && stats === undefined}
      testId="stat-expiring-soon"
      {...(className === undefined ? {} : { className })}
    />
  );
}
