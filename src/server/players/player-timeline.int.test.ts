import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZPlayerTimeline, type TAuditAction, type TPlayerTimeline } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { signInAs, signInAsUser } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { recordAuditEvent } from '../audit';
import { insertDocuments } from '../documents/documents.repository';
import { insertNotificationHistory } from '../notifications/notification-history.repository';
import { insertSubmissions } from '../pipeline/submissions.repository';
import { auditEvents } from '../platform/db/schema';
import { insertSeasons } from '../seasons/seasons.repository';
import { insertPlayers } from './players.repository';
import { insertRegistrations } from './registrations.repository';

const LENA = 'CB-2025-1e0a0001';
const OTTO = 'CB-2025-1e0a0002';
const SPRING = 'spring-2025';
const FALL = 'fall-2025';
const SUBMISSION = { spring: '00000000-0000-4000-8000-0000000005f1', fall: '00000000-0000-4000-8000-0000000005f2' };
const DOC = {
  springBirth: '00000000-0000-4000-8000-00000000d001',
  fallMedical: '00000000-0000-4000-8000-00000000d002',
  fallWaiver: '00000000-0000-4000-8000-00000000d003',
};
/** Where the files are kept: none of it may appear in the timeline. */
const STORAGE_KEY = 'seasons/2025/AA/martin_lena_2014-04-04_CB-2025-1e0a0001/medical.jpg';
const at = (iso: string) => new Date(iso);

/**
 * GET /api/players/{playerId}/timeline over two seasons of one player: registrations, files received with how
 * they came in, review decisions made through the API by a named person (a rejection with its reason), a
 * reopening recorded under an action this build does not know, a message sent by that person, and division scope.
 */
describeEachDatabase('the player timeline', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let moderator = '';
  let aaViewer = '';
  let aaaViewer = '';
  const get = (cookie: string, playerId: string) =>
    server?.app.inject({ method: 'GET', url: `/api/players/${encodeURIComponent(playerId)}/timeline`, headers: { cookie } }) ??
    Promise.reject(new Error('not started'));
  const timelineOf = async (cookie: string, playerId: string): Promise<{ body: string; timeline: TPlayerTimeline }> => {
    const response = await get(cookie, playerId);
    expect(response.statusCode, response.body).toBe(200);
    return { body: response.body, timeline: ZPlayerTimeline.parse(response.json()) };
  };

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [
      { id: SPRING, name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, startsOn: '2025-03-01', endsOn: '2025-06-30' },
      { id: FALL, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true },
    ]);
    await insertPlayers(db, [
      { id: LENA, firstName: 'Lena', lastName: 'Martin', birthDate: '2014-04-04', guardianName: 'Paula Martin', guardianEmail: 'paula@example.org' },
      { id: OTTO, firstName: 'Otto', lastName: 'Kern', birthDate: '2013-03-03' },
    ]);
    await insertRegistrations(db, [
      { playerId: LENA, seasonId: SPRING, division: 'A', registeredAt: at('2025-03-02T10:00:00Z') },
      { playerId: LENA, seasonId: FALL, division: 'AA', registeredAt: at('2025-09-01T10:00:00Z') },
      { playerId: OTTO, seasonId: FALL, division: 'AAA', registeredAt: at('2025-09-01T10:00:00Z') },
    ]);
    const submission = (id: string, source: 'form' | 'mailbox', seasonId: string, receivedAt: Date) => ({
      id,
      source,
      externalId: `external-${id}`,
      receivedAt,
      playerId: LENA,
      seasonId,
      status: 'processed' as const,
      attachmentCount: 1,
    });
    await insertSubmissions(db, [
      submission(SUBMISSION.spring, 'form', SPRING, at('2025-03-02T10:05:00Z')),
      submission(SUBMISSION.fall, 'mailbox', FALL, at('2025-09-02T08:00:00Z')),
    ]);
    const stored = { storageDriver: 'local' as const, storageKey: STORAGE_KEY, storedPath: STORAGE_KEY };
    await insertDocuments(db, [
      {
        id: DOC.springBirth,
        playerId: LENA,
        seasonId: SPRING,
        submissionId: SUBMISSION.spring,
        docType: 'birth_certificate',
        originalFilename: 'birth_certificate_martin.pdf',
        mime: 'application/pdf',
        status: 'pending',
        uploadedAt: at('2025-03-02T10:05:00Z'),
        fileSha256: '1'.repeat(64),
        ...stored,
      },
      {
        id: DOC.fallMedical,
        playerId: LENA,
        seasonId: FALL,
        submissionId: SUBMISSION.fall,
        docType: 'medical',
        originalFilename: 'IMG_2041.jpg',
        mime: 'image/jpeg',
        status: 'pending',
        uploadedAt: at('2025-09-02T08:00:00Z'),
        fileSha256: '2'.repeat(64),
        ...stored,
      },
      {
        id: DOC.fallWaiver,
        playerId: LENA,
        seasonId: FALL,
        submissionId: SUBMISSION.fall,
        docType: 'waiver',
        originalFilename: 'waiver_signed.pdf',
        mime: 'application/pdf',
        status: 'pending',
        uploadedAt: at('2025-09-02T08:00:01Z'),
        fileSha256: '3'.repeat(64),
        ...stored,
      },
    ]);

    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-player-timeline', startWorkers: false });
    const rita = await signInAsUser(db, { role: 'moderator', firstName: 'Rita', lastName: 'Reviewer' });
    moderator = rita.cookie;
    aaViewer = await signInAs(db, { role: 'viewer', divisions: ['AA'] });
    aaaViewer = await signInAs(db, { role: 'viewer', divisions: ['AAA'] });

    // Reviews through the API, as Rita: the spring birth certificate approved, the fall medical form rejected with a reason.
    const review = (documentId: string, payload: object) =>
      server?.app.inject({ method: 'PATCH', url: `/api/documents/${documentId}/status`, headers: { cookie: moderator }, payload });
    expect((await review(DOC.springBirth, { status: 'verified' }))?.statusCode).toBe(200);
    expect((await review(DOC.fallMedical, { status: 'rejected', reviewNotes: 'Physician signature is missing' }))?.statusCode).toBe(200);

    // A reminder Rita sent: the message row and her audit record written in one transaction, as sending does.
    await db.transaction(async (tx) => {
      await insertNotificationHistory(tx, [
        { type: 'email', recipient: 'paula@example.org', subject: 'Documents still missing for Lena', status: 'sent', sentAt: new Date(), playerId: LENA, seasonId: FALL },
      ]);
      await recordAuditEvent(tx, {
        actor: { kind: 'user', userId: rita.userId, name: 'Rita Reviewer', email: null, role: 'moderator', divisions: null, twoFactorEnabled: false, twoFactorSetupRequired: false },
        action: 'notifications.sent',
        subjectType: 'notification_template',
        subjectId: null,
        detail: { channel: 'email', recipients: 'incomplete', messages: 1 },
      });
    });

    // A reopening under an action name this build does not know yet: told in general words, with its reason.
    const reopened: string = 'document.reopened';
    await db.insert(auditEvents).values({
      actor: 'user',
      actorUserId: rita.userId,
      actorName: 'Rita Reviewer',
      action: reopened as TAuditAction,
      subjectType: 'document',
      subjectId: DOC.springBirth,
      detail: { from: 'verified', to: 'pending', reason: 'Wrong child on the certificate' },
      at: new Date(Date.now() + 60_000),
    });
  });
  afterAll(() => server?.close());

  it('tells both seasons newest first: registrations, uploads with how they came in, reviews with who and why, the reminder', async () => {
    const { body, timeline } = await timelineOf(moderator, LENA);
    expect(timeline.playerId).toBe(LENA);
    const lines = timeline.entries.map((entry) => [entry.kind, entry.what, entry.who, entry.details, entry.season?.id ?? null]);
    // Reviews and the reminder happened now; the reopening a minute later; the uploads and registrations in 2025.
    expect(lines).toEqual([
      ['review', 'Birth Certificate reopened for review', 'Rita Reviewer', 'Wrong child on the certificate', SPRING],
      ...lines.slice(1, 4),
      ['upload', 'Liability Waiver uploaded', 'Mailbox', 'waiver_signed.pdf (PDF, sent by e-mail to the mailbox)', FALL],
      ['upload', 'Medical Form uploaded', 'Mailbox', 'IMG_2041.jpg (JPEG image, sent by e-mail to the mailbox)', FALL],
      ['registration', 'Registered for Fall Ball 2025', 'Mailbox', 'Division AA', FALL],
      ['upload', 'Birth Certificate uploaded', 'Form', 'birth_certificate_martin.pdf (PDF, sent with the registration form)', SPRING],
      ['registration', 'Registered for Spring Ball 2025', 'Form', 'Division A', SPRING],
    ]);
    // The three things done now, in whatever order the clock put them.
    expect(lines.slice(1, 4)).toEqual(
      expect.arrayContaining([
        ['review', 'Birth Certificate approved', 'Rita Reviewer', null, SPRING],
        ['review', 'Medical Form rejected', 'Rita Reviewer', 'Physician signature is missing', FALL],
        ['notification', 'Message sent to the guardian', 'Rita Reviewer', '“Documents still missing for Lena” to paula@example.org', FALL],
      ]),
    );
    const times = timeline.entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(timeline.entries.map((entry) => entry.id)).size).toBe(timeline.entries.length);

    // The player dialog says where files are kept in words, from the document's storage kind.
    const report = await server?.app.inject({ method: 'GET', url: `/api/report/player?player_id=${LENA}&season=${FALL}`, headers: { cookie: moderator } });
    expect(report?.json<{ documents: Array<{ storageDriver: string | null }> }>().documents.map((d) => d.storageDriver)).toEqual(['local', 'local']);

    // No storage location, path or key anywhere in the answer.
    for (const fragment of ['file://', 's3://', 'local:', STORAGE_KEY, 'seasons/2025', 'martin_lena']) expect(body).not.toContain(fragment);
  });

  it('answers only the seasons of the caller’s divisions, and 404 for a player outside them, as for one that does not exist', async () => {
    const { timeline } = await timelineOf(aaViewer, LENA);
    expect(new Set(timeline.entries.map((entry) => entry.season?.id))).toEqual(new Set([FALL]));
    expect(timeline.entries.map((entry) => entry.what)).toEqual(
      expect.arrayContaining(['Medical Form rejected', 'Message sent to the guardian', 'Registered for Fall Ball 2025']),
    );

    const outside = await get(aaaViewer, LENA);
    const unknown = await get(aaaViewer, 'CB-2025-ffffffff');
    expect(outside.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(outside.json()).toMatchObject({ code: 'NOT_FOUND', message: `Player ${LENA} does not exist.` });
    expect(Object.keys(outside.json<object>()).sort()).toEqual(Object.keys(unknown.json<object>()).sort());
    // The AAA viewer does see their own division's player.
    expect((await timelineOf(aaaViewer, OTTO)).timeline.entries.map((entry) => entry.what)).toEqual(['Registered for Fall Ball 2025']);

    expect((await server?.app.inject({ method: 'GET', url: `/api/players/${LENA}/timeline` }))?.statusCode).toBe(401);
  });
});
