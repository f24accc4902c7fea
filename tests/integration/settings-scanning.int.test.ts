import { afterAll, beforeAll, expect, it } from 'vitest';
import { startClamd, type StartedClamd } from '../../scripts/services/start-clamd';
import { SCANNING_OFF_MESSAGE, ZHealth, ZInstallation } from '../../src/contract';
import { EICAR_TEST_STRING } from '../../src/server/adapters/antivirus/fake-antivirus';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf, type Part } from '../support/multipart';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'form-webhook-secret-for-tests';

/** Antivirus scanning switched in System Settings, with a real clamd configured all along. */
describeEachDatabase('virus scanning switched off in Settings', ({ getDatabase }) => {
  let clamd: StartedClamd | undefined;
  let server: SignedInClearbase | undefined;
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const call = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
    started().app.inject({ method, url, headers: { cookie: started().cookie }, ...(payload ? { payload } : {}) });
  const antivirusHealth = async () => ZHealth.parse((await call('GET', '/api/health')).json()).services.antivirus;
  const infectedForm = (submissionId: string): Part[] => [
    { name: 'submissionId', value: submissionId },
    { name: 'season', value: 'fall-2025' },
    { name: 'division', value: 'A' },
    { name: 'playerFirstName', value: 'Ada' },
    { name: 'playerLastName', value: 'Lovelace' },
    { name: 'playerBirthDate', value: '2015-12-10' },
    { name: 'medical', filename: 'medical.pdf', content: Buffer.concat([makePdf(`medical ${submissionId}`, 1_000), Buffer.from(EICAR_TEST_STRING)]) },
  ];
  const submit = async (submissionId: string) => {
    const response = await injectSignedForm(started().app, infectedForm(submissionId), SECRET);
    expect(response.statusCode).toBe(202);
    const [document] = response.json<{ documents: Array<{ id: string }> }>().documents;
    return waitForSettledDocument(getDatabase().db, document?.id ?? '');
  };

  beforeAll(async () => {
    // Required here: CI installs clamd, and a machine without it fails loudly instead of skipping.
    clamd = await startClamd();
    await insertSeasons(getDatabase().db, [FALL_2025]);
    server = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-scan-switch',
      settings: { FORM_WEBHOOK_SECRET: SECRET, CLAMD_URL: clamd.url },
    });
  });
  afterAll(async () => {
    await server?.close();
    await clamd?.stop();
  });

  it('stores a file without a scan while scanning is off, and health shows antivirus as a warning', async () => {
    expect(await antivirusHealth()).toMatchObject({ status: 'ok', message: expect.stringMatching(/^ClamAV /) as string });

    expect((await call('PATCH', '/api/settings', { antivirusScanning: false })).statusCode).toBe(200);
    expect(await antivirusHealth()).toEqual({ status: 'warning', message: SCANNING_OFF_MESSAGE });
    expect(ZInstallation.parse((await call('GET', '/api/settings/installation')).json()).antivirus).toEqual({
      scanningOn: false,
      clamdConfigured: true,
      clamdLocation: clamd?.url,
    });

    // The EICAR test signature would be rejected by clamd: stored, it proves no scan ran.
    const unscanned = await submit('scan-off-1');
    expect(unscanned.status).toBe('pending');
    expect(unscanned.storageKey).toContain('_medical_');
    const stored = (await listAuditEvents(getDatabase().db, 'document', unscanned.id)).find((event) => event.action === 'document.stored');
    expect(stored?.detail).toMatchObject({ scanned: false });
  });

  it('scans again, and rejects the infected file, once scanning is back on', async () => {
    expect((await call('PATCH', '/api/settings', { antivirusScanning: true })).statusCode).toBe(200);
    expect((await antivirusHealth()).status).toBe('ok');

    const scanned = await submit('scan-on-1');
    expect(scanned.status).toBe('rejected');
    expect(scanned.reviewNotes).toMatch(/^Virus found: Eicar-Test-Signature/);
    expect(scanned.storageKey).toBeNull();
  });
});
