import { ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TUser } from '../../../../contract';
import { UserRoleBadge, UserStatusBadge } from '@/components/status-badges';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { divisionsText } from '@/lib/access-text';
import { lastActionText, lastLoginText, USER_ROLE_LABELS, USER_STATUS_LABELS, userFullName } from '../user-display';
import { UserAvatar } from './user-avatar';
import { UserRowActions, type UserAction } from './user-row-actions';

export interface UsersListProps {
  users: readonly TUser[];
  layout: 'table' | 'cards';
  caption: string;
  /** The signed-in person's user id: their own row cannot deactivate or delete itself. */
  selfId: string | null;
  /** Row menus, for those who may manage users; absent, the list is read only. */
  onAction?: (action: UserAction, user: TUser) => void;
}

function When({ iso, text }: { iso: string | null; text: string }) {
  return iso === null ? <span className="text-muted-foreground">{text}</span> : <time dateTime={iso}>{text}</time>;
}

function AccessBadges({ user }: { user: TUser }) {
  return (
    <div className="flex flex-wrap gap-1.5">
      <UserRoleBadge role={user.role} label={USER_ROLE_LABELS[user.role]} />
      <Badge variant="outline" className="font-normal" data-testid="user-divisions">
        {divisionsText(user.divisions)}
      </Badge>
    </div>
  );
}

function StatusBadges({ user }: { user: TUser }) {
  return (
    <div className="flex flex-wrap gap-1.5">
      <UserStatusBadge status={user.status} label={USER_STATUS_LABELS[user.status]} />
      {user.twoFactorEnabled ? (
        <Badge variant="success" data-testid="user-two-factor" title="Two-step sign-in is on">
          <ShieldCheck aria-hidden="true" />
          2FA
          <span className="sr-only">: two-step sign-in is on</span>
        </Badge>
      ) : null}
    </div>
  );
}

function NameAndEmail({ user, self }: { user: TUser; self: boolean }) {
  return (
    <div className="grid min-w-0 flex-1 gap-0.5">
      <span className="flex flex-wrap items-center gap-2 font-medium break-words" data-testid="user-name">
        {userFullName(user)}
        {self ? <Badge variant="secondary">You</Badge> : null}
      </span>
      <span className="text-sm [overflow-wrap:anywhere] text-muted-foreground" data-testid="user-email">
        {user.email}
      </span>
    </div>
  );
}

function UsersTable({ users, caption, selfId, onAction }: Omit<UsersListProps, 'layout'>) {
  return (
    <Table data-testid="users-table">
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">Name</TableHead>
          <TableHead scope="col">Role and divisions</TableHead>
          <TableHead scope="col">Status</TableHead>
          <TableHead scope="col">Last login</TableHead>
          <TableHead scope="col">Last action</TableHead>
          {onAction ? (
            <TableHead scope="col" className="text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => (
          <TableRow key={user.id} data-testid="user-row" data-user-id={user.id}>
            {/* The one column that wraps: a long e-mail breaks rather than push the others out of the card. */}
            <TableCell className="min-w-56 py-2.5 whitespace-normal">
              <div className="flex items-center gap-3">
                <UserAvatar user={user} />
                <NameAndEmail user={user} self={user.id === selfId} />
              </div>
            </TableCell>
            <TableCell>
              <AccessBadges user={user} />
            </TableCell>
            <TableCell>
              <StatusBadges user={user} />
            </TableCell>
            <TableCell className="tabular-nums" data-testid="user-last-login">
              <When iso={user.lastLogin} text={lastLoginText(user.lastLogin)} />
            </TableCell>
            <TableCell className="tabular-nums" data-testid="user-last-action">
              <When iso={user.lastActionAt} text={lastActionText(user.lastActionAt)} />
            </TableCell>
            {onAction ? (
              <TableCell className="text-right">
                <UserRowActions user={user} self={user.id === selfId} onAction={onAction} />
              </TableCell>
            ) : null}
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
function UserCards({ users, caption, selfId, onAction }: Omit<UsersListProps, 'layout'>) {
  return (
    <ul className="grid gap-3" aria-label={caption} data-testid="users-cards">
      {users.map((user) => (
        <li key={user.id} data-testid="user-row" data-user-id={user.id} className="grid gap-3 rounded-lg border p-3">
          <div className="flex items-start gap-3">
            <UserAvatar user={user} />
            {/* The whole width for the name and e-mail: an address breaks only when it cannot fit a line. */}
            <NameAndEmail user={user} self={user.id === selfId} />
            {onAction ? <UserRowActions user={user} self={user.id === selfId} onAction={onAction} /> : null}
          </div>
          <div className="flex flex-wrap gap-1.5">
            <AccessBadges user={user} />
            <StatusBadges user={user} />
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
            <Detail label="Last login">
              <span data-testid="user-last-login">
                <When iso={user.lastLogin} text={lastLoginText(user.lastLogin)} />
              </span>
            </Detail>
            <Detail label="Last action">
              <span data-testid="user-last-action">
                <When iso={user.lastActionAt} text={lastActionText(user.lastActionAt)} />
              </span>
            </Detail>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** Wide screens get a table; a phone gets a stack of cards. */
export function UsersList({ layout, ...props }: UsersListProps) {
  return layout === 'table' ? <UsersTable {...props} /> : <UserCards {...props} />;
}
