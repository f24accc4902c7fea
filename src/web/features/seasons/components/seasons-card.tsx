import { CalendarDays, CalendarPlus, CalendarRange, ListChecks, Lock, LockOpen, Pencil, Star } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { TSeason } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { IconCardTitle } from '@/components/icon-card-title';
import { ListSkeleton } from '@/components/list-skeleton';
import { LoadError } from '@/components/load-error';
import { ReadOnlyNote } from '@/components/read-only-note';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useSeasons } from '@/lib/seasons-query';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useUpdateSeason } from '../api';
import { newSeasonForm, seasonFormFromSeason } from '../season-form';
import { EditSeasonForm, NewSeasonForm } from './season-forms';
import { SeasonRequirements } from './season-requirements';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 sm:flex-row sm:gap-2">
      <dt className="shrink-0 text-muted-foreground sm:w-44">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * One season: its name and badges, dates, deadline and divisions, its requirements (changed by who may manage
 * settings, read by anyone else), and for who may change it, its other actions.
 */
function SeasonItem({
  season,
  canManage,
  busy,
  onEdit,
  onRequirements,
  onMakeCurrent,
  onClose,
  onReopen,
}: {
  season: TSeason;
  canManage: boolean;
  busy: boolean;
  onEdit: () => void;
  onRequirements: () => void;
  onMakeCurrent: () => void;
  onClose: () => void;
  onReopen: () => void;
}) {
  const headingId = `season-${season.id}-name`;
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 lg:flex-row lg:items-start lg:justify-between" aria-labelledby={headingId} data-testid={`season-${season.id}`}>
      <div className="flex min-w-0 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="font-medium break-words">
            {season.name}
          </h3>
          {season.isCurrent ? (
            <Badge variant="success" data-testid="season-current-badge">
              <Star aria-hidden="true" />
              Current
            </Badge>
          ) : null}
          {season.closed ? (
            <Badge variant="secondary" data-testid="season-closed-badge">
              <Lock aria-hidden="true" />
              Closed
            </Badge>
          ) : null}
        </div>
        <dl className="flex flex-col gap-1 text-sm">
          <Fact label="Dates">
            {formatDate(season.startsOn)} – {formatDate(season.endsOn)}
          </Fact>
          <Fact label="Registration deadline">{formatDate(season.registrationDeadline)}</Fact>
          <Fact label="Divisions">
            <span className="flex flex-wrap gap-1.5" data-testid="season-divisions-list">
              {season.divisions.map((division) => (
                <Badge key={division} variant="outline">
                  {division}
                </Badge>
              ))}
            </span>
          </Fact>
          {season.closed && season.closedAt ? <Fact label="Closed to registrations">since {formatDate(season.closedAt.slice(0, 10))}</Fact> : null}
        </dl>
      </div>
      <div className="flex flex-wrap gap-2 lg:shrink-0 lg:justify-end">
        {canManage ? (
          <Button variant="outline" size="sm" onClick={onEdit} disabled={busy}>
            <Pencil aria-hidden="true" />
            Edit<span className="sr-only"> {season.name}</span>
          </Button>
        ) : null}
        <Button variant="outline" size="sm" onClick={onRequirements}>
          <ListChecks aria-hidden="true" />
          Requirements<span className="sr-only"> of {season.name}</span>
        </Button>
        {canManage ? (
          <>
          {season.isCurrent ? null : (
            <Button variant="outline" size="sm" onClick={onMakeCurrent} disabled={busy}>
              <Star aria-hidden="true" />
              Make current<span className="sr-only"> {season.name}</span>
            </Button>
          )}
          {season.closed ? (
            <Button variant="outline" size="sm" onClick={onReopen} disabled={busy}>
              <LockOpen aria-hidden="true" />
              Reopen<span className="sr-only"> {season.name}</span>
            </Button>
          ) : (
            <Button variant="outline" size="sm" onClick={onClose} disabled={busy}>
              <Lock aria-hidden="true" />
              Close season<span className="sr-only"> {season.name}</span>
            </Button>
          )}
          </>
        ) : null}
      </div>
    </li>
  );
}

/**
 * Settings → Seasons: every season, newest first, with its dates, registration deadline, divisions and whether it
 * is current or closed; who may manage settings creates, edits, makes current, closes and reopens them.
 */
export function SeasonsCard() {
  const seasons = useSeasons();
  const { can } = usePermissions();
  const canManage = can('settings.manage');
  const update = useUpdateSeason();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TSeason | null>(null);
  const [closing, setClosing] = useState<TSeason | null>(null);
  const [rulesOf, setRulesOf] = useState<TSeason | null>(null);
  // Opened from a row's button, not a trigger: focus goes back to it when the dialog closes.
  const editFocus = useReturnFocus();
  const closeFocus = useReturnFocus();
  const rulesFocus = useReturnFocus();
  const list = seasons.data?.seasons ?? [];

  const change = (season: TSeason, patch: { isCurrent: true } | { closed: boolean }, done: string) =>
    update.mutate(
      { id: season.id, patch },
      {
        onSuccess: () => toast({ title: 'Season saved', description: done }),
        onError: (error) => toast({ variant: 'destructive', title: 'Season not saved', description: getErrorMessage(error) }),
      },
    );

  let body: ReactNode;
  if (seasons.isPending) {
    body = <ListSkeleton label="Loading seasons" rows={2} leading="hidden" lines={['h-4 w-40', 'h-4 w-64']} trailing="h-8 w-24" />;
  } else if (seasons.isError) {
    body = <LoadError title="Unable to load the seasons" detail={getErrorMessage(seasons.error)} onRetry={() => void seasons.refetch()} retrying={seasons.isFetching} />;
  } else if (list.length === 0) {
    body = <EmptyState icon={CalendarDays} title="No season yet" description="Families can register once a season exists." testId="seasons-empty" />;
  } else {
    body = (
      <ul className="flex flex-col divide-y" aria-label="Seasons" data-testid="seasons-list">
        {list.map((season) => (
          <SeasonItem
            key={season.id}
            season={season}
            canManage={canManage}
            busy={update.isPending}
            onEdit={() => setEditing(season)}
            onRequirements={() => setRulesOf(season)}
            onMakeCurrent={() => change(season, { isCurrent: true }, `${season.name} is now the current season.`)}
            onClose={() => setClosing(season)}
            onReopen={() => change(season, { closed: false }, `${season.name} takes registrations again.`)}
          />
        ))}
      </ul>
    );
  }

  return (
    <Card data-testid="seasons-settings">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1.5">
          <IconCardTitle icon={CalendarRange}>Seasons</IconCardTitle>
          <CardDescription>
            The seasons families register for, the divisions each offers and its deadline. The current season is the one every screen opens on.
          </CardDescription>
        </div>
        {canManage ? (
          <Button onClick={() => setCreating(true)} className="sm:shrink-0" disabled={seasons.isPending}>
            <CalendarPlus aria-hidden="true" />
            New season
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {canManage ? null : <ReadOnlyNote>Only a league admin can add or change seasons.</ReadOnlyNote>}
        {body}
      </CardContent>

      <Dialog open={creating} onOpenChange={setCreating}>
        <DialogContent className="sm:max-w-xl" data-testid="new-season-dialog">
          <DialogHeader>
            <DialogTitle>New season</DialogTitle>
            <DialogDescription>
              Its id is made from the kind and year (<span className="font-mono whitespace-nowrap">fall-2026</span>) and stays when you edit it.
            </DialogDescription>
          </DialogHeader>
          {creating ? <NewSeasonForm initial={newSeasonForm(new Date(), list)} onDone={() => setCreating(false)} /> : null}
        </DialogContent>
      </Dialog>

      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent className="sm:max-w-xl" data-testid="edit-season-dialog" {...editFocus}>
          {editing ? (
            <>
              <DialogHeader>
                <DialogTitle>Edit season</DialogTitle>
                <DialogDescription>Change the name, dates, deadline and divisions of {editing.name}.</DialogDescription>
              </DialogHeader>
              <EditSeasonForm key={editing.id} season={editing} initial={seasonFormFromSeason(editing)} onDone={() => setEditing(null)} />
            </>
          ) : null}
        </DialogContent>
      </Dialog>

      <Dialog open={rulesOf !== null} onOpenChange={(open) => !open && setRulesOf(null)}>
        <DialogContent className="sm:max-w-2xl" data-testid="season-requirements-dialog" {...rulesFocus}>
          {rulesOf ? (
            <>
              <DialogHeader>
                <DialogTitle>Requirements for {rulesOf.name}</DialogTitle>
                <DialogDescription>
                  The documents each player needs and how long an approval counts, the day league age is counted on, and the ages each division takes.
                  {canManage ? ' Saving recomputes every player’s status for the season.' : ''}
                </DialogDescription>
              </DialogHeader>
              <SeasonRequirements season={rulesOf} canManage={canManage} onDone={() => setRulesOf(null)} />
            </>
          ) : null}
        </DialogContent>
      </Dialog>

      <AlertDialog open={closing !== null} onOpenChange={(open) => !open && setClosing(null)}>
        <AlertDialogContent data-testid="close-season-dialog" {...closeFocus}>
          <AlertDialogHeader>
            <AlertDialogTitle>Close {closing?.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              New registrations for this season are refused from then on: a family's form gets “The {closing?.name} season is closed to new registrations.”
              Players and documents already received stay. You can reopen it at any time.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button
              onClick={() => {
                if (closing) change(closing, { closed: true }, `${closing.name} no longer takes new registrations.`);
                setClosing(null);
              }}
            >
              <Lock aria-hidden="true" />
              Close season
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
