import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TApiError, TCreateSeason } from '../../src/contract';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import { receiveMail } from '../../src/server/intake/mailbox/mailbox-intake';
import { countSubmissions, findSubmission } from '../../src/server/pipeline/submissions.repository';
import { findRegistration } from '../../src/server/players/registrations.repository';
import { describeEachDatabase } from '../support/databases';
import { buildMail } from '../support/mail';
import { injectSignedForm, makePdf, type Part } from '../support/multipart';
import { waitForSettledDocument } from '../support/pipeline';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'seasons-intake-webhook-secret';

const FALL_2026: TCreateSeason = {
  name: 'Fall Ball 2026',
  kind: 'Fall Ball',
  year: 2026,
  startsOn: '2026-08-15',
  endsOn: '2026-11-30',
  registrationDeadline: '2026-09-15',
  divisions: ['AAA', 'AA'],
};

const form = (submissionId: string, division: string, firstName = 'Mae'): Part[] => [
  { name: 'submissionId', value: submissionId },
  { name: 'season', value: '2026' },
  { name: 'division', value: division },
  { name: 'playerFirstName', value: firstName },
  { name: 'playerLastName', value: 'Jemison' },
  { name: 'playerBirthDate', value: '2015-10-17' },
  { name: 'guardianEmail', value: 'family@example.org' },
  { name: 'waiver', filename: `waiver-${submissionId}.pdf`, content: makePdf(`waiver ${submissionId}`) },
];

/**
 * A new installation (CLEARBASE_DEMO=false, no season): the form is refused until a season is created from the
 * API, then stored; a closed season and a division the season does not offer are refused with the sentence the
 * family's form shows, and nothing is kept of them.
 */
describeEachDatabase('seasons and the intake on a new installation', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const submit = (parts: Part[]) => injectSignedForm(started().app, parts, SECRET);
  const patch = (payload: object) =>
    started().app.inject({ method: 'PATCH', url: '/api/seasons/fall-2026', headers: { cookie: started().cookie }, payload });
  const staged = async () => {
    const entries = await readdir(path.join(started().dataDir, 'storage', 'staging'), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).length;
  };

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-seasons-intake', settings: { FORM_WEBHOOK_SECRET: SECRET } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a submission while no season exists, then stores one once a season is created from the API', async () => {
    const early = await submit(form('first-run-0', 'AA'));
    expect(early.statusCode).toBe(400);
    expect(early.json<TApiError>().message).toBe('Unknown season "2026"');

    const created = await started().app.inject({ method: 'POST', url: '/api/seasons', headers: { cookie: started().cookie }, payload: FALL_2026 });
    expect(created.statusCode).toBe(201);

    const response = await submit(form('first-run-1', 'AA'));
    expect(response.statusCode).toBe(202);
    const body = response.json<{ submissionId: string; documents: Array<{ id: string }> }>();
    const document = await waitForSettledDocument(getDatabase().db, body.documents[0]?.id ?? '');
    expect(document).toMatchObject({ status: 'pending', docType: 'waiver', seasonId: 'fall-2026' });
    expect(await findSubmission(getDatabase().db, body.submissionId)).toMatchObject({ seasonId: 'fall-2026', status: 'processed' });
    expect(await findRegistration(getDatabase().db, document.playerId, 'fall-2026')).toMatchObject({ division: 'AA' });
  });

  it('refuses a division the season does not offer, naming those it does, and keeps nothing of it', async () => {
    const before = await countSubmissions(getDatabase().db);
    const response = await submit(form('first-run-2', 'A', 'June'));
    expect(response.statusCode).toBe(400);
    expect(response.json<TApiError>()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The Fall Ball 2026 season has no A division. Choose one of AAA and AA.',
      details: [{ path: 'division', message: 'The Fall Ball 2026 season has no A division. Choose one of AAA and AA.' }],
    });
    expect(await countSubmissions(getDatabase().db)).toBe(before);
    expect(await staged()).toBe(0);
  });

  it('refuses every new submission while the season is closed, still answers a replay, and takes them again once reopened', async () => {
    expect((await patch({ closed: true })).statusCode).toBe(200);
    const before = await countSubmissions(getDatabase().db);

    const refused = await submit(form('first-run-3', 'AA', 'Ruth'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json<TApiError>()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The Fall Ball 2026 season is closed to new registrations.',
      details: [{ path: 'season', message: 'The Fall Ball 2026 season is closed to new registrations.' }],
    });
    expect(await countSubmissions(getDatabase().db)).toBe(before);
    expect(await staged()).toBe(0);

    // The same submission sent again by the form provider is the one already received, not a new registration.
    const replay = await submit(form('first-run-1', 'AA'));
    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toMatchObject({ duplicate: true });

    expect((await patch({ closed: false })).statusCode).toBe(200);
    const reopened = await submit(form('first-run-3', 'AA', 'Ruth'));
    expect(reopened.statusCode).toBe(202);
    expect(await countSubmissions(getDatabase().db)).toBe(before + 1);
  });

  it('records an e-mail into a closed season as failed with what staff can do, instead of leaving it to be read again', async () => {
    expect((await patch({ closed: true })).statusCode).toBe(200);
    const storage = createLocalStorage(path.join(started().dataDir, 'mail-storage'));
    const raw = await buildMail({
      from: 'Family <family@example.org>',
      to: 'registrations@example.org',
      subject: 'Registration',
      text: ['Player: Ada Jemison', 'DOB: 2015-10-17', 'Division: AA', 'Season: 2026'].join('\n'),
      attachments: [{ filename: 'waiver.pdf', content: makePdf('mailed waiver') }],
    });
    const result = await receiveMail(
      { db: getDatabase().db, storage, masterKey: randomBytes(32), idPrefix: 'CB', maxFileBytes: 1_000_000, onRecorded: () => undefined },
      Readable.from([raw]),
      { receivedAt: new Date() },
    );
    expect(result.created).toBe(true);
    expect(await findSubmission(getDatabase().db, result.submissionId)).toMatchObject({
      source: 'mailbox',
      status: 'failed',
      seasonId: null,
      errorMessage: 'The Fall Ball 2026 season is closed to new registrations. Tell the family, or reopen it in Settings → Seasons, then retry this e-mail',
    });
    expect((await patch({ closed: false })).statusCode).toBe(200);
  });
});
