import { Mail } from 'lucide-react';
import { IconCardTitle } from '@/components/icon-card-title';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { MailboxSchedulerControls } from './mailbox-scheduler-controls';
import { MailboxStatusGate } from './mailbox-status-gate';

/** System Settings → Integrations: the mailbox intake scheduler and its controls. */
export function MailboxIntakeCard() {
  return (
    <Card data-testid="gmail-settings">
      <CardHeader>
        <IconCardTitle icon={Mail}>Gmail Integration</IconCardTitle>
        <CardDescription>Checks the league mailbox on a schedule and files the documents parents e-mail</CardDescription>
      </CardHeader>
      <CardContent>
        <MailboxStatusGate>{(status) => <MailboxSchedulerControls status={status} />}</MailboxStatusGate>
      </CardContent>
    </Card>
  );
}
