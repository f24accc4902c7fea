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
import { getErrorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { useUserList } from '../api';
import { DEFAULT_USER_FILTERS, hasActiveUserFilters, parseUserFilters, serializeUserFilters, type UserFilters } from '../user-filters';
import { AddUserDialog } from './add-user-dialog';
import { DeleteUserDialog } from './delete-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { UserFiltersBar } from './user-filters-bar';
import { UsersList } from './users-list';

/** Seven columns need a tablet's width; a phone gets cards (in between, the table scrolls inside its card). */
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

function UsersResults({ filters, onEdit, onDelete }: { filters: UserFilters; onEdit: (user: TUser) => void; onDelete: (user: TUser) => void }) {
  const list = useUserList(filters);
  const wide = useMediaQuery(TABLE_QUERY);

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
          description={hasActiveUserFilters(filters) ? 'No users match your current filters.' : 'Add User gives a member of staff an account.'}
          className="py-12"
          testId="users-empty"
        />
      ) : (
        <UsersList users={users} handlers={{ onEdit, onDelete }} layout={wide ? 'table' : 'cards'} caption={`Users: ${count}`} />
      )}
    </div>
  );
}

/** User Management: add, find, edit and delete the staff accounts. */
export function UsersPage() {
  useDocumentTitle('User Management');
  const [filters, setFilters] = useUrlUserFilters();
  const [editing, setEditing] = useState<TUser | null>(null);
  const [deleting, setDeleting] = useState<TUser | null>(null);

  return (
    <>
      <PageHeader title="User Management" description="Staff accounts, their roles and their access" actions={<AddUserDialog />} />
      <div className="flex flex-col gap-6">
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
            <IconCardTitle icon={Users} iconTone="text-muted-foreground">Users</IconCardTitle>
          </CardHeader>
          <CardContent className="px-3 sm:px-5">
            <UsersResults filters={filters} onEdit={setEditing} onDelete={setDeleting} />
          </CardContent>
        </Card>
      </div>
      <EditUserDialog user={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <DeleteUserDialog user={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
    </>
  );
}
