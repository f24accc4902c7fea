import { lazy, Suspense, type ReactNode } from 'react';
import { useSession } from '@/lib/session-api';
import { AccessGate } from './access-gate';
import { FirstRunGate } from './first-run-gate';

// Rarely shown, and it carries My Account's setup: loaded with that screen's code, when needed.
const TwoFactorRequired = lazy(async () => ({ default: (await import('./two-factor-required')).TwoFactorRequired }));

function Loading() {
  return (
    <main className="flex min-h-svh items-center justify-center">
      <p role="status" className="text-sm text-muted-foreground">
        Loading...
      </p>
    </main>
  );
}

/**
 * Shows the access gate until the server says the session is good, then the app; an admin who must set up
 * two-step sign-in first gets that setup instead of the app, and on an installation with no season yet, the
 * first-run step comes before it.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const session = useSession();

  if (session.isPending) return <Loading />;
  if (!session.data?.authenticated) {
    return <AccessGate signInMode={session.data?.signInMode ?? 'shared'} sessionUnavailable={session.isError} />;
  }
  if (session.data.principal?.twoFactorSetupRequired) {
    return (
      <Suspense fallback={<Loading />}>
        <TwoFactorRequired principal={session.data.principal} />
      </Suspense>
    );
  }
  return <FirstRunGate loading={<Loading />}>{children}</FirstRunGate>;
}
