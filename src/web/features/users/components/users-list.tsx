import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TUser } from '../../../../contract';
import { UserRoleBadge, UserStatusBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { createdText, lastLoginText, USER_ROLE_LABELS, USER_STATUS_LABELS, userFullName } from '../user-display';
import { UserAvatar } from './user-avatar';

export interface UserRowHandlers {
  onEdit: (user: TUser) => void;
  onDelete: (user: TUser) => void;
}

/** Edit (role and status) and Delete; icons only, each named after its user for screen readers. */
function UserActions({ user, handlers, className }: { user: TUser; handlers: UserRowHandlers; className?: string }) {
  const name = userFullName(user);
  return (
    <div className={cn('flex items-center gap-1', className)}>
      <Button variant="ghost" size="icon" className="size-8" title="Edit role and status" onClick={() => handlers.onEdit(user)}>
        <Pencil aria-hidden="true" />
        <span className="sr-only">Edit {name}</span>
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8 text-red-700 hover:text-red-800 dark:text-red-400 dark:hover:text-red-300"
        title="Delete"
        onClick={() => handlers.onDelete(user)}
      >
        <Trash2 aria-hidden="true" />
        <span className="sr-only">Delete {name}</span>
      </Button>
    </div>
  );
}

function LastLogin({ user }: { user: TUser }) {
  return user.lastLogin === null ? (
    <span className="text-muted-foreground">Never</span>
  ) : (
    <time dateTime={user.lastLogin}>{lastLoginText(user.lastLogin)}</time>
  );
}

function UsersTable({ users, handlers, caption }: { users: readonly TUser[]; handlers: UserRowHandlers; caption: string }) {
  return (
    <Table data-testid="users-table">
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">Name</TableHead>
          <TableHead scope="col">E-mail</TableHead>
          <TableHead scope="col">Role</TableHead>
          <TableHead scope="col">Status</TableHead>
          <TableHead scope="col">Last login</TableHead>
          <TableHead scope="col">Created</TableHead>
          <TableHead scope="col" className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => (
          <TableRow key={user.id} data-testid="user-row" data-user-id={user.id}>
            <TableCell className="py-2.5">
              <div className="flex items-center gap-3">
                <UserAvatar user={user} />
                <span className="font-medium" data-testid="user-name">
                  {userFullName(user)}
                </span>
              </div>
            </TableCell>
            <TableCell className="text-muted-foreground" data-testid="user-email">
              {user.email}
            </TableCell>
            <TableCell>
              <UserRoleBadge role={user.role} label={USER_ROLE_LABELS[user.role]} />
            </TableCell>
            <TableCell>
              <UserStatusBadge status={user.status} label={USER_STATUS_LABELS[user.status]} />
            </TableCell>
            <TableCell className="tabular-nums" data-testid="user-last-login">
              <LastLogin user={user} />
            </TableCell>
            <TableCell className="tabular-nums">
              <time dateTime={user.createdAt}>{createdText(user.createdAt)}</time>
            </TableCell>
            <TableCell>
              <UserActions user={user} handlers={handlers} className="justify-end" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

/** The phone's layout: one card a user, the same facts as the table's row. */
function UserCards({ users, handlers, caption }: { users: readonly TUser[]; handlers: UserRowHandlers; caption: string }) {
  return (
    <ul className="grid gap-3" aria-label={caption} data-testid="users-cards">
      {users.map((user) => (
        <li key={user.id} data-testid="user-row" data-user-id={user.id} className="grid gap-3 rounded-lg border p-3">
          <div className="flex items-center gap-3">
            <UserAvatar user={user} />
            {/* The whole width for the name and e-mail: an address breaks only when it cannot fit a line. */}
            <div className="grid min-w-0 flex-1 gap-0.5">
              <span className="font-medium break-words" data-testid="user-name">
                {userFullName(user)}
              </span>
              <span className="text-sm break-words text-muted-foreground" data-testid="user-email">
                {user.email}
              </span>
            </div>
          </div>
          <div className="flex items-center justify-between gap-2">
            <div className="flex flex-wrap gap-2">
              <UserRoleBadge role={user.role} label={USER_ROLE_LABELS[user.role]} />
              <UserStatusBadge status={user.status} label={USER_STATUS_LABELS[user.status]} />
            </div>
            <UserActions user={user} handlers={handlers} className="-my-1 -mr-1" />
          </div>
          {/* The last login (date and time) gets the wider column, so it stays on one line at 390 px. */}
          <dl className="grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] gap-x-4 gap-y-2">
            <Detail label="Last login">
              <span data-testid="user-last-login">
                <LastLogin user={user} />
              </span>
            </Detail>
            <Detail label="Created">
              <time dateTime={user.createdAt}>{createdText(user.createdAt)}</time>
            </Detail>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** Wide screens get a table; a phone gets a stack of cards. */
export function UsersList({
  users,
  handlers,
  layout,
  caption,
}: {
  users: readonly TUser[];
  handlers: UserRowHandlers;
  layout: 'table' | 'cards';
  caption: string;
}) {
  return layout === 'table' ? <UsersTable users={users} handlers={handlers} caption={caption} /> : <UserCards users={users} handlers={handlers} caption={caption} />;
}
