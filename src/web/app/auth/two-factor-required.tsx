import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE, type TPrincipal } from '../../../contract';
import { Button } from '@/components/ui/button';
import { refreshAfterTwoFactorChange, TwoFactorEnrol } from '@/features/account';
import { useLogout } from '@/lib/session-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { GateLayout } from './gate-layout';

/**
 * Shown instead of the app to an admin who must use two-step sign-in and has not set it up: the setup, step by
 * step, then the app (the session, asked again, no longer requires it).
 */
export function TwoFactorRequired({ principal }: { principal: TPrincipal }) {
  useDocumentTitle('Set up two-step sign-in');
  const queryClient = useQueryClient();
  const logout = useLogout();
  // Once it is on, the recovery codes are showing: the way out is 'I have saved them', not signing out.
  const [enabled, setEnabled] = useState(false);

  return (
    <GateLayout
      icon={ShieldCheck}
      title="Set up two-step sign-in"
      description={`${TWO_FACTOR_SETUP_REQUIRED_MESSAGE} Admins of this league sign in with a code from their phone as well as their password.`}
      wide
      footer={
        enabled ? null : (
          <Button variant="link" size="sm" className="text-muted-foreground" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Sign out and do this later
          </Button>
        )
      }
    >
      {/* The codes stay on screen until the session, asked again, lets the app in. */}
      <TwoFactorEnrol
        account={principal.email ?? principal.name}
        onEnabled={() => setEnabled(true)}
        onDone={() => refreshAfterTwoFactorChange(queryClient)}
      />
    </GateLayout>
  );
}
