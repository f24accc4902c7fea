import { createHash } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  DEFAULT_REJECT_REASONS,
  LIVE_TURNED_OFF_CLOSE_CODE,
  MAX_REJECT_REASON_LENGTH,
  MAX_REJECT_REASONS,
  REALTIME_OFF_MESSAGE,
  SYSTEM_SETTINGS_DEFAULTS,
  ZInstallation,
  ZServerMessage,
  ZSystemSettings,
  type TApiError,
} from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { loadConfig } from '../platform/config';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { sessions } from '../platform/db/schema';
import { createLogger } from '../platform/logger';
import { createClearbase, type Clearbase } from '../main';
import { buildStoredPath, sanitizeStoredName } from '../files';
import { derivePlayerId } from '../players/player-id';

describeEachDatabase('System Settings calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let other: Clearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const get = (url: string, cookie = started().cookie) => started().app.inject({ method: 'GET', url, headers: { cookie } });
  const patch = (payload: object, cookie = started().cookie) =>
    started().app.inject({ method: 'PATCH', url: '/api/settings', headers: { cookie }, payload });
  const problems = (body: unknown) => ((body as TApiError).details ?? []).map((d) => `${d.path}: ${d.message}`);
  const signInAgain = async () => {
    const login = await started().app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'cb-settings-api test password' } });
    return [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
  };
  /** Pretends the session was last used `minutes` ago, as a browser left idle would have it. */
  const idleFor = async (cookie: string, minutes: number) => {
    const id = createHash('sha256').update(cookie.replace(/^cb_session=/, '')).digest('hex');
    await getDatabase().db.update(sessions).set({ lastSeenAt: new Date(Date.now() - minutes * 60_000) }).where(eq(sessions.id, id));
  };

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-settings-api', startWorkers: false });
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  it('needs a session', async () => {
    for (const url of ['/api/settings', '/api/settings/installation']) {
      expect((await get(url, '')).statusCode, url).toBe(401);
    }
    expect((await patch({ antivirusScanning: false }, '')).statusCode).toBe(401);
  });

  it('GET /api/settings answers the defaults while nothing was saved', async () => {
    const response = await get('/api/settings');
    expect(response.statusCode).toBe(200);
    expect(ZSystemSettings.parse(response.json())).toEqual(SYSTEM_SETTINGS_DEFAULTS);
  });

  it('PATCH /api/settings saves the change, answers the settings as they now are, and audits old and new values', async () => {
    const response = await patch({ slackNotifications: true, sessionTimeoutMinutes: 90 });
    expect(response.statusCode).toBe(200);
    const expected = { ...SYSTEM_SETTINGS_DEFAULTS, slackNotifications: true, sessionTimeoutMinutes: 90 };
    expect(ZSystemSettings.parse(response.json())).toEqual(expected);
    expect(ZSystemSettings.parse((await get('/api/settings')).json())).toEqual(expected);

    const audits = await listAuditEventsByAction(getDatabase().db, 'settings.updated');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'shared-password',
      subjectType: 'settings',
      detail: { slackNotifications: { from: false, to: true }, sessionTimeoutMinutes: { from: 60, to: 90 } },
    });
    expect(audits[0]?.requestId).toBeTruthy();

    // Saving what is already saved changes nothing, so it records nothing.
    expect((await patch({ slackNotifications: true })).statusCode).toBe(200);
    expect(await listAuditEventsByAction(getDatabase().db, 'settings.updated')).toHaveLength(1);
    expect((await patch({ slackNotifications: false, sessionTimeoutMinutes: 60 })).statusCode).toBe(200);
  });

  it('refuses a bad value with 400 naming the field, and an unknown field or an empty change', async () => {
    const tooShort = await patch({ sessionTimeoutMinutes: 2 });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(problems(tooShort.json())).toEqual(['body.sessionTimeoutMinutes: must be at least 5 minutes']);

    const fraction = await patch({ sessionTimeoutMinutes: 7.5 });
    expect(problems(fraction.json())).toEqual(['body.sessionTimeoutMinutes: must be a whole number of minutes']);

    const notASwitch = await patch({ antivirusScanning: 'no' });
    expect(notASwitch.statusCode).toBe(400);
    expect(problems(notASwitch.json())).toEqual([expect.stringMatching(/^body\.antivirusScanning: /)]);

    const unknown = await patch({ darkMode: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<TApiError>().message).toContain('darkMode');

    const empty = await patch({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json<TApiError>().message).toContain('Change at least one setting.');

    expect(ZSystemSettings.parse((await get('/api/settings')).json())).toEqual(SYSTEM_SETTINGS_DEFAULTS);
  });

  it('keeps the reasons for not accepting a document: defaults, a saved list read back, and a bad list refused in words', async () => {
    expect(ZSystemSettings.parse((await get('/api/settings')).json()).rejectReasons).toEqual([...DEFAULT_REJECT_REASONS]);
    const reasons = ['Blurry photo', 'Wrong child', '  Expired  '];
    const saved = await patch({ rejectReasons: reasons });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(ZSystemSettings.parse(saved.json()).rejectReasons).toEqual(['Blurry photo', 'Wrong child', 'Expired']);
    expect(ZSystemSettings.parse((await get('/api/settings')).json()).rejectReasons).toEqual(['Blurry photo', 'Wrong child', 'Expired']);
    const audits = () => listAuditEventsByAction(getDatabase().db, 'settings.updated');
    const before = (await audits()).length;
    // The same list again is no change: nothing is recorded.
    expect((await patch({ rejectReasons: ['Blurry photo', 'Wrong child', 'Expired'] })).statusCode).toBe(200);
    expect(await audits()).toHaveLength(before);

    const duplicate = await patch({ rejectReasons: ['Blurry', 'blurry'] });
    expect(duplicate.statusCode).toBe(400);
    expect(problems(duplicate.json())).toEqual(['body.rejectReasons: Each reason must be different']);
    const blank = await patch({ rejectReasons: ['Fine', '   '] });
    expect(problems(blank.json())).toEqual(['body.rejectReasons.1: A reason cannot be empty']);
    const long = await patch({ rejectReasons: ['x'.repeat(MAX_REJECT_REASON_LENGTH + 1)] });
    expect(problems(long.json())).toEqual([`body.rejectReasons.0: A reason must be at most ${MAX_REJECT_REASON_LENGTH} characters`]);
    const many = await patch({ rejectReasons: Array.from({ length: MAX_REJECT_REASONS + 1 }, (_, i) => `Reason ${i}`) });
    expect(problems(many.json())).toEqual([`body.rejectReasons: At most ${MAX_REJECT_REASONS} reasons`]);
    const none = await patch({ rejectReasons: [] });
    expect(problems(none.json())).toEqual(['body.rejectReasons: Keep at least one reason']);

    expect(ZSystemSettings.parse((await get('/api/settings')).json()).rejectReasons).toEqual(['Blurry photo', 'Wrong child', 'Expired']);
    expect((await patch({ rejectReasons: [...DEFAULT_REJECT_REASONS] })).statusCode).toBe(200);
  });

  it('GET /api/settings/installation describes storage without credentials and works its example with the real functions', async () => {
    const installation = ZInstallation.parse((await get('/api/settings/installation')).json());
    expect(installation.storage).toEqual({ driver: 'local', location: path.join(started().dataDir, 'storage'), usage: [] });
    expect(installation.antivirus).toEqual({ scanningOn: true, clamdConfigured: false, clamdLocation: null });
    expect(installation).toMatchObject({
      retentionYears: 7,
      maxFileBytes: 20 * 1024 * 1024,
      formWebhookConfigured: true,
      mailbox: { configured: false, intervalMs: null },
      playerId: { prefix: 'CB', format: 'CB-{year}-{8 hex}' },
    });
    expect(installation.acceptedFileTypes.map((type) => type.mime)).toEqual(['application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'image/tiff']);

    const { example } = installation;
    const playerId = derivePlayerId({ prefix: 'CB', year: example.seasonYear, ...example });
    expect(example.playerId).toBe(playerId);
    expect(example.playerId).toMatch(/^CB-\d{4}-[0-9a-f]{8}$/);
    expect(example.storedPath).toBe(
      buildStoredPath({
        year: example.seasonYear,
        division: 'AA',
        storedName: sanitizeStoredName(example.firstName, example.lastName),
        birthDate: example.birthDate,
        playerId,
        docType: 'medical',
        submissionId: example.submissionId,
        fileSha256: example.fileSha256,
        extension: example.extension,
      }),
    );
    expect(example.storedPath).toBe(
      `seasons/${example.seasonYear}/AA/zoe_obrien_2015-03-02_${playerId}/zoe_obrien_2015-03-02_medical_${example.submissionId}_${example.fileSha256.slice(0, 8)}.pdf`,
    );
  });

  it('ends idle sessions by the saved timeout, which wins over CLEARBASE_SESSION_TIMEOUT_MINUTES', async () => {
    expect((await patch({ sessionTimeoutMinutes: 5 })).statusCode).toBe(200);
    const idle = await signInAgain();
    const recent = await signInAgain();

    // Another instance, started after the change (so its 5-second memories are empty), with a longer timeout in its environment.
    const dataDir = started().dataDir;
    other = await createClearbase(
      loadConfig({ CLEARBASE_DATA_DIR: dataDir, CLEARBASE_PASSWORD: 'cb-settings-api test password', CLEARBASE_DEMO: 'false', CLEARBASE_SESSION_TIMEOUT_MINUTES: '120' }),
      createLogger('silent'),
      { database: getDatabase(), webDir: path.join(dataDir, 'none'), startWorkers: false },
    );
    const getOnOther = (cookie: string) => other?.app.inject({ method: 'GET', url: '/api/settings', headers: { cookie } });

    await idleFor(idle, 6);
    await idleFor(recent, 4);
    const refused = await getOnOther(idle);
    expect(refused?.statusCode).toBe(401);
    expect(refused?.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const kept = await getOnOther(recent);
    expect(kept?.statusCode).toBe(200);
    expect(ZSystemSettings.parse(kept?.json()).sessionTimeoutMinutes).toBe(5);

    expect((await patch({ sessionTimeoutMinutes: 60 })).statusCode).toBe(200);
  });

  it('with real-time updates off, refuses new /ws connections and closes the open ones', async () => {
    const app = started().app;
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `${address.replace(/^http/, 'ws')}/ws`;
    const headers = { cookie: started().cookie, origin: address };

    const open = new WebSocket(url, { headers });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => open.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
    const firstMessage = await new Promise<unknown>((resolve, reject) => {
      open.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
      open.on('error', reject);
    });
    expect(ZServerMessage.parse(firstMessage).type).toBe('connected');

    expect((await patch({ realtimeUpdates: false })).statusCode).toBe(200);
    expect(await closed).toEqual({ code: LIVE_TURNED_OFF_CLOSE_CODE, reason: REALTIME_OFF_MESSAGE });

    const refusal = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => reject(new Error('the upgrade should have been refused')));
      socket.on('error', () => undefined);
    });
    expect(refusal).toBe(403);

    expect((await patch({ realtimeUpdates: true })).statusCode).toBe(200);
    const reopened = new WebSocket(url, { headers });
    await new Promise<void>((resolve, reject) => {
      reopened.once('open', () => resolve());
      reopened.on('error', reject);
    });
    reopened.close(1000);
  });
});
