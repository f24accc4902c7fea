import { KeyRound, MonitorSmartphone, MoreHorizontal, Pencil, Send, ShieldOff, Trash2, UserCheck, UserX } from 'lucide-react';
import { useRef } from 'react';
import type { TUser } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { userFullName } from '../user-display';

/** What a row's menu can open; the page holds the dialogs. */
export type UserAction = 'edit' | 'link' | 'deactivate' | 'reactivate' | 'sessions' | 'reset-two-factor' | 'delete';

/**
 * The row's actions in a menu (arrow keys, Enter, Escape); on the signed-in person's own row only Edit and the
 * password link. The chosen action starts once the menu has closed
 * and given focus back to its button, so the dialog it opens returns focus there too.
 */
export function UserRowActions({ user, self, onAction }: { user: TUser; self: boolean; onAction: (action: UserAction, user: TUser) => void }) {
  const chosen = useRef<UserAction | null>(null);
  const remember = (action: UserAction) => {
    chosen.current = action;
  };
  const name = userFullName(user);

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" data-testid="user-actions">
          <MoreHorizontal aria-hidden="true" />
          <span className="sr-only">Actions for {name}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-56"
        onCloseAutoFocus={() => {
          const action = chosen.current;
          chosen.current = null;
          if (action) onAction(action, user);
        }}
      >
        <DropdownMenuItem onSelect={() => remember('edit')}>
          <Pencil aria-hidden="true" />
          Edit
        </DropdownMenuItem>
        {user.status === 'pending' ? (
          <DropdownMenuItem onSelect={() => remember('link')}>
            <Send aria-hidden="true" />
            Resend invitation
          </DropdownMenuItem>
        ) : null}
        {user.status === 'active' ? (
          <DropdownMenuItem onSelect={() => remember('link')}>
            <KeyRound aria-hidden="true" />
            Reset password
          </DropdownMenuItem>
        ) : null}
        {/* Their own sessions and two-step sign-in are on My Account, where this device is kept signed in. */}
        {self ? null : (
          <DropdownMenuItem onSelect={() => remember('sessions')}>
            <MonitorSmartphone aria-hidden="true" />
            Sessions
          </DropdownMenuItem>
        )}
        {user.twoFactorEnabled && !self ? (
          <DropdownMenuItem onSelect={() => remember('reset-two-factor')}>
            <ShieldOff aria-hidden="true" />
            Reset two-step sign-in
          </DropdownMenuItem>
        ) : null}
        {self ? null : (
          <>
            <DropdownMenuSeparator />
            {user.status === 'inactive' ? (
              <DropdownMenuItem onSelect={() => remember('reactivate')}>
                <UserCheck aria-hidden="true" />
                Reactivate
              </DropdownMenuItem>
            ) : (
              <DropdownMenuItem onSelect={() => remember('deactivate')}>
                <UserX aria-hidden="true" />
                Deactivate
              </DropdownMenuItem>
            )}
            <DropdownMenuItem onSelect={() => remember('delete')} className="text-red-700 focus:text-red-800 dark:text-red-400 dark:focus:text-red-300">
              <Trash2 aria-hidden="true" />
              Delete
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

