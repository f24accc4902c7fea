import { Route, Switch } from 'wouter';
import { LiveConnectionProvider } from '@/lib/live-connection';
import { AuthGate } from './auth/auth-gate';
import { INVITATION_PATH } from './auth/invitation-link';
import { InvitationPage } from './auth/invitation-page';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { AppShell } from './shell/app-shell';

export function App() {
  return (
    <AppProviders>
      <Switch>
        {/* An invitation or password-reset link is opened without a session: it is the one page outside the gate. */}
        <Route path={INVITATION_PATH} component={InvitationPage} />
        <Route>
          <AuthGate>
            {/* The live connection needs the session, so it lives inside the gate. */}
            <LiveConnectionProvider>
              <AppShell>
                <AppRoutes />
              </AppShell>
            </LiveConnectionProvider>
          </AuthGate>
        </Route>
      </Switch>
    </AppProviders>
  );
}
