import type { NewNotificationTemplate } from './notification-templates.repository';

/** The template the Documents screen's reject flow sends when 'Notify the guardian by e-mail' is ticked. */
export const DOCUMENT_REJECTED_TEMPLATE = 'Document Rejected';

/** The template that tells a family which files of a submission were refused at intake (too large, not a PDF or image …). */
export const FILES_REFUSED_TEMPLATE = 'File Not Accepted';

/**
 * Defaults added after the first release: an installation whose table lacks a template of that name gets it
 * at start (one seeded into an empty table has it already). A template renamed on the Templates tab is no
 * longer found by its name, so the default comes back beside it, and is the one Clearbase sends.
 */
export const ADDED_LATER_TEMPLATES: readonly string[] = [FILES_REFUSED_TEMPLATE];

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
];
