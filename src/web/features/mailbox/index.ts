/** The mailbox intake: parts of the Dashboard, System Settings and the User Guide (it has no screen of its own). */
export { EmailSubmissionGuide } from './components/email-submission-guide';
export { GmailIntakePanel } from './components/gmail-intake-panel';
export { MailboxIntakeCard } from './components/mailbox-intake-card';
