import { UserRoundSearch, Users } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TUser } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { IconCardTitle } from '@/components/icon-card-title';
import { ListSkeleton } from '@/components/list-skeleton';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getErrorMessage } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { useUpdateUser, useUserList } from '../api';
import { userFullName } from '../user-display';
import { DEFAULT_USER_FILTERS, hasActiveUserFilters, parseUserFilters, serializeUserFilters, type UserFilters } from '../user-filters';
import { activitySearch, parseActivityPerson, parseUsersTab, USERS_TABS, type ActivityPerson, type UsersTab } from '../users-tabs';
import { ActivityTab } from './activity-tab';
import { DeleteUserDialog } from './delete-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { DeactivateUserDialog, InvitationLinkDialog, ResetTwoFactorDialog, UserSessionsDialog } from './user-action-dialogs';
import { UserFiltersBar } from './user-filters-bar';
import { type UserAction } from './user-row-actions';
import { UsersList } from './users-list';

/** Six columns need a tablet's width; a phone gets cards (in between, the table scrolls inside its card). */
const TABLE_QUERY = '(min-width: 768px)';

/** The filters live in the query string (?search=&role=&status=), so a link or a reload keeps them. */
function useUrlUserFilters() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filters = parseUserFilters(search);
  const setFilters = useCallback(
    (next: UserFilters, options: { replace?: boolean } = {}) => {
      const query = serializeUserFilters(next);
      navigate(query ? `${location}?${query}` : location, { replace: options.replace ?? false });
    },
    [location, navigate],
  );
  return [filters, setFilters] as const;
}

const usersWord = (count: number) => (count === 1 ? 'user' : 'users');

function UsersResults({ filters, onAction }: { filters: UserFilters; onAction: ((action: UserAction, user: TUser) => void) | undefined }) {
  const list = useUserList(filters);
  const wide = useMediaQuery(TABLE_QUERY);
  const { principal } = usePermissions();

  if (list.isPending) {
    return (
      <ListSkeleton
        label="Loading users"
        rows={4}
        leading="size-9 rounded-full"
        lines={['h-3.5 w-40 max-w-full', 'h-3 w-52 max-w-full']}
        trailing="hidden h-5 w-48 sm:block"
        className="flex flex-col gap-4 py-2"
        testId="users-loading"
      />
    );
  }
  if (list.isError) {
    return (
      <LoadError
        title="Unable to load users"
        detail={getErrorMessage(list.error)}
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
        className="py-4"
        testId="users-error"
      />
    );
  }

  const { users } = list.data;
  const count = `${users.length} ${usersWord(users.length)}`;
  return (
    <div data-testid="users-results" aria-busy={list.isPlaceholderData} className={cn('flex flex-col gap-4 transition-opacity', list.isPlaceholderData && 'opacity-60')}>
      <p className="text-sm text-muted-foreground" data-testid="users-count" aria-live="polite">
        {hasActiveUserFilters(filters) ? `${count} match the filters` : count}
      </p>
      {users.length === 0 ? (
        <EmptyState
          icon={UserRoundSearch}
          title="No users found"
          description={
            hasActiveUserFilters(filters)
              ? 'No users match your current filters.'
              : onAction
                ? 'Invite User gives a member of staff their own sign-in.'
                : 'No member of staff has a personal account yet.'
          }
          className="py-12"
          testId="users-empty"
        />
      ) : (
        <UsersList
          users={users}
          layout={wide ? 'table' : 'cards'}
          caption={`Users: ${count}`}
          selfId={principal?.userId ?? null}
          onAction={onAction}
        />
      )}
    </div>
  );
}

/** The dialogs a row's menu opens, one at a time; Reactivate needs none. */
function useUserActions() {
  const [open, setOpen] = useState<{ action: UserAction; user: TUser } | null>(null);
  const update = useUpdateUser();
  const userFor = (action: UserAction) => (open?.action === action ? open.user : null);
  const close = (isOpen: boolean) => {
    if (!isOpen) setOpen(null);
  };

  const run = (action: UserAction, user: TUser) => {
    if (action !== 'reactivate') return setOpen({ action, user });
    const name = userFullName(user);
    update.mutate(
      { id: user.id, patch: { status: 'active' } },
      {
        onSuccess: () => toast({ title: 'User reactivated', description: `${name} can sign in again.` }),
        onError: (error) => toast({ variant: 'destructive', title: 'User not reactivated', description: getErrorMessage(error) }),
      },
    );
  };

  const dialogs = (
    <>
      <EditUserDialog user={userFor('edit')} onOpenChange={close} />
      <InvitationLinkDialog user={userFor('link')} onOpenChange={close} />
      <DeactivateUserDialog user={userFor('deactivate')} onOpenChange={close} />
      <UserSessionsDialog user={userFor('sessions')} onOpenChange={close} />
      <ResetTwoFactorDialog user={userFor('reset-two-factor')} onOpenChange={close} />
      <DeleteUserDialog user={userFor('delete')} onOpenChange={close} />
    </>
  );
  return { run, dialogs };
}

/**
 * User Management: the staff accounts and what they did. Those who may manage users invite, edit, deactivate
 * and delete them; everyone else sees the list and the activity, without the controls.
 */
export function UsersPage() {
  useDocumentTitle('User Management');
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [filters, setFilters] = useUrlUserFilters();
  const tab = parseUsersTab(search);
  const person = parseActivityPerson(search);
  const { can } = usePermissions();
  const canManage = can('users.manage');
  const actions = useUserActions();

  const showTab = (next: UsersTab) => navigate(next === 'users' ? location : `${location}?${activitySearch('all')}`, { replace: true });
  const showPerson = (next: ActivityPerson) => navigate(`${location}?${activitySearch(next)}`, { replace: true });

  return (
    <>
      <PageHeader
        title="User Management"
        description={canManage ? 'Staff accounts, their roles and their access' : 'Staff accounts and what they did (read only)'}
        actions={canManage ? <InviteUserDialog /> : undefined}
      />
      <Tabs value={tab} onValueChange={(next) => showTab(next === 'activity' ? 'activity' : 'users')} className="flex flex-col gap-6">
        <TabsList aria-label="User Management sections" className="w-full sm:w-fit">
          {USERS_TABS.map((entry) => (
            <TabsTrigger key={entry.value} value={entry.value}>
              {entry.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="users" className="flex flex-col gap-6">
          <Card className="py-4 sm:py-5">
            <CardContent className="px-3 sm:px-5">
              <UserFiltersBar
                filters={filters}
                // Typing replaces the history entry; picking a filter adds one, so Back undoes it.
                onChange={(change) => setFilters({ ...filters, ...change }, { replace: change.search !== undefined })}
                onClear={() => setFilters(DEFAULT_USER_FILTERS)}
              />
            </CardContent>
          </Card>
          <Card className="gap-4 py-4 sm:py-5">
            <CardHeader className="px-3 sm:px-5">
              <IconCardTitle icon={Users} iconTone="text-muted-foreground">
                Users
              </IconCardTitle>
            </CardHeader>
            <CardContent className="px-3 sm:px-5">
              <UsersResults filters={filters} onAction={canManage ? actions.run : undefined} />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="activity" className="flex flex-col gap-6">
          {tab === 'activity' ? <ActivityTab person={person} onPersonChange={showPerson} /> : null}
        </TabsContent>
      </Tabs>
      {canManage ? actions.dialogs : null}
    </>
  );
}
