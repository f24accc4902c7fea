import type { NewNotificationTemplate } from './notification-templates.repository';

/** The template the Documents screen's reject flow sends when 'Notify the guardian by e-mail' is ticked. */
export const DOCUMENT_REJECTED_TEMPLATE = 'Document Rejected';

/** The template that tells a family which files of a submission were refused at intake (too large, not a PDF or image …). */
export const FILES_REFUSED_TEMPLATE = 'File Not Accepted';

/** The template the Players screen's 'Send link' sends: the family's personal upload link, on its own. */
export const UPLOAD_LINK_TEMPLATE = 'Upload Link';

/** The template of the automatic reminders (a season's schedule on the Notifications screen). */
export const AUTOMATIC_REMINDER_TEMPLATE = 'Automatic Reminder';

/**
 * Defaults added after the first release: an installation whose table lacks a template of that name gets it
 * at start (one seeded into an empty table has it already). A template renamed on the Templates tab is no
 * longer found by its name, so the default comes back beside it, and is the one Clearbase sends.
 */
export const ADDED_LATER_TEMPLATES: readonly string[] = [FILES_REFUSED_TEMPLATE, UPLOAD_LINK_TEMPLATE, AUTOMATIC_REMINDER_TEMPLATE];

type DefaultTemplate = Required<Pick<NewNotificationTemplate, 'name' | 'type' | 'subject' | 'content' | 'enabled'>>;

/** Seeded into an empty template table at start (and in the demo data): every placeholder here is a known one. */
export const DEFAULT_NOTIFICATION_TEMPLATES: readonly DefaultTemplate[] = [
  {
    name: 'Missing Documents Reminder',
    type: 'email',
    subject: 'Documents still missing for {{playerName}} ({{season}})',
    content: [
      'Hello {{guardianName}},',
      '',
      'We are still missing these documents for {{playerName}} for {{season}}:',
      '{{missingDocuments}}',
      '',
      "Send them from your phone on {{playerName}}'s upload page:",
      '{{uploadLink}}',
      '',
      'Or send them before {{deadline}} by replying to this e-mail with the files attached.',
      '',
      'Thank you,',
      'The league registration team',
    ].join('\n'),
    enabled: true,
  },
  {
    name: 'Deadline Reminder',
    type: 'email',
    subject: 'Registration closes {{deadline}}: {{season}}',
    content: [
      'Hello {{guardianName}},',
      '',
      'Registration for {{season}} closes on {{deadline}}. {{playerName}} still needs:',
      '{{missingDocuments}}',
      '',
      "Send them from your phone on {{playerName}}'s upload page:",
      '{{uploadLink}}',
      'Or reply to this e-mail with the files attached.',
      '',
      'Players without all four documents cannot be placed on a roster.',
    ].join('\n'),
    enabled: true,
  },
  {
    name: DOCUMENT_REJECTED_TEMPLATE,
    type: 'email',
    subject: "{{playerName}}'s {{documentType}} needs a new copy",
    content: [
      'Hello {{guardianName}},',
      '',
      "We could not accept the {{documentType}} sent for {{playerName}} ({{season}}):",
      '{{rejectionReason}}',
      '',
      "Send a new copy from your phone on {{playerName}}'s upload page:",
      '{{uploadLink}}',
      '',
      'Or send it before {{deadline}} by replying to this e-mail with the file attached.',
      '',
      'Thank you,',
      'The league registration team',
    ].join('\n'),
    enabled: true,
  },
  {
    name: FILES_REFUSED_TEMPLATE,
    type: 'email',
    subject: 'We could not accept a file sent for {{playerName}}',
    content: [
      'Hello {{guardianName}},',
      '',
      'Thank you for sending documents for {{playerName}} ({{season}}). We could not accept:',
      '{{refusedFiles}}',
      '',
      'Please send a new copy of each, as a PDF or a photo, by replying to this e-mail with the file attached.',
      '',
      'Thank you,',
      'The league registration team',
    ].join('\n'),
    enabled: true,
  },
  {
    name: UPLOAD_LINK_TEMPLATE,
    type: 'email',
    subject: "{{playerName}}'s upload page ({{season}})",
    content: [
      'Hello {{guardianName}},',
      '',
      "Here is {{playerName}}'s personal upload page for {{season}}. Open it on your phone to see what is still",
      'needed and send it, no sign-in needed:',
      '{{uploadLink}}',
      '',
      'Still needed: {{missingDocuments}}',
      '',
      'The link is for your family only: please do not share it.',
      '',
      'Thank you,',
      'The league registration team',
    ].join('\n'),
    enabled: true,
  },
  {
    name: AUTOMATIC_REMINDER_TEMPLATE,
    type: 'email',
    subject: 'Documents still missing for {{playerName}} ({{season}})',
    content: [
      'Hello {{guardianName}},',
      '',
      'Registration for {{season}} closes on {{deadline}}. We are still missing:',
      '{{missingDocuments}}',
      '',
      'Send them from your phone on the upload page:',
      '{{uploadLink}}',
      '',
      'Or reply to this e-mail with the files attached.',
      '',
      'Thank you,',
      'The league registration team',
    ].join('\n'),
    enabled: true,
  },
];
