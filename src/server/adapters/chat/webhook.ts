import { isIP } from 'node:net';
import { ChatDeliveryError, type ChatMessage, type ChatService, type CheckChatWebhook, type PostChatMessage } from './port';

export const CHAT_SERVICE_NAMES: Record<ChatService, string> = { slack: 'Slack', teams: 'Microsoft Teams' };

export type WebhookPolicy = {
  /** Tests only: plain http to a loopback address (127.0.0.1, ::1, localhost). */
  allowHttpLoopback: boolean;
  timeoutMs: number;
};

const isLoopbackHost = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
};

/** Why a webhook address may not be used, or undefined when it may: https only (http to loopback in tests). */
export function webhookUrlProblem(service: ChatService, url: string, policy: Pick<WebhookPolicy, 'allowHttpLoopback'>): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The ${CHAT_SERVICE_NAMES[service]} webhook is not a web address`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && policy.allowHttpLoopback && isLoopbackHost(parsed.hostname)) return undefined;
  return `The ${CHAT_SERVICE_NAMES[service]} webhook must be an https:// address (got ${parsed.protocol.replace(':', '')})`;
}

/** The address check of this poster's policy, for the settings that save an address. */
export const createWebhookCheck =
  (policy: Pick<WebhookPolicy, 'allowHttpLoopback'>): CheckChatWebhook =>
  (service, url) =>
    webhookUrlProblem(service, url, policy);

/** The JSON each service's incoming webhook takes. */
export function chatPayload(service: ChatService, message: ChatMessage): Record<string, unknown> {
  if (service === 'slack') return { text: message.title ? `*${message.title}*\n${message.text}` : message.text };
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: message.title || message.text.slice(0, 80),
    themeColor: '2563EB',
    title: message.title,
    text: message.text.replace(/\r?\n/g, '\n\n'),
  };
}

/** Incoming webhooks over fetch: one POST, no redirects followed, a time limit, the status and body in the error. */
export function createWebhookPoster(policy: WebhookPolicy): PostChatMessage {
  return async (service, url, message) => {
    const name = CHAT_SERVICE_NAMES[service];
    const problem = webhookUrlProblem(service, url, policy);
    if (problem) throw new ChatDeliveryError(problem);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(chatPayload(service, message)),
        redirect: 'error',
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      if (timedOut) throw new ChatDeliveryError(`The ${name} webhook did not answer within ${policy.timeoutMs / 1000} s`, { cause: error });
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new ChatDeliveryError(`Could not reach the ${name} webhook: ${cause}`, { cause: error });
    }
    const body = (await response.text().catch(() => '')).trim().slice(0, 200);
    if (!response.ok) throw new ChatDeliveryError(`${name} webhook answered ${response.status}${body ? `: ${body}` : ` ${response.statusText}`}`);
  };
}
