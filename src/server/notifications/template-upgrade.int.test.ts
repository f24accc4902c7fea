import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { asc } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../tests/support/databases';
import { openEarlierDatabase } from '../../../tests/support/earlier-database';
import type { Db } from '../platform/db/client';
import { notificationTemplates } from '../platform/db/schema';
import { DEFAULT_NOTIFICATION_TEMPLATES } from './notification-defaults';
import { seedDefaultNotificationTemplates } from './notifications.service';

/**
 * An installation from before upload links, its default templates as that version seeded them (one edited by
 * its staff), opened by this version: the defaults left as they were now offer the family's upload page, the
 * edited one keeps its staff's words, and the new 'Upload Link' and 'Automatic Reminder' are added.
 */

const LAST_BEFORE = '0014_notification_history_body';


/** The texts the earlier version seeded, word for word. */
const EARLIER = {
  'Missing Documents Reminder': [
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
  'Deadline Reminder': [
    'Hello {{guardianName}},',
    '',
    'Registration for {{season}} closes on {{deadline}}. {{playerName}} still needs:',
    '{{missingDocuments}}',
    '',
    'Players without all four documents cannot be placed on a roster.',
  ].join('\n'),
  'Document Rejected': [
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
};
const EDITED_DEADLINE = `${EARLIER['Deadline Reminder']}\n\nCoach Pat`;

async function fillAsBefore(db: Db): Promise<void> {
  await db.insert(notificationTemplates).values([
    { name: 'Missing Documents Reminder', type: 'email', subject: 'Documents still missing for {{playerName}} ({{season}})', content: EARLIER['Missing Documents Reminder'] },
    { name: 'Deadline Reminder', type: 'email', subject: 'Registration closes {{deadline}}: {{season}}', content: EDITED_DEADLINE },
    { name: 'Document Rejected', type: 'email', subject: "{{playerName}}'s {{documentType}} needs a new copy", content: EARLIER['Document Rejected'] },
  ]);
}

const defaultText = (name: string) => DEFAULT_NOTIFICATION_TEMPLATES.find((t) => t.name === name)?.content;

describe('default templates of an earlier installation', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it.each(testDatabaseKinds())('on %s, unchanged ones get the upload page, an edited one is left alone', async (kind) => {
    const database = await openEarlierDatabase(kind, { lastBefore: LAST_BEFORE, fill: fillAsBefore, pgliteExtensions: { unaccent, pg_trgm }, cleanups });
    const { db } = database;
    expect(await seedDefaultNotificationTemplates(db)).toBe(true);

    const rows = await db.select().from(notificationTemplates).orderBy(asc(notificationTemplates.name));
    const content = Object.fromEntries(rows.map((row) => [row.name, row.content]));
    expect(Object.keys(content)).toEqual(['Automatic Reminder', 'Deadline Reminder', 'Document Rejected', 'File Not Accepted', 'Missing Documents Reminder', 'Upload Link']);
    expect(content['Missing Documents Reminder']).toBe(defaultText('Missing Documents Reminder'));
    expect(content['Missing Documents Reminder']).toContain('{{uploadLink}}');
    expect(content['Document Rejected']).toBe(defaultText('Document Rejected'));
    expect(content['Document Rejected']).toContain('{{uploadLink}}');
    expect(content['Deadline Reminder']).toBe(EDITED_DEADLINE);
  });
});
