import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startClamd, type StartedClamd } from '../../scripts/services/start-clamd';
import { EICAR_TEST_STRING } from '../../src/server/adapters/antivirus/fake-antivirus';
import { loadConfig } from '../../src/server/platform/config';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';
import { injectSignedForm, makePdf } from '../support/multipart';

const SECRET = 'form-webhook-secret-for-tests';

/** The pipeline with a real clamd: infected files are rejected with the signature, nothing is stored. */
describeEachDatabase('form webhook with virus scanning', ({ getDatabase }) => {
  let clamd: StartedClamd | undefined;
  let clearbase: Clearbase | undefined;
  let dataDir = '';

  beforeAll(async () => {
    // Required here: CI installs clamd, and a machine without it fails loudly instead of skipping.
    clamd = await startClamd();
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-scan-'));
    await insertSeasons(getDatabase().db, [FALL_2025]);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: 'scanning test password',
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      CLAMD_URL: clamd.url,
    });
    clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none') });
  });
  afterAll(async () => {
    await clearbase?.close().catch(() => undefined);
    await clamd?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const settle = (id: string) => waitForSettledDocument(getDatabase().db, id);

  it('rejects a PDF carrying EICAR at an offset with the signature, stores nothing, and audits it; a clean one is stored', async () => {
    const infected = Buffer.concat([makePdf('medical', 100_000), Buffer.from(EICAR_TEST_STRING)]);
    if (!clearbase) throw new Error('not started');
    const response = await injectSignedForm(clearbase.app, [
      { name: 'submissionId', value: 'virus-1' },
      { name: 'season', value: 'fall-2025' },
      { name: 'division', value: 'A' },
      { name: 'playerFirstName', value: 'Ada' },
      { name: 'playerLastName', value: 'Lovelace' },
      { name: 'playerBirthDate', value: '2015-12-10' },
      { name: 'medical', filename: 'medical.pdf', content: infected },
      { name: 'waiver', filename: 'waiver.pdf', content: makePdf('clean waiver') },
    ], SECRET);
    expect(response?.statusCode).toBe(202);
    const [medicalRef, waiverRef] = response?.json<{ documents: Array<{ id: string }> }>().documents ?? [];

    const medical = await settle(medicalRef?.id ?? '');
    expect(medical.status).toBe('rejected');
    expect(medical.reviewNotes).toMatch(/^Virus found: Eicar-Test-Signature/);
    expect(medical.storageKey).toBeNull();
    expect((await listAuditEvents(getDatabase().db, 'document', medical.id)).map((a) => a.action)).toContain('document.rejected_virus');

    const waiver = await settle(waiverRef?.id ?? '');
    expect(waiver.status).toBe('pending');

    const files = await readdir(path.join(dataDir, 'storage'), { recursive: true, withFileTypes: true });
    const stored = files.filter((f) => f.isFile()).map((f) => path.join(f.parentPath, f.name));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toContain('_waiver_');
  });

  it('reports clamd in health with its version', async () => {
    const login = await clearbase?.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'scanning test password' } });
    const cookie = [login?.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
    const health = await clearbase?.app.inject({ method: 'GET', url: '/api/health', headers: { cookie } });
    expect(health?.json<{ services: { antivirus: { status: string; message: string } } }>().services.antivirus).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(/^ClamAV \d+\.\d+/) as string,
    });
  });
});
