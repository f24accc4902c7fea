/** The Notifications screen: send, templates, history and channel settings. */
export { NotificationsPage } from './components/notifications-page';
/** A message as one recipient gets it, for any dialog that sends one (the reject dialog's notice, the Send tab). */
export { DeliveryWarning, MessagePreview } from './components/message-preview';
export { useNotificationTemplates, useRecipientPreview, useRejectionPreview, useSendNotification } from './api';
export { useSettledValue } from './use-settled-value';
