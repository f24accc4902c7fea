import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { FAMILY_PAGE_PATH } from '../../contract';
import { LiveConnectionProvider } from '@/lib/live-connection';
import { AuthGate } from './auth/auth-gate';
import { BrandMark } from './auth/brand-mark';
import { INVITATION_PATH } from './auth/invitation-link';
import { InvitationPage } from './auth/invitation-page';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { AppShell } from './shell/app-shell';

/** A family's upload page is its own small chunk: a family's phone loads it and none of the staff screens. */
const FamilyPage = lazy(async () => ({ default: (await import('@/features/family')).FamilyPage }));

export function App() {
  return (
    <AppProviders>
      <Switch>
        {/* An invitation or password-reset link is opened without a session: it is the one page outside the gate. */}
        <Route path={INVITATION_PATH} component={InvitationPage} />
        {/* A family's upload link (`/family#token=…`): no session, no live connection, nothing of the staff app. */}
        <Route path={FAMILY_PAGE_PATH}>
          <Suspense fallback={null}>
            <FamilyPage brand={<BrandMark />} />
          </Suspense>
        </Route>
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
