import { History, LoaderCircle } from 'lucide-react';
import { useId } from 'react';
import { SHARED_PASSWORD_NAME } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { IconCardTitle } from '@/components/icon-card-title';
import { ListSkeleton } from '@/components/list-skeleton';
import { LoadError } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useUserActivity, useUserList } from '../api';
import { userFullName } from '../user-display';
import { DEFAULT_USER_FILTERS } from '../user-filters';
import type { ActivityPerson } from '../users-tabs';

const entriesWord = (count: number) => (count === 1 ? 'entry' : 'entries');

/** Everyone, the shared password, or one person of the list (by name). */
function PersonFilter({ person, onChange }: { person: ActivityPerson; onChange: (person: ActivityPerson) => void }) {
  const id = useId();
  const users = useUserList(DEFAULT_USER_FILTERS);
  const people = [...(users.data?.users ?? [])].sort((a, b) => userFullName(a).localeCompare(userFullName(b)));
  return (
    <div className="flex min-w-0 flex-col gap-2 sm:w-72">
      <Label htmlFor={id}>Person</Label>
      <Select value={person} onValueChange={onChange}>
        <SelectTrigger id={id} data-testid="activity-person">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">Everyone</SelectItem>
          <SelectItem value="shared">{SHARED_PASSWORD_NAME}</SelectItem>
          {people.map((user) => (
            <SelectItem key={user.id} value={user.id}>
              {userFullName(user)}
            </SelectItem>
          ))}
          {/* A person picked by a link who is not in the list (deleted since) still reads as chosen. */}
          {person !== 'all' && person !== 'shared' && !people.some((user) => user.id === person) ? (
            <SelectItem value={person}>Someone no longer listed</SelectItem>
          ) : null}
        </SelectContent>
      </Select>
    </div>
  );
}

function ActivityEntries({ person }: { person: ActivityPerson }) {
  const activity = useUserActivity(person);

  if (activity.isPending) {
    return <ListSkeleton label="Loading activity" rows={5} leading="hidden" lines={['h-4 w-64 max-w-full', 'h-3 w-40 max-w-full']} trailing="hidden" />;
  }
  if (activity.isError) {
    return (
      <LoadError title="Unable to load activity" detail={getErrorMessage(activity.error)} onRetry={() => void activity.refetch()} retrying={activity.isFetching} />
    );
  }
  const entries = activity.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) {
    return <EmptyState icon={History} title="No activity yet" description="Sign-ins, reviews and changes appear here as they happen." className="py-12" testId="activity-empty" />;
  }
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="activity-count">
        {`${entries.length} ${entriesWord(entries.length)}, newest first`}
      </p>
      <ol className="flex flex-col divide-y" aria-label="Activity, newest first" data-testid="activity-list">
        {entries.map((entry) => (
          <li key={entry.id} className="flex flex-col gap-1 py-3 first:pt-0 sm:flex-row sm:items-baseline sm:gap-4" data-testid="activity-entry" data-action={entry.action}>
            <time dateTime={entry.at} className="shrink-0 text-xs text-muted-foreground tabular-nums sm:w-44">
              {formatDateTime(entry.at)}
            </time>
            <p className="min-w-0 text-sm break-words">
              <span className="font-medium">{entry.actorName}</span>
              <span className="text-muted-foreground"> · </span>
              {entry.summary}
            </p>
          </li>
        ))}
      </ol>
      {activity.hasNextPage ? (
        <Button variant="outline" className="w-full sm:w-fit" onClick={() => void activity.fetchNextPage()} disabled={activity.isFetchingNextPage}>
          {activity.isFetchingNextPage ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          {activity.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      ) : (
        <p className="text-xs text-muted-foreground">That is everything recorded.</p>
      )}
    </div>
  );
}

/** The Activity tab: who did what and when, newest first, for everyone or one person; 'Load more' pages back. */
export function ActivityTab({ person, onPersonChange }: { person: ActivityPerson; onPersonChange: (person: ActivityPerson) => void }) {
  return (
    <Card className="gap-4 py-4 sm:py-5" data-testid="activity-tab">
      <CardHeader className="px-3 sm:px-5">
        <IconCardTitle icon={History} iconTone="text-muted-foreground">
          Activity
        </IconCardTitle>
        <CardDescription>What staff did in Clearbase, from the audit record.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5 px-3 sm:px-5">
        <PersonFilter person={person} onChange={onPersonChange} />
        <ActivityEntries person={person} />
      </CardContent>
    </Card>
  );
}
