export { registerMailboxRoutes } from './mailbox.routes';
export { createMailboxService, type MailboxService } from './mailbox.service';
