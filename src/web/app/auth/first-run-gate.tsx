import { CalendarPlus, Clock } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { NewSeasonForm, newSeasonForm } from '@/features/seasons';
import { useSeasons } from '@/lib/seasons-query';
import { useLogout, usePermissions } from '@/lib/session-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { GateLayout } from './gate-layout';

function SignOutLink() {
  const logout = useLogout();
  return (
    <Button variant="link" size="sm" className="text-muted-foreground" onClick={() => logout.mutate()} disabled={logout.isPending}>
      Sign out
    </Button>
  );
}

/** The first-run step: the first season, with the same form as Settings → Seasons → New season. */
function CreateFirstSeason() {
  useDocumentTitle('Create your first season');
  const [initial] = useState(() => newSeasonForm(new Date(), []));
  return (
    <GateLayout
      icon={CalendarPlus}
      title="Create your first season"
      description="Families register for a season, so Clearbase takes no registration until one exists. Create the season you are taking registrations for now; you can add others and change this one later in Settings → Seasons."
      wide
      footer={<SignOutLink />}
    >
      {/* Once it is created the seasons are read again, and the app opens in place of this step. */}
      <NewSeasonForm initial={initial} onDone={() => undefined} variant="page" />
    </GateLayout>
  );
}

/** For a person who may not create seasons: what is missing, and who can fix it. */
function WaitingForFirstSeason({ onCheckAgain, checking }: { onCheckAgain: () => void; checking: boolean }) {
  useDocumentTitle('Clearbase is not set up yet');
  return (
    <GateLayout
      icon={Clock}
      title="Clearbase is not set up yet"
      description="No season exists yet, so there is nothing to show. A league admin creates the first season; then the app opens here."
      footer={<SignOutLink />}
    >
      <Button variant="outline" className="w-full" onClick={onCheckAgain} disabled={checking}>
        Check again
      </Button>
    </GateLayout>
  );
}

/**
 * On an installation with no season (a new one without demo data), the first-run step in place of the app,
 * whose screens all need a season: an admin creates the first season, anyone else is told to wait for one.
 * While the seasons are read, nothing is shown; if they cannot be read, the app opens and its screens say so.
 */
export function FirstRunGate({ children, loading }: { children: ReactNode; loading: ReactNode }) {
  const seasons = useSeasons();
  const { can } = usePermissions();
  if (seasons.isPending) return loading;
  if (seasons.data?.seasons.length !== 0) return children;
  if (can('settings.manage')) return <CreateFirstSeason />;
  return <WaitingForFirstSeason onCheckAgain={() => void seasons.refetch()} checking={seasons.isFetching} />;
}
