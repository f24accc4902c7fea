import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError, ZFamilyPage, ZPlayerTimeline, ZUploadLink, ZUploadLinkStatus, type TDocType, type TFamilyPage } from '../../contract';
import { tokenOfLink } from '../../../tests/support/accounts';
import { describeEachDatabase } from '../../../tests/support/databases';
import { signInAs } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { insertDocuments } from '../documents/documents.repository';
import { auditEvents, uploadLinks } from '../platform/db/schema';
import { createLogger } from '../platform/logger';
import { insertPlayers } from '../players/players.repository';
import { insertRegistrations } from '../players/registrations.repository';
import { insertSeasons } from '../seasons/seasons.repository';
import { hashUploadToken } from './upload-link-token';
import { FAMILY_PAGE_READS_PER_MINUTE } from './upload-links.routes';
import { familyDocumentState, uploadLinkOrigin } from './upload-links.service';

const LENA = 'CB-2025-2a0b0001';
const OTTO = 'CB-2025-2a0b0002';
const FALL = 'fall-2025';
const at = (iso: string) => new Date(iso);
const DOC = {
  lenaBirthRejected: '00000000-0000-4000-8000-00000000e001',
  lenaBirthNew: '00000000-0000-4000-8000-00000000e002',
  lenaResidencyOld: '00000000-0000-4000-8000-00000000e003',
  lenaResidencyRejected: '00000000-0000-4000-8000-00000000e004',
  lenaMedical: '00000000-0000-4000-8000-00000000e005',
  lenaWaiverPurged: '00000000-0000-4000-8000-00000000e006',
  ottoWaiver: '00000000-0000-4000-8000-00000000e007',
};
const STORAGE_KEY = 'seasons/2025/AA/martin_lena_2014-04-04_CB-2025-2a0b0001/residency.pdf';
/** What a family page must never hold: surnames, guardian details, file names, storage, ids of documents or players. */
const NEVER_ON_A_FAMILY_PAGE = [
  'Martin',
  'Kern',
  'Paula',
  'paula@example.org',
  '555-0100',
  '.pdf',
  '.jpg',
  'seasons/2025',
  STORAGE_KEY,
  LENA,
  OTTO,
  ...Object.values(DOC),
];

/**
 * Staff issue, check and revoke a family's upload link; the family page a link opens shows only that player's
 * first name and the state of each document type, and a link that stopped working or never existed shows nothing.
 */
describeEachDatabase('family upload links', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let aaaModerator = '';
  let aaViewer = '';
  const logLines: string[] = [];
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const staff = (method: 'GET' | 'POST' | 'DELETE', playerId: string, options: { cookie?: string; season?: string } = {}) =>
    app().inject({
      method,
      url: `/api/players/${playerId}/upload-link${method === 'POST' ? '' : `?season=${options.season ?? FALL}`}`,
      headers: { cookie: options.cookie ?? server?.cookie ?? '' },
      ...(method === 'POST' ? { payload: { season: options.season ?? FALL } } : {}),
    });
  const issue = async (playerId: string, season = FALL): Promise<{ token: string; response: LightMyRequestResponse }> => {
    const response = await staff('POST', playerId, { season });
    expect(response.statusCode, response.body).toBe(201);
    return { token: tokenOfLink(ZUploadLink.parse(response.json()).url), response };
  };
  const openPage = (token: string) => app().inject({ method: 'GET', url: `/api/family/${token}` });
  const pageOf = async (token: string): Promise<{ page: TFamilyPage; body: string }> => {
    const response = await openPage(token);
    expect(response.statusCode, response.body).toBe(200);
    return { page: ZFamilyPage.parse(response.json()), body: response.body };
  };
  const expectNoPlayerData = (body: string) => {
    for (const fragment of [...NEVER_ON_A_FAMILY_PAGE, 'Lena', 'Otto', 'Fall Ball', 'documents', 'expiresAt']) expect(body).not.toContain(fragment);
  };

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [
      { id: FALL, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', registrationDeadline: '2025-10-15', isCurrent: true },
    ]);
    await insertPlayers(db, [
      { id: LENA, firstName: 'Lena', lastName: 'Martin', birthDate: '2014-04-04', guardianName: 'Paula Martin', guardianEmail: 'paula@example.org', guardianPhone: '555-0100' },
      { id: OTTO, firstName: 'Otto', lastName: 'Kern', birthDate: '2013-03-03' },
    ]);
    await insertRegistrations(db, [
      { playerId: LENA, seasonId: FALL, division: 'AA' },
      { playerId: OTTO, seasonId: FALL, division: 'AAA' },
    ]);
    const stored = { storageDriver: 'local' as const, storageKey: STORAGE_KEY, storedPath: STORAGE_KEY };
    const doc = (id: string, playerId: string, docType: TDocType, status: 'pending' | 'verified' | 'rejected' | 'processing', uploadedAt: string, more: object = {}) => ({
      id,
      playerId,
      seasonId: FALL,
      docType,
      originalFilename: `${docType}_${id.slice(-4)}.pdf`,
      mime: 'application/pdf',
      status,
      uploadedAt: at(uploadedAt),
      fileSha256: id.slice(-4).repeat(16),
      ...stored,
      ...more,
    });
    await insertDocuments(db, [
      // Rejected, then sent again: the new one is under review.
      doc(DOC.lenaBirthRejected, LENA, 'birth_certificate', 'rejected', '2025-09-01T10:00:00Z', { reviewNotes: 'The photo is blurry' }),
      doc(DOC.lenaBirthNew, LENA, 'birth_certificate', 'processing', '2025-09-03T10:00:00Z'),
      // Under review, then a newer one rejected: not accepted, with the reviewer's reason.
      doc(DOC.lenaResidencyOld, LENA, 'residency', 'pending', '2025-09-01T10:00:00Z'),
      doc(DOC.lenaResidencyRejected, LENA, 'residency', 'rejected', '2025-09-02T10:00:00Z', { reviewNotes: 'The address is not readable' }),
      doc(DOC.lenaMedical, LENA, 'medical', 'verified', '2025-09-02T11:00:00Z'),
      // Removed after the retention period: as good as never sent.
      doc(DOC.lenaWaiverPurged, LENA, 'waiver', 'verified', '2025-09-02T12:00:00Z', { purgedAt: at('2025-09-20T00:00:00Z') }),
      doc(DOC.ottoWaiver, OTTO, 'waiver', 'verified', '2025-09-02T13:00:00Z'),
    ]);
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-upload-links',
      startWorkers: false,
      log: createLogger('info', { write: (line: string) => void logLines.push(line) }),
    });
    aaaModerator = await signInAs(db, { role: 'moderator', divisions: ['AAA'] });
    aaViewer = await signInAs(db, { role: 'viewer', divisions: ['AA'] });
    const settings = await app().inject({ method: 'PATCH', url: '/api/settings', headers: { cookie: server.cookie }, payload: { uploadLinkDays: 7 } });
    expect(settings.statusCode, settings.body).toBe(200);
  });
  afterAll(() => server?.close());

  it('issues a link at the request’s origin, working for the days Settings say, audited with the request id', async () => {
    const before = Date.now();
    const { token, response } = await issue(LENA, '2025');
    const link = ZUploadLink.parse(response.json());
    expect(link.url).toBe(`http://localhost:80/family#token=${token}`);
    const days = (Date.parse(link.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(7);
    expect(days).toBeLessThan(7.01);
    // Only the token's hash is kept.
    const { db } = getDatabase();
    const [row] = await db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(token)));
    expect(row).toMatchObject({ playerId: LENA, seasonId: FALL, issuedBy: 'Shared password', revokedAt: null, lastUsedAt: null });
    expect(JSON.stringify(await db.select().from(uploadLinks))).not.toContain(token);
    const events = await db.select().from(auditEvents).where(and(eq(auditEvents.action, 'upload_link.issued'), eq(auditEvents.subjectId, LENA)));
    expect(events.map((event) => [event.requestId, event.detail])).toContainEqual([
      response.headers['x-request-id'],
      { seasonId: FALL, linkId: row?.id, expiresAt: link.expiresAt, why: 'copied' },
    ]);
  });

  it('opens a page with the first name, the season and each document’s state, newest first, and nothing of anyone else', async () => {
    const lena = await issue(LENA);
    const otto = await issue(OTTO);
    const { page, body } = await pageOf(lena.token);
    expect(page.playerFirstName).toBe('Lena');
    expect(page.season).toEqual({ name: 'Fall Ball 2025', registrationDeadline: '2025-10-15' });
    expect(page.documents).toEqual([
      { type: 'birth_certificate', label: 'Birth Certificate', state: 'under_review', reason: null, receivedAt: '2025-09-03T10:00:00.000Z' },
      { type: 'residency', label: 'Residency Proof', state: 'not_accepted', reason: 'The address is not readable', receivedAt: '2025-09-02T10:00:00.000Z' },
      { type: 'medical', label: 'Medical Form', state: 'accepted', reason: null, receivedAt: '2025-09-02T11:00:00.000Z' },
      { type: 'waiver', label: 'Liability Waiver', state: 'missing', reason: null, receivedAt: null },
    ]);
    for (const fragment of [...NEVER_ON_A_FAMILY_PAGE, 'Otto', 'The photo is blurry']) expect(body).not.toContain(fragment);

    const ottoPage = await pageOf(otto.token);
    expect(ottoPage.page.playerFirstName).toBe('Otto');
    expect(ottoPage.page.documents.map((document) => document.state)).toEqual(['missing', 'missing', 'missing', 'accepted']);
    for (const fragment of [...NEVER_ON_A_FAMILY_PAGE, 'Lena', 'The address is not readable']) expect(ottoPage.body).not.toContain(fragment);

    // The log tells the page was opened, never with the token that opens it.
    const log = logLines.join('\n');
    expect(log).toContain('/api/family/[redacted]');
    for (const token of [lena.token, otto.token]) expect(log).not.toContain(token);
  });

  it('remembers when the family opened the page', async () => {
    const { token } = await issue(LENA);
    const { db } = getDatabase();
    const lastUsed = async () => (await db.select().from(uploadLinks).where(eq(uploadLinks.tokenHash, hashUploadToken(token))))[0]?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    await pageOf(token);
    expect(await lastUsed()).toBeInstanceOf(Date);
  });

  it('answers an expired, revoked, tampered or malformed token with a sentence and no data', async () => {
    const { db } = getDatabase();
    const expired = await issue(LENA);
    await db.update(uploadLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(uploadLinks.tokenHash, hashUploadToken(expired.token)));
    const gone = await openPage(expired.token);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 'GONE', message: 'This upload link has expired. Ask the league for a new one.' });
    expectNoPlayerData(gone.body);

    const live = await issue(OTTO);
    const last = live.token.at(-1) === 'A' ? 'B' : 'A';
    const tampered = await openPage(`${live.token.slice(0, -1)}${last}`);
    expect(tampered.statusCode).toBe(404);
    expect(tampered.json()).toMatchObject({ code: 'NOT_FOUND', message: 'This upload link is not valid. Ask the league for a new one.' });
    expectNoPlayerData(tampered.body);

    for (const malformed of ['x', `${live.token}A`, live.token.slice(0, -1), `${live.token.slice(0, -1)}!`, encodeURIComponent(`${live.token.slice(0, -2)}+/`)]) {
      const response = await openPage(malformed);
      expect(response.statusCode, malformed).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('This upload link is not valid. Ask the league for a new one.');
      expectNoPlayerData(response.body);
    }

    // Longer than any route parameter may be: the router refuses the address itself.
    const long = await openPage('A'.repeat(150));
    expect(long.statusCode).toBe(414);
    expectNoPlayerData(long.body);

    expect((await staff('DELETE', OTTO)).statusCode).toBe(200);
    const revoked = await openPage(live.token);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json()).toMatchObject({ code: 'GONE', message: 'This upload link is no longer active. Ask the league for a new one.' });
    expectNoPlayerData(revoked.body);
  });

  it('tells staff how many links work and when one was last issued and used; revoking stops every one, audited', async () => {
    const { db } = getDatabase();
    await staff('DELETE', LENA);
    const first = await issue(LENA);
    await issue(LENA);
    await pageOf(first.token);
    const status = ZUploadLinkStatus.parse((await staff('GET', LENA)).json());
    expect(status.active).toBe(2);
    expect(status.lastIssuedAt).not.toBeNull();
    expect(status.lastUsedAt).not.toBeNull();

    const revoked = await staff('DELETE', LENA);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ revoked: 2 });
    expect(ZUploadLinkStatus.parse((await staff('GET', LENA)).json()).active).toBe(0);
    expect((await openPage(first.token)).statusCode).toBe(410);
    const events = await db.select().from(auditEvents).where(and(eq(auditEvents.action, 'upload_link.revoked'), eq(auditEvents.subjectId, LENA)));
    expect(events.map((event) => event.detail)).toContainEqual({ seasonId: FALL, revoked: 2 });
    expect(events.every((event) => event.subjectType === 'player')).toBe(true);
  });

  it('keeps each person to their divisions: a player outside them is not registered as far as they can tell', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await staff(method, LENA, { cookie: aaaModerator });
      expect(response.statusCode, `${method} ${response.body}`).toBe(404);
      expect(response.json<{ message: string }>().message).toBe(`Player ${LENA} is not registered in Fall Ball 2025.`);
    }
    expect((await staff('POST', OTTO, { cookie: aaaModerator })).statusCode).toBe(201);
    // A viewer reads the status of their division's players, and may neither issue nor revoke.
    expect((await staff('GET', LENA, { cookie: aaViewer })).statusCode).toBe(200);
    expect((await staff('POST', LENA, { cookie: aaViewer })).statusCode).toBe(403);
    expect((await staff('DELETE', LENA, { cookie: aaViewer })).statusCode).toBe(403);
    // A player not registered in the season, and a season that does not exist.
    expect((await staff('POST', 'CB-2025-ffffffff')).json<{ message: string }>().message).toBe('Player CB-2025-ffffffff is not registered in Fall Ball 2025.');
    expect((await staff('GET', LENA, { season: '1999' })).statusCode).toBe(404);
  });

  it('tells the links on the player’s timeline: who issued them, that they were turned off', async () => {
    const response = await app().inject({ method: 'GET', url: `/api/players/${LENA}/timeline`, headers: { cookie: server?.cookie ?? '' } });
    expect(response.statusCode).toBe(200);
    const lines = ZPlayerTimeline.parse(response.json()).entries.map((entry) => [entry.what, entry.who]);
    expect(lines).toContainEqual(['Upload link created for the family', 'Shared password']);
    expect(lines).toContainEqual(['Upload links turned off', 'Shared password']);
  });
});

describeEachDatabase('family upload links at the public address', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [{ id: FALL, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true }]);
    await insertPlayers(db, [{ id: LENA, firstName: 'Lena', lastName: 'Martin', birthDate: '2014-04-04' }]);
    await insertRegistrations(db, [{ playerId: LENA, seasonId: FALL, division: 'AA' }]);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-upload-links-public', startWorkers: false, settings: { CLEARBASE_PUBLIC_URL: 'https://clearbase.example.org' } });
  });
  afterAll(() => server?.close());

  it('points the link at CLEARBASE_PUBLIC_URL whatever address staff used, working for the default 30 days', async () => {
    const response = await server?.app.inject({ method: 'POST', url: `/api/players/${LENA}/upload-link`, headers: { cookie: server.cookie, host: 'clearbase.example.org' }, payload: { season: FALL } });
    expect(response?.statusCode, response?.body).toBe(201);
    const link = ZUploadLink.parse(response?.json());
    expect(link.url).toMatch(/^https:\/\/clearbase\.example\.org\/family#token=[\w-]{43}$/);
    const page = await server?.app.inject({ method: 'GET', url: `/api/family/${tokenOfLink(link.url)}`, headers: { host: 'clearbase.example.org' } });
    expect(ZFamilyPage.parse(page?.json()).expiresAt).toBe(link.expiresAt);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it('answers one address that reads family pages more than a family ever would with 429, and another address still gets through', async () => {
    const read = (remoteAddress: string) =>
      server?.app.inject({ method: 'GET', url: `/api/family/${'A'.repeat(43)}`, headers: { host: 'clearbase.example.org' }, remoteAddress });
    for (let n = 0; n < FAMILY_PAGE_READS_PER_MINUTE; n += 1) expect((await read('203.0.113.7'))?.statusCode).toBe(404);
    const refused = await read('203.0.113.7');
    expect(refused?.statusCode).toBe(429);
    expect(refused?.headers['retry-after']).toBeDefined();
    const body = ZApiError.parse(refused?.json());
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.message).toMatch(/^Too many upload page requests from this address\. Try again in \d+ seconds\.$/);
    expect((await read('203.0.113.8'))?.statusCode).toBe(404);
  });
});

describe('uploadLinkOrigin', () => {
  it('is the public address when set, else the listening address', () => {
    expect(uploadLinkOrigin(new URL('https://docs.league.example/some/path'), { host: '0.0.0.0', port: 3000 })).toBe('https://docs.league.example');
    expect(uploadLinkOrigin(undefined, { host: '0.0.0.0', port: 3000 })).toBe('http://localhost:3000');
    expect(uploadLinkOrigin(undefined, { host: '192.168.1.20', port: 8080 })).toBe('http://192.168.1.20:8080');
    expect(uploadLinkOrigin(undefined, { host: '::1', port: 8080 })).toBe('http://[::1]:8080');
  });
});

describe('familyDocumentState', () => {
  const row = (status: 'processing' | 'pending' | 'verified' | 'rejected', day: number, reviewNotes: string | null = null) => ({
    docType: 'waiver' as const,
    status,
    reviewNotes,
    uploadedAt: new Date(Date.UTC(2025, 8, day)),
  });
  it('is missing with nothing; an accepted document settles it; otherwise the newest tells', () => {
    expect(familyDocumentState([]).state).toBe('missing');
    expect(familyDocumentState([row('pending', 3), row('rejected', 2, 'Blurry')])).toMatchObject({ state: 'under_review', reason: null });
    expect(familyDocumentState([row('rejected', 3, ' Unsigned '), row('pending', 2)])).toMatchObject({ state: 'not_accepted', reason: 'Unsigned' });
    expect(familyDocumentState([row('processing', 4), row('verified', 2)])).toMatchObject({ state: 'accepted' });
  });
});
