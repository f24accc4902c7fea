import { LiveConnectionProvider } from '@/lib/live-connection';
import { AuthGate } from './auth/auth-gate';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { AppShell } from './shell/app-shell';

export function App() {
  return (
    <AppProviders>
      <AuthGate>
        {/* The live connection needs the session, so it lives inside the gate. */}
        <LiveConnectionProvider>
          <AppShell>
            <AppRoutes />
          </AppShell>
        </LiveConnectionProvider>
      </AuthGate>
    </AppProviders>
  );
}
