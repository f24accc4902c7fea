import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZIntakeDelivery } from '../../src/contract';
import { cognitoEntry, cognitoRequest } from '../../src/server/intake/providers/cognito.fixture';
import { listDeliveries } from '../../src/server/intake/providers/deliveries.repository';
import { googleDelivery, googleRequest } from '../../src/server/intake/providers/google.fixture';
import { gravityEntry, gravityRequest } from '../../src/server/intake/providers/gravity.fixture';
import { readStoredIntegration } from '../../src/server/intake/providers/integration-settings';
import type { ProviderRequest } from '../../src/server/intake/providers/provider';
import { wufooFields, wufooRequest } from '../../src/server/intake/providers/wufoo.fixture';
import { countSubmissions, findSubmission } from '../../src/server/pipeline/submissions.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { describeEachDatabase } from '../support/databases';
import { makePdf } from '../support/multipart';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { startRecordingFileServer } from '../support/recording-file-server';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * Google Forms, Cognito Forms, Gravity Forms and Wufoo, each delivery in its builder's documented shape (the
 * adapters' fixtures), over real HTTP to `POST /api/intake/{provider}[/{token}]` and on to stored documents:
 * their files downloaded from a local server named `localhost` (standing in for cognitoforms.com, wufoo.com
 * or the league's WordPress site), Google Forms' carried in the delivery by the Apps Script.
 */

/** FORM_WEBHOOK_SECRET: every provider's secret here, the tokens in the addresses included. */
const SECRET = 'Form-builders-secret-8d2e61b0c4';
const WRONG = 'Wrong-secret-of-an-impostor-77';

type Sent = { status: number; body: Record<string, unknown> };
type Provider = 'google' | 'cognito' | 'gravity' | 'wufoo';

const PLAYER = { first: 'Katherine', last: 'Johnson', birthDate: '2015-08-26' };

describeEachDatabase('form builder deliveries: Google Forms, Cognito Forms, Gravity Forms, Wufoo', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let files: Awaited<ReturnType<typeof startRecordingFileServer>>;
  let base = '';
  const db = () => getDatabase().db;

  /** Over real HTTP, as the provider sends it. */
  const send = async (target: string, request: ProviderRequest): Promise<Sent> => {
    const headers: Record<string, string> = { 'content-type': request.contentType };
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
    const response = await fetch(`${base}${target}`, { method: 'POST', body: request.rawBody, headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** Each provider's documented delivery of the same registration, for a response id of the test's choosing. */
  const deliveryOf = (provider: Provider, id: string, secret = SECRET): { target: string; request: ProviderRequest } => {
    const link = (name: string) => `${files.origin}/${provider}/${id}/${name}`;
    switch (provider) {
      case 'google':
        return {
          target: '/api/intake/google',
          request: googleRequest(
            googleDelivery({
              responseId: id,
              player: { firstName: PLAYER.first, lastName: PLAYER.last, birthDate: PLAYER.birthDate },
              birthCertificate: [{ filename: 'birth.pdf', mimeType: 'application/pdf', content: makePdf(`google ${id} birth`) }],
              residency: [{ filename: 'bill.pdf', mimeType: 'application/pdf', content: makePdf(`google ${id} bill`) }],
            }),
            secret,
          ),
        };
      case 'cognito': {
        const entry = cognitoEntry({
          player: PLAYER,
          birthCertificate: [{ name: 'birth.pdf', contentType: 'application/pdf', url: link('birth.pdf') }],
          residency: [{ name: 'bill.pdf', contentType: 'application/pdf', url: link('bill.pdf') }],
        });
        return { target: `/api/intake/cognito/${encodeURIComponent(secret)}`, request: cognitoRequest({ ...entry, Id: id }, secret) };
      }
      case 'gravity':
        return {
          target: `/api/intake/gravity/${encodeURIComponent(secret)}`,
          request: gravityRequest(gravityEntry({ entryId: id, player: PLAYER, birthCertificate: link('birth.pdf'), residency: [link('bill.pdf')] }), secret),
        };
      case 'wufoo':
        return {
          target: '/api/intake/wufoo',
          request: wufooRequest(wufooFields({ entryId: id, handshakeKey: secret, player: PLAYER, birthCertificate: { name: 'birth.pdf', url: link('birth.pdf') } })),
        };
    }
  };
  const deliver = (provider: Provider, id: string, secret?: string) => {
    const delivery = deliveryOf(provider, id, secret);
    return send(delivery.target, delivery.request);
  };
  const newest = async (provider: Provider) => (await listDeliveries(db(), provider, 1))[0];
  const downloads = (needle: string) => files.requests.filter((request) => request.path.includes(needle)).length;
  /** The answer's documents once the pipeline is done with them, as type → status. */
  const storedDocuments = async (sent: Sent): Promise<Record<string, string>> => {
    const documents = await Promise.all((sent.body.documents as Array<{ id: string }>).map((d) => waitForSettledDocument(db(), d.id)));
    return Object.fromEntries(documents.map((d): [string, string] => [String(d.docType), d.status]));
  };
  const asStaff = (method: 'PATCH' | 'POST', url: string, payload?: object) => server?.app.inject({ method, url, payload, headers: { cookie: server.cookie } });

  beforeAll(async () => {
    // Each file's bytes differ by its address, so no delivery's document is the same file as another's.
    files = await startRecordingFileServer((filePath) => makePdf(filePath));
    await insertSeasons(getDatabase().db, [FALL_2025]);
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-builders-b',
      settings: { FORM_WEBHOOK_SECRET: SECRET, FORM_FILE_ALLOW_HTTP_LOOPBACK: 'true', MAX_FILE_BYTES: String(512 * 1024) },
    });
    base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await files.stop();
  });

  it.each([
    ['google', { birth_certificate: 'pending', residency: 'pending' }, 'Player first name'],
    ['cognito', { birth_certificate: 'pending', residency: 'pending' }, 'Player first name'],
    ['wufoo', { birth_certificate: 'pending' }, 'Player first name'],
  ] as const)('stores a documented %s delivery, found by its labels, and logs it replayable', async (provider, documents, label) => {
    const id = `${provider}-${randomUUID()}`;
    const sent = await deliver(provider, id);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body).toMatchObject({ duplicate: false });
    expect(await storedDocuments(sent)).toEqual(documents);
    // Google Forms' files come in the delivery; the others' are downloaded by host name.
    expect(downloads(id)).toBe(provider === 'google' ? 0 : Object.keys(documents).length);

    const submission = await findSubmission(db(), String(sent.body.submissionId));
    const externalId = provider === 'wufoo' ? `wufoo:z1x2c3v4b5n6m7-${id}` : `${provider}:${id}`;
    expect(submission).toMatchObject({ source: 'form', externalId, seasonId: 'fall-2025' });
    expect(submission?.fields).toMatchObject({ firstName: 'Katherine', lastName: 'Johnson', birthDate: '2015-08-26', guardianEmail: 'ada.parent@example.org' });

    expect(await newest(provider)).toMatchObject({ outcome: 'stored', status: 202, submissionId: submission?.id, error: null, bodyKey: expect.stringMatching(/^deliveries\//) as unknown });
    expect((await readStoredIntegration(db(), provider)).lastQuestions.map((q) => q.label)).toContain(label);
  });

  it.each(['google', 'cognito', 'gravity', 'wufoo'] as const)('refuses a %s delivery with the wrong proof: 401, logged refused, nothing kept', async (provider) => {
    const submissions = await countSubmissions(db());
    const requests = files.requests.length;
    const sent = await deliver(provider, `${provider}-${randomUUID()}`, WRONG);
    expect(sent.status).toBe(401);
    expect(sent.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await newest(provider)).toMatchObject({ outcome: 'refused', status: 401, submissionId: null, bodyKey: null });
    expect(await countSubmissions(db())).toBe(submissions);
    expect(files.requests.length).toBe(requests);
  });

  it('answers the Apps Script\'s resend of a response as a duplicate', async () => {
    const id = `google-again-${randomUUID()}`;
    const first = await deliver('google', id);
    expect(first.status).toBe(202);
    const again = await deliver('google', id);
    expect(again).toMatchObject({ status: 202, body: { duplicate: true, submissionId: first.body.submissionId } });
    expect(await newest('google')).toMatchObject({ outcome: 'duplicate', submissionId: first.body.submissionId, documents: 0 });
  });

  it('refuses Gravity Forms\' field ids until they are mapped in Settings → Integrations, then stores the replayed delivery', async () => {
    const id = `${randomUUID()}`;
    const sent = await deliver('gravity', id);
    expect(sent.status).toBe(400);
    expect(String(sent.body.message)).toMatch(/^Invalid submission\./);
    const refused = await newest('gravity');
    expect(refused).toMatchObject({ outcome: 'refused', status: 400 });
    expect(downloads(id)).toBe(0);
    // The screen offers the delivery's questions, keyed (and labelled) by field id.
    expect((await readStoredIntegration(db(), 'gravity')).lastQuestions.map((q) => q.key)).toEqual(expect.arrayContaining(['1.3', '1.6', '2', '3', '4', '5', '7', '8']));

    const mapping = { playerFirstName: '1.3', playerLastName: '1.6', playerBirthDate: '2', division: '3', season: '4', guardianEmail: '5', birth_certificate: '7', residency: '8' };
    expect((await asStaff('PATCH', '/api/integrations/gravity', { mapping }))?.statusCode).toBe(200);
    const replayed = await asStaff('POST', `/api/integrations/deliveries/${refused?.id}/replay`);
    expect(replayed?.statusCode).toBe(200);
    const delivery = ZIntakeDelivery.parse(replayed?.json());
    expect(delivery).toMatchObject({ provider: 'gravity', outcome: 'stored', status: 202, replayOf: refused?.id, playerName: 'Katherine Johnson', documents: 2 });
    expect(downloads(id)).toBe(2);
    const submission = await findSubmission(db(), delivery.submissionId ?? '');
    expect(submission).toMatchObject({ externalId: `gravity:${id}`, fields: { firstName: 'Katherine', lastName: 'Johnson', birthDate: '2015-08-26' } });

    // The next entry is stored as it arrives.
    const next = await deliver('gravity', `${randomUUID()}`);
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    expect(await storedDocuments(next)).toEqual({ birth_certificate: 'pending', residency: 'pending' });
  });
});
