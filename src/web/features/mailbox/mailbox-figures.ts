import { MAILBOX_DEFAULT_INTERVAL_MS, type TMailboxStats } from '../../../contract';
import type { Can } from '@/lib/session-api';

/** The check interval in whole minutes; 300000 ms (5 minutes) when the scheduler gives none. */
export function checkIntervalMinutes(intervalMs: number | null | undefined): number {
  const ms = intervalMs && intervalMs > 0 ? intervalMs : MAILBOX_DEFAULT_INTERVAL_MS;
  return Math.round(ms / 60_000);
}

/** `part` as a whole percentage of `whole`; 0 when nothing was received, never NaN. */
function percentOf(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.round((part / whole) * 100);
}

export interface MailboxFigures {
  received: number;
  processed: number;
  failed: number;
  /** Rounded percentage of received e-mails that were processed. */
  successRate: number;
  /** Rounded percentage of received e-mails that failed. */
  errorRate: number;
  /** Attachments per received e-mail, rounded; 0 with no mail. */
  averageAttachments: number;
}

/** Success and error rate as rounded percentages of received, average attachments per e-mail rounded. */
export function describeMailboxStats(stats: TMailboxStats): MailboxFigures {
  const { received, processed, failed, totalAttachments } = stats;
  return {
    received,
    processed,
    failed,
    successRate: percentOf(processed, received),
    errorRate: percentOf(failed, received),
    averageAttachments: received > 0 ? Math.round(totalAttachments / received) : 0,
  };
}

/** "1 attachment", "3 attachments". */
export function formatAttachmentCount(count: number): string {
  return `${count} ${count === 1 ? 'attachment' : 'attachments'}`;
}

/** A time as staff read it ("Mar 3, 2025, 10:04 AM"); the raw value when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Which mailbox controls the signed-in role can use. */
export interface MailboxControls {
  /** Start and Stop the automatic checks ('mailbox.configure'). */
  schedule: boolean;
  /** Check Now, and Retry on a failed e-mail ('mailbox.check'). */
  check: boolean;
}

export function mailboxControls(can: Can): MailboxControls {
  return { schedule: can('mailbox.configure'), check: can('mailbox.check') };
}

/** The line under the controls while the mailbox is not connected, naming only the controls the role has. */
export function notConnectedNote(controls: MailboxControls): string | null {
  if (controls.schedule && controls.check) return 'Start and Check Now are available once the mailbox is connected.';
  if (controls.schedule) return 'Start is available once the mailbox is connected.';
  if (controls.check) return 'Check Now is available once the mailbox is connected.';
  return null;
}
