import type { TNotificationChannel } from '../../contract';
import { ChatDeliveryError, type PostChatMessage } from '../adapters/chat/port';
import { MailDeliveryError, type MailTransport, type OpenMailTransport } from '../adapters/mail/port';
import type { Logger } from '../platform/logger';
import { readSystemSettings } from '../settings';
import type { MessageLink } from './notification-links';
import { resolveDestinations, type NotificationSettingsDeps } from './notification-settings';

/**
 * One message, rendered: `to` is an e-mail address, or the channel's label for Slack and Teams. `links`: the
 * upload links its text carries as markers, issued when it is delivered (notification-links.ts).
 */
export type RenderedMessage = { channel: TNotificationChannel; to: string; subject: string; text: string; html: string; links?: MessageLink[] | undefined };

export type DeliveryOutcome = { ok: true } | { ok: false; error: string };

export const NOT_SENT_ON_OUR_SIDE = 'Not sent: something went wrong on our side. The details are in the server log.';

export type DeliveryDeps = NotificationSettingsDeps & { openMail: OpenMailTransport; postChat: PostChatMessage; log?: Logger };

export type DeliveryBatch = {
  deliver(message: RenderedMessage): Promise<DeliveryOutcome>;
  /** Why nothing on this channel would go out now (switched off, no destination); null when it would. */
  heldBack(channel: TNotificationChannel): string | null;
  close(): void;
};

/** Why nothing goes out on a channel whose System Settings switch is off: what History shows. */
export const SWITCHED_OFF: Record<TNotificationChannel, string> = {
  email: 'E-mail notifications are turned off in Settings',
  slack: 'Slack notifications are turned off in Settings',
  teams: 'Microsoft Teams notifications are turned off in Settings',
};

/**
 * Reads the switches and destinations once for a batch of messages and opens the mail server lazily (a batch
 * of chat messages never connects to SMTP). Never throws for one message: each outcome says what went wrong.
 * `ignoreSwitches` is for the Settings tab's 'Send test' only, which tests a destination before it is switched on.
 */
export async function openDeliveryBatch(deps: DeliveryDeps, options: { ignoreSwitches?: boolean } = {}): Promise<DeliveryBatch> {
  const [switches, destinations] = await Promise.all([readSystemSettings(deps.db), resolveDestinations(deps)]);
  const enabled: Record<TNotificationChannel, boolean> = {
    email: options.ignoreSwitches === true || switches.emailNotifications,
    slack: options.ignoreSwitches === true || switches.slackNotifications,
    teams: options.ignoreSwitches === true || switches.teamsNotifications,
  };
  let mail: MailTransport | undefined;

  return {
    heldBack(channel) {
      if (!enabled[channel]) return SWITCHED_OFF[channel];
      const destination = channel === 'email' ? destinations.email : destinations[channel];
      return 'problem' in destination ? destination.problem : null;
    },
    async deliver(message) {
      if (!enabled[message.channel]) return { ok: false, error: SWITCHED_OFF[message.channel] };
      try {
        if (message.channel === 'email') {
          const email = destinations.email;
          if ('problem' in email) return { ok: false, error: email.problem };
          mail ??= deps.openMail(email.server);
          await mail.send({ from: email.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
        } else {
          const hook = destinations[message.channel];
          if ('problem' in hook) return { ok: false, error: hook.problem };
          await deps.postChat(message.channel, hook.url, { title: message.subject, text: message.text });
        }
        return { ok: true };
      } catch (error) {
        // The adapters' errors are sentences for History (the mail server's own answer, the webhook's status);
        // anything else is a fault of ours whose text (a stack, a path) is for the log only.
        if (error instanceof MailDeliveryError || error instanceof ChatDeliveryError) return { ok: false, error: error.message };
        deps.log?.error({ err: error, channel: message.channel }, 'could not send a notification');
        return { ok: false, error: NOT_SENT_ON_OUR_SIDE };
      }
    },
    close() {
      mail?.close();
    },
  };
}

/** Runs `work` over `items`, at most `limit` at a time, and returns the results in order. */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** An e-mail about a person's own account: an invitation or a password reset link. */
export type AccountMail = { to: string; subject: string; text: string; html: string };

/**
 * Sends one account e-mail through the notification mail server (the Settings tab's, or SMTP_URL). It is not a
 * notification to families: the e-mail switch does not hold it back and History does not list it (it carries a
 * link that sets a password). Never throws: answers whether the server took it, or why not, in words without it.
 */
export async function sendAccountMail(deps: DeliveryDeps, mail: AccountMail): Promise<{ sent: true } | { sent: false; reason: string }> {
  let batch: DeliveryBatch | undefined;
  try {
    batch = await openDeliveryBatch(deps, { ignoreSwitches: true });
    const outcome = await batch.deliver({ channel: 'email', ...mail });
    return outcome.ok ? { sent: true } : { sent: false, reason: outcome.error };
  } catch (error) {
    deps.log?.error({ err: error }, 'could not send an account e-mail');
    return { sent: false, reason: NOT_SENT_ON_OUR_SIDE };
  } finally {
    batch?.close();
  }
}
