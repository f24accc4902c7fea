import type { ReactNode } from 'react';
import { useSession } from '@/lib/session-api';
import { AccessGate } from './access-gate';

/** Shows the access gate until the server says the session is good, then the app. */
export function AuthGate({ children }: { children: ReactNode }) {
  const session = useSession();

  if (session.isPending) {
    return (
      <main className="flex min-h-svh items-center justify-center">
        <p role="status" className="text-sm text-muted-foreground">
          Loading...
        </p>
      </main>
    );
  }
  if (!session.data?.authenticated) return <AccessGate sessionUnavailable={session.isError} />;
  return children;
}
