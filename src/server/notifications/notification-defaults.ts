import type { NewNotificationTemplate } from './notification-templates.repository';

/** The template the Documents screen's reject flow sends when 'Notify the guardian by e-mail' is ticked. */
export const DOCUMENT_REJECTED_TEMPLATE = 'Document Rejected';

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
      'Please send them before {{deadline}} by replying to this e-mail with the files attached,',
      'or through the registration form.',
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
      'Please send a new copy before {{deadline}} by replying to this e-mail with the file attached.',
      '',
      'Thank you,',
      'The league registration team',
    ].join('\n'),
    enabled: true,
  },
];
