import { KeyRound, LoaderCircle, LogOut, Send, ShieldOff, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TUser } from '../../../../contract';
import { LoadError } from '@/components/load-error';
import { ListSkeleton } from '@/components/list-skeleton';
import { SessionList } from '@/components/session-list';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError } from '@/components/form-field';
import { getErrorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useEndUserSessions, useNewInvitation, useResetTwoFactor, useUpdateUser, useUserSessions } from '../api';
import { userFullName } from '../user-display';
import { InvitationLinkPanel } from './invitation-link-panel';

interface UserDialogProps {
  user: TUser | null;
  onOpenChange: (open: boolean) => void;
}

/** A confirmation: title, what happens, Cancel and the action (which waits while the request runs). */
function ConfirmDialog({
  open,
  onOpenChange,
  busy,
  title,
  description,
  action,
  icon,
  destructive = false,
  onConfirm,
  testId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  title: string;
  description: ReactNode;
  action: string;
  icon: ReactNode;
  destructive?: boolean;
  onConfirm: () => void;
  testId: string;
}) {
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <AlertDialogContent data-testid={testId} {...returnFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant={destructive ? 'destructive' : 'default'} onClick={onConfirm} disabled={busy}>
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : icon}
            {action}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Deactivate: PATCH status 'inactive'; the server ends their sessions at once. */
export function DeactivateUserDialog({ user, onOpenChange }: UserDialogProps) {
  const update = useUpdateUser();
  const name = user ? userFullName(user) : '';
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      busy={update.isPending}
      title={`Deactivate ${name}?`}
      description="They are signed out at once on every device and cannot sign in until they are reactivated. Their account and its history stay."
      action="Deactivate"
      icon={<UserX aria-hidden="true" />}
      destructive
      testId="deactivate-user-dialog"
      onConfirm={() => {
        if (!user) return;
        update.mutate(
          { id: user.id, patch: { status: 'inactive' } },
          {
            onSuccess: () => toast({ title: 'User deactivated', description: `${name} can no longer sign in.` }),
            onError: (error) => toast({ variant: 'destructive', title: 'User not deactivated', description: getErrorMessage(error) }),
            onSettled: () => onOpenChange(false),
          },
        );
      }}
    />
  );
}

/** Reset two-step sign-in: DELETE /api/users/{id}/two-factor, for someone who lost their phone and their codes. */
export function ResetTwoFactorDialog({ user, onOpenChange }: UserDialogProps) {
  const reset = useResetTwoFactor();
  const name = user ? userFullName(user) : '';
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      busy={reset.isPending}
      title={`Reset two-step sign-in for ${name}?`}
      description="Do this when they lost their phone and their recovery codes. They sign in with their password alone until they set it up again; admins are asked to set it up at their next sign-in when the league requires it."
      action="Reset two-step sign-in"
      icon={<ShieldOff aria-hidden="true" />}
      destructive
      testId="reset-two-factor-dialog"
      onConfirm={() => {
        if (!user) return;
        reset.mutate(user.id, {
          onSuccess: () => toast({ title: 'Two-step sign-in reset', description: `${name} can set it up again from My Account.` }),
          onError: (error) => toast({ variant: 'destructive', title: 'Two-step sign-in not reset', description: getErrorMessage(error) }),
          onSettled: () => onOpenChange(false),
        });
      }}
    />
  );
}

/**
 * Resend invitation (a pending user) or Reset password (an active one): a new link on request, then the same
 * panel as after an invitation. Earlier links stop working.
 */
export function InvitationLinkDialog({ user, onOpenChange }: UserDialogProps) {
  const returnFocus = useReturnFocus();
  const newLink = useNewInvitation();
  const reset = user?.status === 'active';
  const name = user ? userFullName(user) : '';
  const { reset: clearResult } = newLink;

  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => {
        if (newLink.isPending) return;
        if (!open) clearResult();
        onOpenChange(open);
      }}
    >
      <DialogContent className="max-w-lg" data-testid="invitation-link-dialog" {...returnFocus}>
        <DialogHeader>
          <DialogTitle>{reset ? 'Reset password' : 'Resend invitation'}</DialogTitle>
          <DialogDescription>
            {reset
              ? `A link for ${name} to choose a new password. Any earlier link stops working.`
              : `A new invitation link for ${name}. The earlier link stops working.`}
          </DialogDescription>
        </DialogHeader>
        {user && newLink.data ? (
          <InvitationLinkPanel
            heading={reset ? `Password reset link for ${user.email}` : `Invitation for ${user.email}`}
            email={user.email}
            invitation={newLink.data.invitation}
            emailed={newLink.data.emailed}
          />
        ) : (
          <>
            <FormError message={newLink.isError ? getErrorMessage(newLink.error, 'The link could not be made. Please try again.') : null} />
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline" disabled={newLink.isPending}>
                  Cancel
                </Button>
              </DialogClose>
              <Button onClick={() => user && newLink.mutate(user.id)} disabled={newLink.isPending} data-testid="make-link">
                {newLink.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : reset ? <KeyRound aria-hidden="true" /> : <Send aria-hidden="true" />}
                {reset ? 'Make reset link' : 'Make new invitation'}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function SessionsBody({ user }: { user: TUser }) {
  const sessions = useUserSessions(user.id);
  const endAll = useEndUserSessions();
  const name = userFullName(user);

  if (sessions.isPending) {
    return <ListSkeleton label="Loading sessions" rows={2} leading="size-4" lines={['h-4 w-40 max-w-full', 'h-3 w-64 max-w-full']} trailing="hidden" />;
  }
  if (sessions.isError) {
    return <LoadError title="Unable to load the sessions" detail={getErrorMessage(sessions.error)} onRetry={() => void sessions.refetch()} retrying={sessions.isFetching} />;
  }
  const { sessions: list } = sessions.data;
  return (
    <div className="flex flex-col gap-4">
      {list.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-sessions">
          {name} is not signed in anywhere.
        </p>
      ) : (
        <SessionList sessions={list} label={`Sessions of ${name}`} />
      )}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {list.length > 0 ? (
          <Button
            variant="destructive"
            disabled={endAll.isPending}
            onClick={() =>
              endAll.mutate(user.id, {
                onSuccess: ({ ended }) =>
                  toast({ title: 'Signed out everywhere', description: `${name} was signed out of ${ended === 1 ? '1 session' : `${ended} sessions`}.` }),
                onError: (error) => toast({ variant: 'destructive', title: 'Not signed out', description: getErrorMessage(error) }),
              })
            }
          >
            {endAll.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
            Sign out everywhere
          </Button>
        ) : null}
      </DialogFooter>
    </div>
  );
}

/** Sessions: where the person is signed in (GET /api/users/{id}/sessions), and Sign out everywhere. */
export function UserSessionsDialog({ user, onOpenChange }: UserDialogProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg" data-testid="user-sessions-dialog" {...returnFocus}>
        {user ? (
          <>
            <DialogHeader>
              <DialogTitle>Sessions of {userFullName(user)}</DialogTitle>
              <DialogDescription>The browsers and devices where they are signed in.</DialogDescription>
            </DialogHeader>
            <SessionsBody key={user.id} user={user} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
