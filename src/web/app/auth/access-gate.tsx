import { CircleAlert, LoaderCircle, LockKeyhole } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useLogin } from '@/lib/session-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { BrandMark } from './brand-mark';
import { loginErrorMessage, SERVER_UNREACHABLE_MESSAGE } from './login-error';

/** The access gate: one shared password, checked by the server only. */
export function AccessGate({ sessionUnavailable = false }: { sessionUnavailable?: boolean }) {
  useDocumentTitle('Access System');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const inputId = useId();
  const errorId = useId();

  const error = login.isError ? loginErrorMessage(login.error) : sessionUnavailable ? SERVER_UNREACHABLE_MESSAGE : null;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password || login.isPending) return;
    login.mutate({ password });
  };

  return (
    <main className="flex min-h-svh items-center justify-center bg-gradient-to-b from-muted to-background px-4 py-10">
      <div className="flex w-full max-w-sm flex-col items-center gap-6">
        <BrandMark />
        <Card className="w-full gap-5">
          <CardHeader className="items-center text-center">
            <span className="mb-1 flex size-10 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
              <LockKeyhole className="size-5" aria-hidden="true" />
            </span>
            <h1 className="text-xl font-semibold tracking-tight">Access System</h1>
            <CardDescription>Registration document tracking for league staff</CardDescription>
          </CardHeader>
          <CardContent>
            <form className="flex flex-col gap-4" onSubmit={handleSubmit}>
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
              {error ? (
                <p
                  id={errorId}
                  role="alert"
                  className="flex items-start gap-2 rounded-md bg-destructive-soft px-3 py-2 text-sm text-destructive-soft-foreground"
                >
                  <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <span>{error}</span>
                </p>
              ) : null}
              <Button type="submit" className="w-full" disabled={login.isPending}>
                {login.isPending ? (
                  <>
                    <LoaderCircle className="animate-spin" aria-hidden="true" />
                    Authenticating...
                  </>
                ) : (
                  'Access System'
                )}
              </Button>
            </form>
          </CardContent>
        </Card>
        <p className="text-center text-xs text-muted-foreground">Authorised league staff only.</p>
      </div>
    </main>
  );
}
