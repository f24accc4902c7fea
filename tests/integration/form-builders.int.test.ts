import { randomUUID } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELIVERIES_KEPT, ZIntakeDelivery, type TFormProvider } from '../../src/contract';
import { listAuditEventsByAction } from '../../src/server/audit/audit-events.repository';
import { formstackJsonDelivery } from '../../src/server/intake/providers/formstack.fixture';
import { jotformDelivery } from '../../src/server/intake/providers/jotform.fixture';
import { tallyDelivery } from '../../src/server/intake/providers/tally.fixture';
import { typeformDelivery } from '../../src/server/intake/providers/typeform.fixture';
import { insertDelivery, listDeliveries } from '../../src/server/intake/providers/deliveries.repository';
import { readStoredIntegration, writeStoredIntegration } from '../../src/server/intake/providers/integration-settings';
import { countSubmissions, findSubmission } from '../../src/server/pipeline/submissions.repository';
import { createLogger } from '../../src/server/platform/logger';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { describeEachDatabase } from '../support/databases';
import { makePdf } from '../support/multipart';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { startRecordingFileServer } from '../support/recording-file-server';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/** FORM_WEBHOOK_SECRET: every provider's secret here, Jotform's token included. */
const SECRET = 'Form-builders-secret-4f1c9a7e2b';
const WRONG = 'Wrong-secret-of-an-impostor-77';

type Sent = { status: number; body: Record<string, unknown> };

describeEachDatabase('form builder deliveries', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let files: Awaited<ReturnType<typeof startRecordingFileServer>>;
  let base = '';
  let laterAvailable = false;
  const lines: string[] = [];
  const db = () => getDatabase().db;

  /** Over real HTTP, as the provider sends it. */
  const send = async (target: string, body: Buffer, headers: Record<string, string>): Promise<Sent> => {
    const response = await fetch(`${base}${target}`, { method: 'POST', body, headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** Each provider's documented delivery, for a response id of the test's choosing. */
  const deliveryOf = (provider: TFormProvider, id: string, options: { secret?: string; birthDateLabel?: string } = {}) => {
    const secret = options.secret ?? SECRET;
    switch (provider) {
      case 'jotform': {
        const delivery = jotformDelivery({ submissionId: id, fileOrigin: files.origin });
        return { target: `/api/intake/jotform/${encodeURIComponent(secret)}`, body: delivery.body, headers: { 'content-type': delivery.contentType } };
      }
      case 'typeform':
        return { target: '/api/intake/typeform', ...typeformDelivery({ token: id, fileOrigin: files.origin, birthDateTitle: options.birthDateLabel }, secret) };
      case 'tally':
        return { target: '/api/intake/tally', ...tallyDelivery({ responseId: id, fileOrigin: files.origin, birthDateLabel: options.birthDateLabel }, secret) };
      default:
        return { target: '/api/intake/formstack', ...formstackJsonDelivery({ uniqueId: id, fileOrigin: files.origin, handshakeKey: secret }) };
    }
  };
  const deliver = (provider: TFormProvider, id: string, options?: { secret?: string; birthDateLabel?: string }) => {
    const delivery = deliveryOf(provider, id, options);
    return send(delivery.target, delivery.body, delivery.headers);
  };
  const newest = async (provider: TFormProvider) => (await listDeliveries(db(), provider, 1))[0];
  const stagingFiles = async () =>
    (await readdir(path.join(server?.dataDir ?? '', 'storage', 'staging'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile());
  const downloads = (needle: string) => files.requests.filter((request) => request.path.includes(needle)).length;
  const replay = async (id: string) => {
    const response = await server?.app.inject({ method: 'POST', url: `/api/integrations/deliveries/${id}/replay`, headers: { cookie: server.cookie } });
    return { status: response?.statusCode, delivery: ZIntakeDelivery.parse(response?.json()) };
  };

  beforeAll(async () => {
    // Each file's bytes differ by its address, so no delivery's document is the same file as another's.
    // What is under /later/ is not there until a test puts it there.
    files = await startRecordingFileServer((filePath) => (filePath.startsWith('/later/') && !laterAvailable ? undefined : makePdf(filePath)));
    await insertSeasons(getDatabase().db, [FALL_2025]);
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-builders',
      settings: { FORM_WEBHOOK_SECRET: SECRET, FORM_FILE_ALLOW_HTTP_LOOPBACK: 'true', MAX_FILE_BYTES: String(512 * 1024) },
      log: createLogger('trace', { write: (line: string) => void lines.push(line) }),
    });
    base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await files.stop();
  });

  it.each(['jotform', 'typeform', 'tally', 'formstack'] as const)(
    'stores a documented %s delivery, its file downloaded by host name, and logs it replayable',
    async (provider) => {
      const id = `${provider}-${randomUUID()}`;
      const sent = await deliver(provider, id);
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      expect(sent.body).toMatchObject({ duplicate: false, documents: [{ status: 'processing' }] });
      const [document] = sent.body.documents as Array<{ id: string }>;
      expect(await waitForSettledDocument(db(), document?.id ?? '')).toMatchObject({ status: 'pending', docType: 'birth_certificate' });

      const submission = await findSubmission(db(), String(sent.body.submissionId));
      expect(submission).toMatchObject({ source: 'form', externalId: `${provider}:${id}`, seasonId: 'fall-2025' });
      expect(submission?.fields).toMatchObject({ lastName: 'Jemison', birthDate: '2015-10-17', guardianEmail: 'dorothy.jemison@example.org' });
      expect(files.requests.at(-1)?.host).toMatch(/^localhost:\d+$/);

      const logged = await newest(provider);
      expect(logged).toMatchObject({ outcome: 'stored', status: 202, submissionId: submission?.id, playerId: submission?.playerId, documents: 1, error: null });
      expect(logged?.bodyKey).toMatch(/^deliveries\/[0-9a-f-]{36}$/);
      expect((await readStoredIntegration(db(), provider)).lastQuestions.map((q) => q.label.toLowerCase())).toContain('birth certificate');
    },
  );

  it.each([
    ['jotform', 'token'],
    ['typeform', 'signature'],
    ['tally', 'signature'],
    ['formstack', 'handshake key'],
  ] as const)('refuses a %s delivery with a wrong %s: 401, logged refused, nothing kept', async (provider, _proof) => {
    const submissions = await countSubmissions(db());
    const requests = files.requests.length;
    const sent = await deliver(provider, `${provider}-${randomUUID()}`, { secret: WRONG });
    expect(sent.status).toBe(401);
    expect(sent.body).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/Settings → Integrations/) as unknown });
    expect(await newest(provider)).toMatchObject({ outcome: 'refused', status: 401, submissionId: null, bodyKey: null, error: sent.body.message });
    expect(await countSubmissions(db())).toBe(submissions);
    expect(files.requests.length).toBe(requests);
    expect(await stagingFiles()).toEqual([]);
  });

  it('refuses Jotform without its token, answers 404 for a token a builder does not use', async () => {
    const jotform = deliveryOf('jotform', 'no-token');
    expect((await send('/api/intake/jotform', jotform.body, jotform.headers)).status).toBe(401);
    const typeform = deliveryOf('typeform', 'with-token');
    expect((await send(`/api/intake/typeform/${SECRET}`, typeform.body, typeform.headers)).status).toBe(404);
    expect((await send('/api/intake/nowhere', Buffer.from('{}'), { 'content-type': 'application/json' })).status).toBe(400);
  });

  it('answers a resend as a duplicate, without downloading its file again', async () => {
    const id = `again-${randomUUID()}`;
    const first = await deliver('typeform', id);
    expect(first.status).toBe(202);
    const asked = downloads(id);
    expect(asked).toBe(1);
    const again = await deliver('typeform', id);
    expect(again).toMatchObject({ status: 202, body: { duplicate: true, submissionId: first.body.submissionId } });
    expect(downloads(id)).toBe(asked);
    expect(await newest('typeform')).toMatchObject({ outcome: 'duplicate', status: 202, submissionId: first.body.submissionId, documents: 0 });
  });

  it('finds a field by the saved mapping where its label is not the default', async () => {
    const stored = await readStoredIntegration(db(), 'typeform');
    await writeStoredIntegration(db(), 'typeform', { ...stored, mapping: { playerBirthDate: 'KoJxDM3c6x8h' } });
    try {
      const sent = await deliver('typeform', `mapped-${randomUUID()}`, { birthDateLabel: 'When was your child born?' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      const submission = await findSubmission(db(), String(sent.body.submissionId));
      expect(submission?.fields).toMatchObject({ birthDate: '2015-10-17' });
    } finally {
      await writeStoredIntegration(db(), 'typeform', stored);
    }
  });

  it('refuses a delivery it cannot map, keeps it, and replays it as a new delivery once the mapping is set', async () => {
    const sent = await deliver('tally', `unmapped-${randomUUID()}`, { birthDateLabel: 'Born on' });
    expect(sent.status).toBe(400);
    expect(String(sent.body.message)).toMatch(/^Invalid submission\. playerBirthDate: /);
    const refused = await newest('tally');
    expect(refused).toMatchObject({ outcome: 'refused', status: 400, error: sent.body.message });
    expect(refused?.bodyKey).not.toBeNull();
    expect(await stagingFiles()).toEqual([]);

    // Replayed as it is: refused again, logged as a replay of its own.
    const unchanged = await replay(refused?.id ?? '');
    expect(unchanged).toMatchObject({ status: 200, delivery: { outcome: 'refused', status: 400, replayOf: refused?.id, replayable: true } });

    const stored = await readStoredIntegration(db(), 'tally');
    await writeStoredIntegration(db(), 'tally', { ...stored, mapping: { playerBirthDate: 'question_nPQEW0' } });
    const fixed = await replay(refused?.id ?? '');
    expect(fixed).toMatchObject({
      status: 200,
      delivery: { provider: 'tally', outcome: 'stored', status: 202, replayOf: refused?.id, playerName: 'Mary Ann Jemison', documents: 1, error: null },
    });
    const submission = await findSubmission(db(), fixed.delivery.submissionId ?? '');
    expect(submission).toMatchObject({ seasonId: 'fall-2025', fields: { firstName: 'Mary Ann', birthDate: '2015-10-17' } });

    // A replay of the stored one is a resend: a duplicate.
    const resent = await replay(fixed.delivery.id);
    expect(resent.delivery).toMatchObject({ outcome: 'duplicate', submissionId: submission?.id, replayOf: fixed.delivery.id });
    const audits = await listAuditEventsByAction(db(), 'intake.delivery_replayed');
    expect(audits.map((a) => a.subjectId)).toEqual(expect.arrayContaining([unchanged.delivery.id, fixed.delivery.id, resent.delivery.id]));
    expect(audits.find((a) => a.subjectId === fixed.delivery.id)).toMatchObject({ actor: 'shared-password', detail: { replayOf: refused?.id, outcome: 'stored' } });
    await writeStoredIntegration(db(), 'tally', stored);
  });

  it('records afresh, on a replay, a delivery whose every file was refused, once the file can be had', async () => {
    const delivery = tallyDelivery({ responseId: `later-${randomUUID()}`, fileOrigin: `${files.origin}/later` }, SECRET);
    const sent = await send('/api/intake/tally', delivery.body, delivery.headers);
    expect(sent).toMatchObject({ status: 202, body: { duplicate: false, documents: [{ status: 'rejected', message: expect.stringMatching(/HTTP 404/) as unknown }] } });
    const failed = await findSubmission(db(), String(sent.body.submissionId));
    expect(failed).toMatchObject({ status: 'failed' });
    const logged = await newest('tally');
    expect(logged).toMatchObject({ outcome: 'stored', submissionId: failed?.id });

    // A resend by Tally is still the duplicate of what was recorded.
    expect((await send('/api/intake/tally', delivery.body, delivery.headers)).body).toMatchObject({ duplicate: true, submissionId: failed?.id });
    laterAvailable = true;
    const replayed = await replay(logged?.id ?? '');
    expect(replayed.delivery).toMatchObject({ outcome: 'stored', documents: 1, replayOf: logged?.id });
    expect(replayed.delivery.submissionId).not.toBe(failed?.id);
    expect(await findSubmission(db(), failed?.id ?? '')).toBeUndefined();
    const submission = await findSubmission(db(), replayed.delivery.submissionId ?? '');
    expect(submission).toMatchObject({ externalId: failed?.externalId });
  });

  it('does not replay a delivery whose body was not kept, nor one that does not exist', async () => {
    await deliver('formstack', `unkept-${randomUUID()}`, { secret: WRONG });
    const unverified = await newest('formstack');
    const refused = await server?.app.inject({ method: 'POST', url: `/api/integrations/deliveries/${unverified?.id}/replay`, headers: { cookie: server.cookie } });
    expect(refused?.statusCode).toBe(409);
    const missing = await server?.app.inject({ method: 'POST', url: `/api/integrations/deliveries/${randomUUID()}/replay`, headers: { cookie: server.cookie } });
    expect(missing?.statusCode).toBe(404);
  });

  it(`keeps a provider's last ${DELIVERIES_KEPT} deliveries, deleting the older rows and their kept bodies`, async () => {
    const storageDir = path.join(server?.dataDir ?? '', 'storage');
    await mkdir(path.join(storageDir, 'deliveries'), { recursive: true });
    const old: string[] = [];
    for (let i = 0; i < DELIVERIES_KEPT + 4; i++) {
      const bodyKey = i < 6 ? `deliveries/${randomUUID()}` : null;
      if (bodyKey) {
        await writeFile(path.join(storageDir, bodyKey), 'an old sealed body');
        old.push(bodyKey);
      }
      await insertDelivery(db(), { provider: 'formstack', receivedAt: new Date(Date.UTC(2024, 0, 1, 0, i)), outcome: 'refused', status: 400, error: 'old', bodyKey });
    }
    const sent = await deliver('formstack', `trim-${randomUUID()}`);
    expect(sent.status).toBe(202);
    const kept = await listDeliveries(db(), 'formstack', 1000);
    expect(kept).toHaveLength(DELIVERIES_KEPT);
    expect(kept[0]).toMatchObject({ outcome: 'stored' });
    const keptKeys = new Set(kept.map((row) => row.bodyKey));
    const onDisk = new Set(await readdir(path.join(storageDir, 'deliveries')));
    for (const key of old) expect(onDisk.has(path.basename(key)), key).toBe(keptKeys.has(key));
    expect(old.filter((key) => !keptKeys.has(key)).length).toBeGreaterThan(0);
    // Another provider's log is untouched.
    expect((await listDeliveries(db(), 'tally', 1000)).length).toBeLessThan(DELIVERIES_KEPT);
  });

  it('never writes the webhook token, a signature or a family’s details to the log, even at trace level', async () => {
    await deliver('jotform', `logs-${randomUUID()}`);
    await deliver('jotform', `logs-${randomUUID()}`, { secret: WRONG });
    const all = lines.join('');
    const completed = lines.filter((line) => line.includes('request completed') && line.includes('/api/intake/jotform/'));
    expect(completed.length).toBeGreaterThanOrEqual(2);
    for (const line of completed) expect(line).toContain('"url":"/api/intake/jotform/[redacted]"');
    expect(lines.some((line) => line.includes('form builder delivery refused'))).toBe(true);
    for (const secret of [SECRET, encodeURIComponent(SECRET), WRONG, 'dorothy.jemison@example.org', 'Jemison']) expect(all, secret).not.toContain(secret);
  });
});
