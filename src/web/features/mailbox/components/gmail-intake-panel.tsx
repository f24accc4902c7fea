import { Mail } from 'lucide-react';
import { IconCardTitle } from '@/components/icon-card-title';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useInView } from '../use-in-view';
import { MailboxRecentList } from './mailbox-recent-list';
import { MailboxSchedulerControls } from './mailbox-scheduler-controls';
import { MailboxStats } from './mailbox-stats';
import { MailboxStatusGate } from './mailbox-status-gate';

/** The dashboard's 'Mailbox Document Intake' panel: scheduler, statistics and recent e-mails. */
export function GmailIntakePanel() {
  // Stats and recent submissions refresh only while the panel is on screen: nobody reads them otherwise.
  const [panelRef, inView] = useInView<HTMLDivElement>();

  return (
    <Card ref={panelRef} data-testid="gmail-panel">
      <CardHeader>
        <IconCardTitle icon={Mail}>Mailbox Document Intake</IconCardTitle>
        <CardDescription>Registration documents parents send to the league mailbox</CardDescription>
      </CardHeader>
      <CardContent>
        <MailboxStatusGate>
          {(status) => (
            <div className="flex flex-col gap-8">
              <div className="grid gap-8 lg:grid-cols-2">
                <MailboxSchedulerControls status={status} />
                <MailboxStats polling={inView} />
              </div>
              <MailboxRecentList polling={inView} />
            </div>
          )}
        </MailboxStatusGate>
      </CardContent>
    </Card>
  );
}
