import { useQueryClient } from '@tanstack/react-query';
import { Info, LoaderCircle, LogOut, MonitorSmartphone, ShieldCheck, ShieldOff, UserRound } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { TPrincipal } from '../../../../contract';
import { FormError } from '@/components/form-field';
import { IconCardTitle } from '@/components/icon-card-title';
import { ListSkeleton } from '@/components/list-skeleton';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { PasswordInput } from '@/components/password-input';
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
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { divisionsText, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/access-text';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useDocumentTitle } from '@/lib/use-document-title';
import { refreshAfterTwoFactorChange, useDisableTwoFactor, useEndOtherSessions, useOwnSessions } from '../api';
import { TwoFactorEnrol } from './two-factor-enrol';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

function ProfileCard({ principal }: { principal: TPrincipal }) {
  return (
    <Card data-testid="account-profile">
      <CardHeader>
        <IconCardTitle icon={UserRound}>Profile</IconCardTitle>
        <CardDescription>A league admin can change your name, e-mail, role and divisions.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-3">
          <Fact label="Name">{principal.name}</Fact>
          <Fact label="E-mail">{principal.email}</Fact>
          <Fact label="Role">
            {ROLE_LABELS[principal.role]}
            <span className="block text-muted-foreground">{ROLE_DESCRIPTIONS[principal.role]}</span>
          </Fact>
          <Fact label="Divisions">{divisionsText(principal.divisions)}</Fact>
        </dl>
      </CardContent>
    </Card>
  );
}

/** Turning two-step sign-in off asks for the password again (DELETE /api/auth/two-factor). */
function TurnOffDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = (next: boolean) => {
    if (disable.isPending) return;
    if (!next) {
      setPassword('');
      setError(null);
    }
    onOpenChange(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) {
      setError('Enter your password.');
      return;
    }
    disable.mutate(password, {
      onSuccess: () => {
        toast({ title: 'Two-step sign-in turned off', description: 'You now sign in with your e-mail and password only.' });
        close(false);
      },
      onError: (failure) => {
        const detail = isApiError(failure) ? failure.body?.details?.find((entry) => entry.path.endsWith('password'))?.message : undefined;
        setError(detail ?? getErrorMessage(failure, 'Two-step sign-in could not be turned off. Please try again.'));
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-md" data-testid="two-factor-off-dialog">
        <DialogHeader>
          <DialogTitle>Turn off two-step sign-in</DialogTitle>
          <DialogDescription>Your account is easier to break into without it. Enter your password to confirm.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-password`}>Password</Label>
            <PasswordInput
              id={`${id}-password`}
              name="password"
              autoComplete="current-password"
              autoFocus
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setError(null);
              }}
              readOnly={disable.isPending}
              aria-invalid={error !== null || undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <FormError id={`${id}-error`} message={error} />
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={disable.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={disable.isPending}>
              {disable.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <ShieldOff aria-hidden="true" />}
              Turn off
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Setting it up, in a dialog. Once it is on, the recovery codes are showing: only 'I have saved them' closes the
 * dialog then (no Escape, no click outside, no ×), so they are not lost by accident.
 */
function TurnOnDialog({ open, onOpenChange, account }: { open: boolean; onOpenChange: (open: boolean) => void; account: string }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(false);
  const finish = () => {
    setEnabled(false);
    void refreshAfterTwoFactorChange(queryClient);
    toast({ title: 'Two-step sign-in is on', description: 'Next time you sign in, have your phone at hand.' });
    onOpenChange(false);
  };
  const keepOpen = (event: Event) => {
    if (enabled) event.preventDefault();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (enabled && !next ? undefined : onOpenChange(next))}>
      <DialogContent className="max-w-lg" data-testid="two-factor-on-dialog" showClose={!enabled} onEscapeKeyDown={keepOpen} onInteractOutside={keepOpen}>
        <DialogHeader>
          <DialogTitle>Set up two-step sign-in</DialogTitle>
          <DialogDescription>After your password, Clearbase will ask for a code from an app on your phone.</DialogDescription>
        </DialogHeader>
        {open ? <TwoFactorEnrol account={account} onEnabled={() => setEnabled(true)} onDone={finish} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function TwoFactorCard({ principal }: { principal: TPrincipal }) {
  const [dialog, setDialog] = useState<'on' | 'off' | null>(null);
  const on = principal.twoFactorEnabled;

  return (
    <Card data-testid="account-two-factor">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1.5">
          <IconCardTitle icon={ShieldCheck}>Two-step sign-in</IconCardTitle>
          <CardDescription>After your password, a code from an authenticator app on your phone. Someone who learns your password still cannot sign in.</CardDescription>
        </div>
        <Badge variant={on ? 'success' : 'secondary'} data-testid="two-factor-state">
          {on ? 'On' : 'Off'}
        </Badge>
      </CardHeader>
      <CardContent>
        {on ? (
          <Button variant="outline" onClick={() => setDialog('off')}>
            <ShieldOff aria-hidden="true" />
            Turn off
          </Button>
        ) : (
          <Button onClick={() => setDialog('on')}>
            <ShieldCheck aria-hidden="true" />
            Turn on two-step sign-in
          </Button>
        )}
      </CardContent>
      <TurnOnDialog open={dialog === 'on'} onOpenChange={(open) => setDialog(open ? 'on' : null)} account={principal.email ?? principal.name} />
      <TurnOffDialog open={dialog === 'off'} onOpenChange={(open) => setDialog(open ? 'off' : null)} />
    </Card>
  );
}

function SessionsCard() {
  const sessions = useOwnSessions(true);
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const others = sessions.data?.sessions.filter((session) => !session.current).length ?? 0;

  const confirm = () => {
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        toast({ title: 'Signed out everywhere else', description: ended === 1 ? '1 other session was ended.' : `${ended} other sessions were ended.` }),
      onError: (error) => toast({ variant: 'destructive', title: 'Not signed out', description: getErrorMessage(error) }),
      onSettled: () => setConfirming(false),
    });
  };

  return (
    <Card data-testid="account-sessions">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1.5">
          <IconCardTitle icon={MonitorSmartphone}>Where you are signed in</IconCardTitle>
          <CardDescription>Sign out everywhere else if you used a shared computer or lost a device.</CardDescription>
        </div>
        {others > 0 ? (
          <Button variant="outline" onClick={() => setConfirming(true)}>
            <LogOut aria-hidden="true" />
            Sign out everywhere else
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <ListSkeleton
            label="Loading your sessions"
            rows={2}
            leading="size-4"
            lines={['h-4 w-40 max-w-full', 'h-3 w-64 max-w-full']}
            trailing="hidden"
          />
        ) : sessions.isError ? (
          <LoadError title="Unable to load your sessions" detail={getErrorMessage(sessions.error)} onRetry={() => void sessions.refetch()} retrying={sessions.isFetching} />
        ) : (
          <SessionList sessions={sessions.data.sessions} label="Your sessions" />
        )}
      </CardContent>
      <AlertDialog open={confirming} onOpenChange={(open) => (endOthers.isPending ? undefined : setConfirming(open))}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Sign out everywhere else?</AlertDialogTitle>
            <AlertDialogDescription>
              Every other browser and device signed in as you is signed out at once. This one stays signed in.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={endOthers.isPending}>Cancel</AlertDialogCancel>
            <Button onClick={confirm} disabled={endOthers.isPending}>
              {endOthers.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
              Sign out everywhere else
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

function SharedPasswordNote() {
  return (
    <Card data-testid="account-shared-note">
      <CardHeader>
        <IconCardTitle icon={Info}>Signed in with the shared password</IconCardTitle>
        <CardDescription>
          The shared password acts as an admin of every division. Two-step sign-in and the list of your sessions belong to a personal
          account: ask a league admin to invite you, then sign in with your e-mail.
        </CardDescription>
      </CardHeader>
    </Card>
  );
}

/** My Account: who is signed in, two-step sign-in on or off, and their own sessions. */
export function AccountPage() {
  useDocumentTitle('My Account');
  const { principal } = usePermissions();

  return (
    <>
      <PageHeader title="My Account" description="Your sign-in and the devices you use" />
      <div className="flex flex-col gap-6">
        {principal?.kind === 'user' ? (
          <>
            <ProfileCard principal={principal} />
            <TwoFactorCard principal={principal} />
            <SessionsCard />
          </>
        ) : (
          <SharedPasswordNote />
        )}
      </div>
    </>
  );
}
