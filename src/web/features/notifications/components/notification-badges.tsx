import { CheckCircle2, Clock, Hash, Mail, MessagesSquare, XCircle } from 'lucide-react';
import { CHANNEL_LABELS, type TNotificationChannel, type TNotificationStatus } from '../../../../contract';
import { cn } from '@/lib/utils';

const badge = 'inline-flex w-fit items-center gap-1 rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap [&>svg]:size-3';

/** The same tones as the documents screen: sent green, pending orange, failed red; an icon beside the word. */
const STATUS_CLASS: Record<TNotificationStatus, string> = {
  sent: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  pending: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300',
  failed: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};
const STATUS_ICON = { sent: CheckCircle2, pending: Clock, failed: XCircle } as const;
const STATUS_LABEL: Record<TNotificationStatus, string> = { sent: 'Sent', pending: 'Pending', failed: 'Failed' };

export function NotificationStatusBadge({ status }: { status: TNotificationStatus }) {
  const Icon = STATUS_ICON[status];
  return (
    <span className={cn(badge, STATUS_CLASS[status])} data-status={status}>
      <Icon aria-hidden="true" />
      {STATUS_LABEL[status]}
    </span>
  );
}

const CHANNEL_CLASS: Record<TNotificationChannel, string> = {
  email: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  slack: 'bg-purple-100 text-purple-800 dark:bg-purple-950 dark:text-purple-300',
  teams: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300',
};
const CHANNEL_ICON = { email: Mail, slack: Hash, teams: MessagesSquare } as const;

export function ChannelBadge({ channel }: { channel: TNotificationChannel }) {
  const Icon = CHANNEL_ICON[channel];
  return (
    <span className={cn(badge, CHANNEL_CLASS[channel])} data-channel={channel}>
      <Icon aria-hidden="true" />
      {CHANNEL_LABELS[channel]}
    </span>
  );
}
