import { useMutation, useQuery } from '@tanstack/react-query';
import { CircleCheck, KeyRound, LinkIcon, LoaderCircle, UserRoundPlus } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import {
  INVITATION_INVALID_MESSAGE,
  MIN_PASSWORD_LENGTH,
  ZAcceptedInvitation,
  ZInvitationStatus,
  type TInvitationStatus,
} from '../../../contract';
import { FormError } from '@/components/form-field';
import { LoadError } from '@/components/load-error';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { apiRequest, getErrorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { GateLayout } from './gate-layout';
import { checkNewPassword, invitationTokenFromHash, PASSWORD_RULES, rememberSignInEmail, type NewPasswordErrors } from './invitation-link';

const INCOMPLETE_LINK_MESSAGE = 'This link is incomplete. Open it again from the e-mail, or ask a league admin for a new one.';

/** A refused link: unknown, expired or used (404), or not a token at all (400). */
const isDeadLink = (error: unknown): boolean => isApiError(error) && (error.status === 404 || error.status === 400);

/** POST /api/auth/invitation/status: the token travels in a body, never in an address. */
function useInvitationStatus(token: string | null) {
  return useQuery({
    queryKey: ['auth', 'invitation-status', token],
    queryFn: () => apiRequest('POST', '/api/auth/invitation/status', { token }, { schema: ZInvitationStatus }),
    enabled: token !== null,
    gcTime: 0,
  });
}

function useAcceptInvitation() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => apiRequest('POST', '/api/auth/invitation', body, { schema: ZAcceptedInvitation }),
  });
}

function GoToSignIn() {
  const [, navigate] = useLocation();
  return (
    <Button variant="outline" className="w-full" onClick={() => navigate('/')}>
      Go to sign in
    </Button>
  );
}

function DeadLink({ message }: { message: string }) {
  useDocumentTitle('Link not valid');
  return (
    <GateLayout icon={LinkIcon} title="This link cannot be used" description="Links to set a password work once, for a few days.">
      <div className="flex flex-col gap-4" data-testid="invitation-invalid">
        <p role="alert" className="rounded-md bg-destructive-soft px-3 py-2 text-sm text-destructive-soft-foreground">
          {message}
        </p>
        <GoToSignIn />
      </div>
    </GateLayout>
  );
}

function PasswordSet({ email }: { email: string }) {
  useDocumentTitle('Your password is set');
  const [, navigate] = useLocation();
  const buttonRef = useRef<HTMLButtonElement>(null);
  // The form that had focus is gone: the way on gets it.
  useEffect(() => buttonRef.current?.focus(), []);
  return (
    <GateLayout icon={CircleCheck} title="Your password is set" description="You can sign in with your e-mail and your new password.">
      <div className="flex flex-col gap-4" data-testid="invitation-done">
        <p role="status" className="text-center text-sm break-words">
          Sign in as <span className="font-medium">{email}</span>
        </p>
        <Button
          ref={buttonRef}
          className="w-full"
          onClick={() => {
            // The sign-in form finds the address here; it never goes into the URL.
            rememberSignInEmail(email);
            navigate('/');
          }}
        >
          Sign in
        </Button>
      </div>
    </GateLayout>
  );
}

function ChoosePassword({ token, status, onDone, onDead }: { token: string; status: TInvitationStatus; onDone: (email: string) => void; onDead: () => void }) {
  const invitation = status.purpose === 'invitation';
  const title = invitation ? `Welcome, ${status.firstName}` : 'Reset your password';
  useDocumentTitle(invitation ? 'Welcome' : 'Reset your password');
  const id = useId();
  const accept = useAcceptInvitation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<NewPasswordErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const rulesId = `${id}-rules`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const checked = checkNewPassword(password, confirm);
    setErrors(checked);
    if (checked.password) return passwordRef.current?.focus();
    if (checked.confirm) return confirmRef.current?.focus();
    accept.mutate(
      { token, password },
      {
        onSuccess: ({ email }) => onDone(email),
        onError: (error) => {
          if (isApiError(error) && error.status === 404) return onDead();
          const detail = isApiError(error) ? error.body?.details?.find((entry) => entry.path.endsWith('password')) : undefined;
          if (detail) {
            setErrors({ password: detail.message });
            passwordRef.current?.focus();
          } else {
            setFormError(getErrorMessage(error, 'Your password could not be set. Please try again.'));
          }
        },
      },
    );
  };

  return (
    <GateLayout
      icon={invitation ? UserRoundPlus : KeyRound}
      title={title}
      description={invitation ? 'Choose a password to finish setting up your Clearbase account.' : 'Choose a new password for your Clearbase account.'}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="invitation-form">
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-email`}>E-mail</Label>
          {/* Read only, and named as the username, so a password manager saves the new password with it. */}
          <Input id={`${id}-email`} name="email" type="email" autoComplete="username" value={status.email} readOnly className="bg-muted/50" />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-password`}>New password</Label>
          <PasswordInput
            ref={passwordRef}
            id={`${id}-password`}
            name="new-password"
            autoComplete="new-password"
            autoFocus
            minLength={MIN_PASSWORD_LENGTH}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setErrors((current) => ({ ...current, password: undefined }));
            }}
            readOnly={accept.isPending}
            aria-invalid={errors.password !== undefined || undefined}
            aria-describedby={errors.password ? `${rulesId} ${id}-password-error` : rulesId}
          />
          <ul id={rulesId} className="list-disc pl-5 text-xs text-muted-foreground">
            {PASSWORD_RULES.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
          {errors.password ? (
            <p id={`${id}-password-error`} className="text-xs text-destructive-soft-foreground" data-testid="error-password">
              {errors.password}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-confirm`}>Type it again</Label>
          <PasswordInput
            ref={confirmRef}
            id={`${id}-confirm`}
            name="confirm-password"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => {
              setConfirm(event.target.value);
              setErrors((current) => ({ ...current, confirm: undefined }));
            }}
            readOnly={accept.isPending}
            aria-invalid={errors.confirm !== undefined || undefined}
            aria-describedby={errors.confirm ? `${id}-confirm-error` : undefined}
          />
          {errors.confirm ? (
            <p id={`${id}-confirm-error`} className="text-xs text-destructive-soft-foreground" data-testid="error-confirm">
              {errors.confirm}
            </p>
          ) : null}
        </div>
        <FormError message={formError} />
        {/* Field errors are read out as their fields get focus; this line repeats them for a reader that stays put. */}
        <p className="sr-only" aria-live="polite">
          {[errors.password, errors.confirm].filter(Boolean).join(' ')}
        </p>
        <Button type="submit" className="w-full" disabled={accept.isPending}>
          {accept.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          {accept.isPending ? 'Saving...' : 'Set password'}
        </Button>
        <p className="text-center text-xs text-muted-foreground">
          This link works until <time dateTime={status.expiresAt}>{formatDateTime(status.expiresAt)}</time>.
        </p>
      </form>
    </GateLayout>
  );
}

/**
 * The page an invitation or password-reset link opens (`/invitation#token=…`), shown without a session: it
 * reads the token from the #fragment, asks the server whose link it is, and lets the person choose a password.
 */
export function InvitationPage() {
  const [token] = useState(() => invitationTokenFromHash(window.location.hash));
  const status = useInvitationStatus(token);
  const [done, setDone] = useState<string | null>(null);
  const [dead, setDead] = useState(false);

  if (token === null) return <DeadLink message={INCOMPLETE_LINK_MESSAGE} />;
  if (done !== null) return <PasswordSet email={done} />;
  if (dead || (status.isError && isDeadLink(status.error))) return <DeadLink message={INVITATION_INVALID_MESSAGE} />;
  if (status.isError) {
    return (
      <GateLayout icon={LinkIcon} title="Checking your link" description="Clearbase could not check this link just now.">
        <LoadError title="Unable to check the link" detail={getErrorMessage(status.error)} onRetry={() => void status.refetch()} retrying={status.isFetching} />
      </GateLayout>
    );
  }
  if (status.isPending) {
    return (
      <GateLayout icon={LinkIcon} title="Checking your link" description="One moment…">
        <div aria-busy="true" className="flex flex-col gap-3">
          <span className="sr-only">Checking your link</span>
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      </GateLayout>
    );
  }
  return <ChoosePassword token={token} status={status.data} onDone={setDone} onDead={() => setDead(true)} />;
}
