import { KeyRound, LoaderCircle, LockKeyhole, Smartphone } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { SECOND_FACTOR_REQUIRED_MESSAGE, type TSignInMode } from '../../../contract';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useLogin } from '@/lib/session-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { GateError, GateLayout } from './gate-layout';
import { forgetSignInEmail, readSignInEmail } from './invitation-link';
import { asksForSecondFactor, loginErrorMessage, secondStepErrorMessage, SERVER_UNREACHABLE_MESSAGE } from './login-error';

type Method = 'shared' | 'personal';

const GATE_DESCRIPTION = 'Registration document tracking for league staff';

function SubmitButton({ pending, label, pendingLabel }: { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <Button type="submit" className="w-full" disabled={pending}>
      {pending ? (
        <>
          <LoaderCircle className="animate-spin" aria-hidden="true" />
          {pendingLabel}
        </>
      ) : (
        label
      )}
    </Button>
  );
}

/** The shared password: one field, as the league has always signed in. */
function SharedPasswordForm({ sessionUnavailable, switcher }: { sessionUnavailable: boolean; switcher: ReactNode }) {
  useDocumentTitle('Access System');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const inputId = useId();
  const errorId = useId();
  const error = login.isError ? loginErrorMessage(login.error, 'shared') : sessionUnavailable ? SERVER_UNREACHABLE_MESSAGE : null;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password || login.isPending) return;
    login.mutate({ password });
  };

  return (
    <GateLayout icon={LockKeyhole} title="Access System" description={GATE_DESCRIPTION}>
      <form className="flex flex-col gap-4" onSubmit={handleSubmit} data-testid="shared-sign-in">
        <div className="flex flex-col gap-2">
          <Label htmlFor={inputId} className="sr-only">
            System password
          </Label>
          <Input
            id={inputId}
            name="password"
            type="password"
            placeholder="Enter system password"
            autoComplete="current-password"
            autoFocus
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            readOnly={login.isPending}
            aria-invalid={login.isError || undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </div>
        <GateError id={errorId} message={error} />
        <SubmitButton pending={login.isPending} label="Access System" pendingLabel="Authenticating..." />
      </form>
      {switcher}
    </GateLayout>
  );
}

interface Credentials {
  email: string;
  password: string;
}

/** E-mail and password; when the server asks for the second step, the code form takes over. */
function PersonalSignIn({ sessionUnavailable, switcher }: { sessionUnavailable: boolean; switcher: ReactNode }) {
  // Kept in memory only, to send again with the code; dropped when the person goes back.
  const [pendingCode, setPendingCode] = useState<Credentials | null>(null);
  // After a password was set through an invitation link, the address comes along (from this tab's storage).
  const [email, setEmail] = useState(readSignInEmail);
  if (pendingCode) return <SecondStepForm credentials={pendingCode} onBack={() => setPendingCode(null)} />;
  return (
    <PersonalSignInForm sessionUnavailable={sessionUnavailable} switcher={switcher} email={email} onEmailChange={setEmail} onSecondStep={setPendingCode} />
  );
}

function PersonalSignInForm({
  sessionUnavailable,
  switcher,
  email,
  onEmailChange,
  onSecondStep,
}: {
  sessionUnavailable: boolean;
  switcher: ReactNode;
  email: string;
  onEmailChange: (email: string) => void;
  onSecondStep: (credentials: Credentials) => void;
}) {
  useDocumentTitle('Sign in');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const id = useId();
  const errorId = `${id}-error`;
  const failed = login.isError && !asksForSecondFactor(login.error);
  const error = failed ? loginErrorMessage(login.error, 'personal') : sessionUnavailable ? SERVER_UNREACHABLE_MESSAGE : null;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim() || !password || login.isPending) return;
    const credentials = { email: email.trim(), password };
    login.mutate(credentials, {
      onSuccess: forgetSignInEmail,
      onError: (refusal) => {
        if (asksForSecondFactor(refusal)) onSecondStep(credentials);
      },
    });
  };

  const describedBy = error ? errorId : undefined;
  return (
    <GateLayout icon={LockKeyhole} title="Sign in" description={GATE_DESCRIPTION}>
      <form className="flex flex-col gap-4" onSubmit={handleSubmit} data-testid="personal-sign-in">
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-email`}>E-mail</Label>
          <Input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="none"
            autoFocus={email === ''}
            required
            value={email}
            onChange={(event) => onEmailChange(event.target.value)}
            readOnly={login.isPending}
            aria-invalid={failed || undefined}
            aria-describedby={describedBy}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-password`}>Password</Label>
          <Input
            id={`${id}-password`}
            name="password"
            type="password"
            autoComplete="current-password"
            autoFocus={email !== ''}
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            readOnly={login.isPending}
            aria-invalid={failed || undefined}
            aria-describedby={describedBy}
          />
        </div>
        <GateError id={errorId} message={error} />
        <SubmitButton pending={login.isPending} label="Sign in" pendingLabel="Signing in..." />
      </form>
      {switcher}
    </GateLayout>
  );
}

/** The second step: the code of the authenticator app (or a recovery code), sent with the e-mail and password. */
function SecondStepForm({ credentials, onBack }: { credentials: Credentials; onBack: () => void }) {
  useDocumentTitle('Two-step sign-in');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const login = useLogin();
  const id = useId();
  const inputId = `${id}-code`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const error = login.isError ? secondStepErrorMessage(login.error) : null;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = recovery ? code.trim() : code.replace(/\s/g, '');
    if (!typed || login.isPending) return;
    login.mutate({ ...credentials, code: typed }, { onSuccess: forgetSignInEmail });
  };

  const switchKind = () => {
    setRecovery((current) => !current);
    setCode('');
    login.reset();
    document.getElementById(inputId)?.focus();
  };

  return (
    <GateLayout icon={Smartphone} title="Two-step sign-in" description={SECOND_FACTOR_REQUIRED_MESSAGE}>
      <form className="flex flex-col gap-4" onSubmit={handleSubmit} data-testid="second-step">
        <p className="text-sm break-words text-muted-foreground">
          Signing in as <span className="font-medium text-foreground">{credentials.email}</span>
        </p>
        <div className="flex flex-col gap-2">
          <Label htmlFor={inputId}>{recovery ? 'Recovery code' : '6-digit code'}</Label>
          <Input
            id={inputId}
            name="code"
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            pattern={recovery ? undefined : '[0-9 ]*'}
            maxLength={recovery ? 40 : 7}
            spellCheck={false}
            autoCapitalize="none"
            autoFocus
            required
            className="font-mono tracking-widest"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            readOnly={login.isPending}
            aria-invalid={login.isError || undefined}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          />
          <p id={hintId} className="text-xs text-muted-foreground">
            {recovery
              ? 'One of the recovery codes you saved when you set up two-step sign-in. Each works once.'
              : 'Open your authenticator app and type the code it shows for Clearbase.'}
          </p>
        </div>
        <GateError id={errorId} message={error} />
        <SubmitButton pending={login.isPending} label="Verify" pendingLabel="Checking..." />
      </form>
      <div className="mt-4 flex flex-col items-center gap-1">
        <Button variant="link" size="sm" onClick={switchKind}>
          <KeyRound aria-hidden="true" />
          {recovery ? 'Use the code from the app instead' : 'Use a recovery code instead'}
        </Button>
        <Button variant="link" size="sm" className="text-muted-foreground" onClick={onBack}>
          Back to e-mail and password
        </Button>
      </div>
    </GateLayout>
  );
}

/**
 * The access gate: the fields the league's sign-in mode asks for, checked by the server only.
 * 'shared': the one system password; 'personal': e-mail and password (then a code for two-step sign-in);
 * 'both': e-mail and password, with a switch to the shared password and back.
 */
export function AccessGate({ signInMode, sessionUnavailable = false }: { signInMode: TSignInMode; sessionUnavailable?: boolean }) {
  const [chosen, setChosen] = useState<Method>('personal');
  const method: Method = signInMode === 'both' ? chosen : signInMode;

  const switcher =
    signInMode === 'both' ? (
      <div className="mt-4 flex justify-center">
        <Button variant="link" size="sm" onClick={() => setChosen(method === 'personal' ? 'shared' : 'personal')} data-testid="sign-in-method-switch">
          {method === 'personal' ? 'Use the shared password instead' : 'Sign in with your e-mail instead'}
        </Button>
      </div>
    ) : null;

  return method === 'shared' ? (
    <SharedPasswordForm sessionUnavailable={sessionUnavailable} switcher={switcher} />
  ) : (
    <PersonalSignIn sessionUnavailable={sessionUnavailable} switcher={switcher} />
  );
}
