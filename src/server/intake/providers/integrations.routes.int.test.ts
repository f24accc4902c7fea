import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELIVERIES_KEPT, FORM_PROVIDERS, ZIntakeDeliveries, ZIntegration, ZIntegrations, type TApiError, type TIntegration } from '../../../contract';
import { describeEachDatabase } from '../../../../tests/support/databases';
import { signInAs } from '../../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../../tests/support/signed-in-clearbase';
import { listAuditEventsByAction } from '../../audit/audit-events.repository';
import { players, settings } from '../../platform/db/schema';
import { insertDelivery } from './deliveries.repository';
import { noteQuestions, readCredentials } from './integration-settings';

const MASTER_KEY = 'cd'.repeat(32);
const DEFAULT_SECRET = 'the default form webhook secret';
const TALLY_SECRET = 'tally-own-secret-0123456789-q1r2';
const JOTFORM_KEY = 'jotform-api-key-zz98';

describeEachDatabase('Settings → Integrations calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const get = (url: string, cookie = started().cookie) => started().app.inject({ method: 'GET', url, headers: { cookie } });
  const patch = (provider: string, payload: object, cookie = started().cookie) =>
    started().app.inject({ method: 'PATCH', url: `/api/integrations/${provider}`, headers: { cookie }, payload });
  const listed = async (provider: string): Promise<TIntegration> => {
    const answer = await get('/api/integrations');
    expect(answer.statusCode).toBe(200);
    const found = ZIntegrations.parse(answer.json()).integrations.find((entry) => entry.provider === provider);
    if (!found) throw new Error(`${provider} not listed`);
    return found;
  };
  const problems = (body: unknown) => ((body as TApiError).details ?? []).map((d) => `${d.path}: ${d.message}`);
  const audits = () => listAuditEventsByAction(getDatabase().db, 'integration.updated');

  beforeAll(async () => {
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-integrations',
      startWorkers: false,
      settings: { FORM_WEBHOOK_SECRET: DEFAULT_SECRET, CLEARBASE_MASTER_KEY: MASTER_KEY },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is for those who manage settings: 401 without a session, 403 for a viewer and a moderator', async () => {
    const { db } = getDatabase();
    const viewer = await signInAs(db, { role: 'viewer' });
    const moderator = await signInAs(db, { role: 'moderator' });
    for (const [cookie, status] of [['', 401], [viewer, 403], [moderator, 403]] as const) {
      expect((await get('/api/integrations', cookie)).statusCode).toBe(status);
      expect((await get('/api/integrations/tally/deliveries', cookie)).statusCode).toBe(status);
      expect((await patch('tally', { secret: TALLY_SECRET }, cookie)).statusCode).toBe(status);
    }
    const admin = await signInAs(db, { role: 'admin' });
    expect((await get('/api/integrations', admin)).statusCode).toBe(200);
    // Nothing was changed by the refused calls.
    expect((await listed('tally')).secretSource).toBe('default');
    expect(await audits()).toHaveLength(0);
  });

  it('lists every form builder with how it is verified and the address to give it', async () => {
    const answer = ZIntegrations.parse((await get('/api/integrations')).json());
    expect(answer.integrations.map((entry) => entry.provider)).toEqual([...FORM_PROVIDERS]);
    const byProvider = new Map(answer.integrations.map((entry) => [entry.provider, entry]));
    expect(byProvider.get('tally')).toEqual({
      provider: 'tally',
      name: 'Tally',
      authKind: 'signature',
      webhookPath: '/api/intake/tally',
      secretSource: 'default',
      secretHint: null,
      downloadKeySet: false,
      mapping: {},
      lastQuestions: [],
      lastDeliveryAt: null,
    });
    expect(answer.integrations.map((entry) => [entry.provider, entry.authKind, entry.webhookPath])).toEqual([
      ['jotform', 'token', '/api/intake/jotform/{token}'],
      ['typeform', 'signature', '/api/intake/typeform'],
      ['google', 'signature', '/api/intake/google'],
      ['tally', 'signature', '/api/intake/tally'],
      ['formstack', 'handshake', '/api/intake/formstack'],
      ['cognito', 'token', '/api/intake/cognito/{token}'],
      ['gravity', 'token', '/api/intake/gravity/{token}'],
      ['wufoo', 'handshake', '/api/intake/wufoo'],
    ]);
    expect(JSON.stringify(answer)).not.toContain(DEFAULT_SECRET);
  });

  it('sets, replaces and removes a provider’s own secret: sealed, shown by its last four characters, never answered or audited', async () => {
    const set = await patch('tally', { secret: TALLY_SECRET });
    expect(set.statusCode).toBe(200);
    expect(ZIntegration.parse(set.json())).toMatchObject({ provider: 'tally', secretSource: 'own', secretHint: '••••q1r2' });
    expect(set.body).not.toContain(TALLY_SECRET);
    expect((await listed('tally')).secretHint).toBe('••••q1r2');

    // Kept sealed in the database, and what the intake opens is the secret itself.
    const [row] = await getDatabase().db.select().from(settings).where(eq(settings.key, 'integration.tally'));
    expect(JSON.stringify(row?.value)).not.toContain(TALLY_SECRET);
    const credentials = await readCredentials({ db: getDatabase().db, masterKey: Buffer.from(MASTER_KEY, 'hex'), defaultSecret: DEFAULT_SECRET }, 'tally');
    expect(credentials.secret).toBe(TALLY_SECRET);

    const replacement = 'a-second-tally-secret-of-enough-length-s3t4';
    expect(ZIntegration.parse((await patch('tally', { secret: replacement })).json()).secretHint).toBe('••••s3t4');
    const removed = ZIntegration.parse((await patch('tally', { secret: null })).json());
    expect(removed).toMatchObject({ secretSource: 'default', secretHint: null });
    expect((await readCredentials({ db: getDatabase().db, masterKey: Buffer.from(MASTER_KEY, 'hex'), defaultSecret: DEFAULT_SECRET }, 'tally')).secret).toBe(DEFAULT_SECRET);

    const recorded = await audits();
    expect(recorded.map((event) => event.detail)).toEqual([
      { provider: 'tally', secret: 'set' },
      { provider: 'tally', secret: 'replaced' },
      { provider: 'tally', secret: 'removed' },
    ]);
    expect(recorded[0]).toMatchObject({ actor: 'shared-password', subjectType: 'settings', subjectId: 'integration.tally' });
    expect(recorded[0]?.requestId).toBeTruthy();
    const trail = JSON.stringify(recorded);
    // The last fours hold letters past f, so a request id (hex) cannot contain them by chance.
    for (const secret of [TALLY_SECRET, replacement, 'q1r2', 's3t4']) expect(trail).not.toContain(secret);

    // Removing a secret that is not there changes nothing, so it records nothing.
    expect((await patch('tally', { secret: null })).statusCode).toBe(200);
    expect(await audits()).toHaveLength(3);
  });

  it('sets and removes a download key without ever answering it', async () => {
    const set = await patch('jotform', { downloadKey: JOTFORM_KEY });
    expect(set.statusCode).toBe(200);
    expect(ZIntegration.parse(set.json())).toMatchObject({ downloadKeySet: true, secretSource: 'default' });
    expect(set.body).not.toContain(JOTFORM_KEY);
    expect(set.body).not.toContain('zz98');
    expect(JSON.stringify((await get('/api/integrations')).json())).not.toContain('zz98');
    const credentials = await readCredentials({ db: getDatabase().db, masterKey: Buffer.from(MASTER_KEY, 'hex'), defaultSecret: DEFAULT_SECRET }, 'jotform');
    expect(credentials.downloadKey).toBe(JOTFORM_KEY);

    expect(ZIntegration.parse((await patch('jotform', { downloadKey: null })).json()).downloadKeySet).toBe(false);
    const details = (await audits()).filter((event) => event.subjectId === 'integration.jotform').map((event) => event.detail);
    expect(details).toEqual([
      { provider: 'jotform', downloadKey: 'set' },
      { provider: 'jotform', downloadKey: 'removed' },
    ]);
    expect(JSON.stringify(details)).not.toContain('zz98');
  });

  it('replaces the mapping, keeps the questions of the last delivery, and audits which fields changed', async () => {
    const { db } = getDatabase();
    await noteQuestions(db, 'typeform', [
      { key: 'q-first', label: 'First name of the player' },
      { key: 'q-last', label: 'Last name of the player' },
      { key: 'q-birth', label: 'Birth certificate upload' },
    ]);
    const saved = await patch('typeform', { mapping: { playerFirstName: 'q-first', playerLastName: 'q-last', birth_certificate: 'q-birth' } });
    expect(saved.statusCode).toBe(200);
    expect(ZIntegration.parse(saved.json())).toMatchObject({
      mapping: { playerFirstName: 'q-first', playerLastName: 'q-last', birth_certificate: 'q-birth' },
      lastQuestions: [
        { key: 'q-first', label: 'First name of the player' },
        { key: 'q-last', label: 'Last name of the player' },
        { key: 'q-birth', label: 'Birth certificate upload' },
      ],
    });
    // A question the last delivery did not have (the form was edited since) is accepted too.
    const replaced = ZIntegration.parse((await patch('typeform', { mapping: { playerFirstName: 'q-first', division: 'a-newer-question' } })).json());
    expect(replaced.mapping).toEqual({ playerFirstName: 'q-first', division: 'a-newer-question' });
    // A delivery noting its questions keeps the mapping (and a secret set meanwhile).
    expect((await patch('typeform', { secret: 'typeform-secret-long-enough-9x9x' })).statusCode).toBe(200);
    await noteQuestions(db, 'typeform', [{ key: 'q-first', label: 'First name' }]);
    expect(await listed('typeform')).toMatchObject({
      mapping: { playerFirstName: 'q-first', division: 'a-newer-question' },
      secretHint: '••••9x9x',
      lastQuestions: [{ key: 'q-first', label: 'First name' }],
    });

    const details = (await audits()).filter((event) => event.subjectId === 'integration.typeform').map((event) => event.detail);
    expect(details).toEqual([
      { provider: 'typeform', mapping: ['playerFirstName', 'playerLastName', 'birth_certificate'] },
      { provider: 'typeform', mapping: ['playerLastName', 'division', 'birth_certificate'] },
      { provider: 'typeform', secret: 'set' },
    ]);
  });

  it('refuses one question for two fields answered in words, a bad key or field, and an empty change, leaving the settings as they were', async () => {
    const before = await listed('typeform');
    const twice = await patch('typeform', { mapping: { playerFirstName: 'q-name', playerLastName: 'q-name' } });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The same question is chosen for “Player first name” and “Player last name”: choose a different question for one of them',
    });
    expect(problems(twice.json())).toEqual([
      'body.mapping.playerLastName: The same question is chosen for “Player first name” and “Player last name”: choose a different question for one of them',
    ]);

    const blank = await patch('typeform', { mapping: { division: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(problems(blank.json())).toEqual(['body.mapping.division: Choose a question for “Division”, or find it by its label']);

    const tooLong = await patch('typeform', { mapping: { division: 'x'.repeat(201) } });
    expect(tooLong.statusCode).toBe(400);
    expect(problems(tooLong.json())).toEqual([expect.stringMatching(/^body\.mapping\.division: /)]);

    const unknownField = await patch('typeform', { mapping: { shoeSize: 'q-1' } });
    expect(unknownField.statusCode).toBe(400);

    const shortSecret = await patch('typeform', { secret: 'too short' });
    expect(shortSecret.statusCode).toBe(400);
    expect(problems(shortSecret.json())).toEqual(['body.secret: The secret must be at least 16 characters']);
    expect(shortSecret.body).not.toContain('too short');

    const empty = await patch('typeform', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_FAILED' });

    expect((await patch('myspace', { secret: TALLY_SECRET })).statusCode).toBe(400);
    expect((await get('/api/integrations/myspace/deliveries')).statusCode).toBe(400);

    expect(await listed('typeform')).toEqual(before);
  });

  it('lists a provider’s last deliveries, newest first, with the player’s name and whether each can be replayed', async () => {
    const { db } = getDatabase();
    const playerId = 'CB-2025-0a1b2c3d';
    await db.insert(players).values({ id: playerId, firstName: 'Zoë', lastName: "O'Brien", birthDate: '2015-03-02' });
    const start = Date.parse('2025-04-01T10:00:00Z');
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    for (let i = 0; i < DELIVERIES_KEPT; i++) {
      await insertDelivery(db, { provider: 'tally', receivedAt: at(i), outcome: 'refused', status: 401, error: 'The signature does not match the secret.' });
    }
    const stored = await insertDelivery(db, {
      provider: 'tally',
      receivedAt: at(DELIVERIES_KEPT + 5),
      outcome: 'stored',
      status: 202,
      playerId,
      documents: 2,
      bodyKey: 'deliveries/one.bin',
      contentType: 'application/json',
    });
    const replay = await insertDelivery(db, {
      provider: 'tally',
      receivedAt: at(DELIVERIES_KEPT + 6),
      outcome: 'duplicate',
      status: 200,
      playerId,
      replayOf: stored.id,
    });
    await insertDelivery(db, { provider: 'wufoo', receivedAt: at(DELIVERIES_KEPT + 10), outcome: 'failed', status: 500, error: 'Storage was unavailable.' });

    const answer = await get('/api/integrations/tally/deliveries');
    expect(answer.statusCode).toBe(200);
    const { deliveries } = ZIntakeDeliveries.parse(answer.json());
    expect(deliveries).toHaveLength(DELIVERIES_KEPT);
    expect(deliveries.every((delivery) => delivery.provider === 'tally')).toBe(true);
    expect(deliveries[0]).toEqual({
      id: replay.id,
      provider: 'tally',
      receivedAt: at(DELIVERIES_KEPT + 6).toISOString(),
      outcome: 'duplicate',
      status: 200,
      submissionId: null,
      playerId,
      playerName: "Zoë O'Brien",
      documents: 0,
      error: null,
      replayOf: stored.id,
      replayable: false,
    });
    expect(deliveries[1]).toMatchObject({ id: stored.id, outcome: 'stored', documents: 2, playerName: "Zoë O'Brien", replayable: true });
    expect(deliveries[2]).toMatchObject({ outcome: 'refused', status: 401, playerName: null, error: 'The signature does not match the secret.', replayable: false });
    // Newest first: the oldest refused delivery is beyond the last 100.
    const times = deliveries.map((delivery) => Date.parse(delivery.receivedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times.at(-1)).toBe(at(2).getTime());
    expect(answer.body).not.toContain('deliveries/one.bin');

    expect((await listed('tally')).lastDeliveryAt).toBe(at(DELIVERIES_KEPT + 6).toISOString());
    expect((await listed('wufoo')).lastDeliveryAt).toBe(at(DELIVERIES_KEPT + 10).toISOString());
    expect((await listed('google')).lastDeliveryAt).toBeNull();
    expect(ZIntakeDeliveries.parse((await get('/api/integrations/google/deliveries')).json())).toEqual({ deliveries: [] });
  });
});
