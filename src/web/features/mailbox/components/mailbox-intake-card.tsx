import { Mail } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { IconCardTitle } from '@/components/icon-card-title';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { usePermissions } from '@/lib/session-api';
import { MailboxSchedulerControls } from './mailbox-scheduler-controls';
import { MailboxStatusGate } from './mailbox-status-gate';

// Loaded with the Settings screen only, not with the dashboard's panel beside it in this feature.
const MailboxSettingsSection = lazy(async () => ({ default: (await import('./mailbox-settings-form')).MailboxSettingsSection }));

/**
 * System Settings → Integrations: the mailbox Clearbase reads (its connection, for whoever manages settings),
 * then its scheduler and controls (Start and Stop for admins only).
 */
export function MailboxIntakeCard() {
  const { can } = usePermissions();
  return (
    <Card data-testid="gmail-settings">
      <CardHeader>
        <IconCardTitle icon={Mail}>Mailbox</IconCardTitle>
        <CardDescription>Checks the league mailbox (any IMAP mailbox) on a schedule and files the documents parents e-mail</CardDescription>
        {can('mailbox.configure') ? null : (
          <ReadOnlyNote className="mt-2" lead={can('mailbox.check') ? 'Check Now only.' : 'Read only.'}>
            Only an admin can start or stop the automatic checks.
          </ReadOnlyNote>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {can('settings.manage') ? (
          <Suspense fallback={null}>
            <MailboxSettingsSection />
          </Suspense>
        ) : null}
        <div className={can('settings.manage') ? 'border-t pt-6' : undefined}>
          <MailboxStatusGate>{(status) => <MailboxSchedulerControls status={status} />}</MailboxStatusGate>
        </div>
      </CardContent>
    </Card>
  );
}
