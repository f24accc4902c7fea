import { BarChart3, CalendarClock, UserX, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { useQuickActions } from '../api';
import { DEADLINE_DAYS, describeIncompleteReminder, type QuickAction } from '../send-form';

function ActionButton({ icon, label, detail, onClick, testId }: { icon: ReactNode; label: ReactNode; detail?: ReactNode; onClick: () => void; testId: string }) {
  return (
    <Button variant="outline" className="h-auto w-full justify-start px-3 py-2.5 text-left whitespace-normal" onClick={onClick} data-testid={testId}>
      {icon}
      <span className="flex min-w-0 flex-col">
        <span>{label}</span>
        {detail ? <span className="text-xs font-normal text-muted-foreground">{detail}</span> : null}
      </span>
    </Button>
  );
}

/** The four quick actions with their live counts; each fills the Send form in, and Send sends it. */
export function QuickActionsCard({ season, onAction }: { season: string | undefined; onAction: (action: QuickAction) => void }) {
  const counts = useQuickActions(season);
  const data = counts.data;
  const incomplete = data ? describeIncompleteReminder(data) : undefined;
  const count = (n: number | undefined, one: string, many: string) =>
    n === undefined ? (
      // A <span>: a button's label cannot hold the <div> Skeleton.
      <span className="inline-block h-3 w-10 animate-pulse rounded-md bg-muted align-middle" aria-label="counting" />
    ) : (
      `${n} ${n === 1 ? one : many}`
    );

  return (
    <Card className="h-fit">
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
        <CardDescription>Fill in the form with a common message{data?.season ? ` for ${data.season.name}` : ''}.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 px-4 sm:px-6">
        {counts.isError ? (
          <p role="alert" className="text-sm text-destructive-soft-foreground">
            Counts unavailable: {getErrorMessage(counts.error)}
          </p>
        ) : null}
        <ActionButton
          testId="quick-incomplete"
          icon={<UserX aria-hidden="true" />}
          label={incomplete ? incomplete.label : <>Notify incomplete players {count(undefined, '', '')}</>}
          detail={incomplete ? incomplete.detail : 'Missing Documents Reminder to their guardians'}
          onClick={() => onAction('incomplete')}
        />
        <ActionButton
          testId="quick-deadline"
          icon={<CalendarClock aria-hidden="true" />}
          label={`Deadline Reminder (${DEADLINE_DAYS} days)`}
          detail="Deadline Reminder to families missing documents"
          onClick={() => onAction('deadline')}
        />
        <ActionButton
          testId="quick-weekly"
          icon={<BarChart3 aria-hidden="true" />}
          label="Weekly processing summary"
          detail={
            data ? (
              <span data-testid="quick-weekly-figures">
                Last 7 days: {data.lastWeek.received} received, {data.lastWeek.approved} approved, {data.lastWeek.rejected} rejected, {data.lastWeek.pending} pending
              </span>
            ) : (
              'To administrators'
            )
          }
          onClick={() => onAction('weekly')}
        />
        <ActionButton
          testId="quick-maintenance"
          icon={<Wrench aria-hidden="true" />}
          label="System maintenance notice"
          detail={<>To administrators ({count(data?.administrators, 'person', 'people')})</>}
          onClick={() => onAction('maintenance')}
        />
      </CardContent>
    </Card>
  );
}
