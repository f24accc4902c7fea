import { describe, expect, it } from 'vitest';
import type { TAuditAction } from '../../contract';
import type { AuditEventRow } from '../audit';
import type { PlayerTimelineDocumentRow } from '../documents';
import { buildPlayerTimeline } from './player-timeline';

const FALL = { seasonId: 'fall-2025', seasonName: 'Fall Ball 2025', seasonYear: 2025, division: 'AA' as const, registeredAt: new Date('2025-09-01T10:00:00Z') };

const document = (overrides: Partial<PlayerTimelineDocumentRow>): PlayerTimelineDocumentRow => ({
  id: 'doc-1',
  seasonId: 'fall-2025',
  docType: 'waiver',
  originalFilename: 'waiver.pdf',
  mime: 'application/pdf',
  status: 'pending',
  uploadedAt: new Date('2025-09-02T10:00:00Z'),
  reviewedAt: null,
  reviewNotes: null,
  source: 'family',
  ...overrides,
});

let nextId = 1;
const event = (action: string, detail: Record<string, unknown>, at: string): AuditEventRow => ({
  id: nextId++,
  at: new Date(at),
  actor: 'user',
  actorUserId: null,
  actorName: 'Sam Staff',
  // An action this build may not know yet, as the trail can hold one written by a newer version.
  action: action as TAuditAction,
  subjectType: 'document',
  subjectId: 'doc-1',
  detail,
  requestId: null,
});

describe('buildPlayerTimeline', () => {
  it('words an action it does not know in general terms, with the reason its detail carries', () => {
    const entries = buildPlayerTimeline({
      registrations: [FALL],
      documents: [document({})],
      events: [event('document.sent_back_for_signature', { reason: 'Page 2 is not signed' }, '2025-09-03T10:00:00Z')],
      notifications: [],
    });
    expect(entries.map((entry) => [entry.kind, entry.what, entry.who, entry.details])).toEqual([
      ['document', 'Liability Waiver: sent back for signature', 'Sam Staff', 'Page 2 is not signed'],
      ['upload', 'Liability Waiver uploaded', 'Family', "waiver.pdf (PDF, sent through the family's upload link)"],
      ['registration', 'Registered for Fall Ball 2025', 'Family', 'Division AA'],
    ]);
  });

  it('tells a decision kept on the document without a record, naming no one, and only once when it is recorded', () => {
    const reviewed = document({ status: 'rejected', reviewedAt: new Date('2025-09-04T10:00:00Z'), reviewNotes: 'Not signed', source: null });
    const unrecorded = buildPlayerTimeline({ registrations: [FALL], documents: [reviewed], events: [], notifications: [] });
    expect(unrecorded[0]).toMatchObject({ kind: 'review', what: 'Liability Waiver rejected', who: 'Not recorded', details: 'Not signed' });
    expect(unrecorded.map((entry) => entry.who)).toEqual(['Not recorded', 'Not recorded', 'Not recorded']);

    const recorded = buildPlayerTimeline({
      registrations: [FALL],
      documents: [reviewed],
      events: [event('document.status_changed', { from: 'pending', to: 'rejected', reviewNotes: 'Not signed' }, '2025-09-04T10:00:00Z')],
      notifications: [],
    });
    expect(recorded.filter((entry) => entry.kind === 'review').map((entry) => entry.who)).toEqual(['Sam Staff']);
  });

  it('tells a staff upload as staff', () => {
    const entries = buildPlayerTimeline({ registrations: [FALL], documents: [document({ source: 'upload' })], events: [], notifications: [] });
    expect(entries[0]).toMatchObject({ kind: 'upload', who: 'Staff', details: 'waiver.pdf (PDF, uploaded by staff)' });
  });

  it("tells a family's upload links: issued by whom and what for, turned off, and each file sent through one", () => {
    const onPlayer = (row: AuditEventRow, actor: Partial<AuditEventRow> = {}): AuditEventRow => ({ ...row, subjectType: 'player', subjectId: 'CB-1', ...actor });
    const family = { actor: 'family', actorName: 'Family upload link' };
    const entries = buildPlayerTimeline({
      registrations: [FALL],
      documents: [],
      events: [
        onPlayer(event('upload_link.issued', { seasonId: 'fall-2025', linkId: 'l1', expiresAt: '2025-10-03T10:00:00.000Z', why: 'copied' }, '2025-09-03T10:00:00Z')),
        onPlayer(event('upload_link.issued', { seasonId: 'fall-2025', linkId: 'l2', expiresAt: '2025-10-04T10:00:00.000Z', why: 'reminder' }, '2025-09-04T10:00:00Z'), {
          actor: 'system',
          actorName: 'System',
        }),
        onPlayer(event('upload_link.used', { seasonId: 'fall-2025', linkId: 'l1', docType: 'medical' }, '2025-09-05T10:00:00Z'), family),
        onPlayer(event('upload_link.revoked', { seasonId: 'fall-2025', revoked: 2 }, '2025-09-06T10:00:00Z')),
        // Not a link's record, and one whose detail this build cannot read: neither is told as a link.
        onPlayer(event('upload_link.issued', { linkId: 'l3' }, '2025-09-07T10:00:00Z')),
      ],
      notifications: [],
    });
    expect(entries.filter((entry) => entry.kind !== 'registration').map((entry) => [entry.kind, entry.what, entry.who, entry.details, entry.season?.id])).toEqual([
      ['notification', 'Upload links turned off', 'Sam Staff', '2 working links stopped', 'fall-2025'],
      ['upload', 'Medical Form sent through the upload link', 'Family upload link', null, 'fall-2025'],
      ['notification', 'Upload link sent with an automatic reminder', 'System', 'Works until Oct 4, 2025', 'fall-2025'],
      ['notification', 'Upload link created for the family', 'Sam Staff', 'Works until Oct 3, 2025', 'fall-2025'],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/l1|l2|l3|linkId/);
  });

  it('puts a message about no season with no season, sent by the system when no person sent it', () => {
    const [message] = buildPlayerTimeline({
      registrations: [],
      documents: [],
      events: [],
      notifications: [
        {
          id: 'm1',
          type: 'email',
          recipient: 'parent@example.org',
          subject: 'Your document was rejected',
          status: 'failed',
          sentAt: null,
          errorMessage: 'Mail server refused the address',
          createdAt: new Date('2025-09-05T10:00:00Z'),
          seasonId: null,
          senderName: null,
        },
      ],
    });
    expect(message).toMatchObject({
      kind: 'notification',
      what: 'Message to the guardian could not be sent',
      who: 'System',
      details: '“Your document was rejected” to parent@example.org: Mail server refused the address',
      season: null,
    });
  });
});
