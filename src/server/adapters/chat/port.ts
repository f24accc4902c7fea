/** A chat message for an incoming webhook: Slack gets `{ text }`, Teams a MessageCard with title and text. */
export type ChatMessage = { title: string; text: string };

export type ChatService = 'slack' | 'teams';

/** Posts a message to an incoming-webhook address; rejects with ChatDeliveryError in words staff can act on. */
export type PostChatMessage = (service: ChatService, url: string, message: ChatMessage) => Promise<void>;

/** Why an incoming-webhook address may not be used, or undefined when it may: asked before the address is saved. */
export type CheckChatWebhook = (service: ChatService, url: string) => string | undefined;

export class ChatDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChatDeliveryError';
  }
}
