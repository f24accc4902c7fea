import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it, type TestContext } from 'vitest';
import { ZHealth } from '../../src/contract';
import { loadConfig } from '../../src/server/platform/config';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf } from '../support/multipart';
import { FALL_2025 } from '../support/pipeline';
import { IN_CI } from '../support/test-env';

const run = promisify(execFile);
const PASSWORD = 'storage failure answers password';
const SECRET = 'storage failure webhook secret';

/**
 * Makes every write under `dir` fail, even for root (these tests run as root, whom chmod does not stop):
 * the immutable attribute refuses new names in a folder to everyone. Undone before the folder is removed.
 */
async function freezeFolder(dir: string): Promise<boolean> {
  try {
    await run('chattr', ['-R', '+i', dir]);
    return true;
  } catch (error) {
    if (IN_CI) throw error;
    process.stderr.write(`\n!!! chattr +i is not available here (${String(error)}): the read-only storage tests are SKIPPED.\n\n`);
    return false;
  }
}
const thawFolder = (dir: string) => run('chattr', ['-R', '-i', dir]).catch(() => undefined);

/** Text that belongs in a log, never in an answer: an absolute path on this machine, an errno code, a stack frame. */
function expectNothingInternal(text: string, dataDir: string): void {
  expect(text).not.toContain(dataDir);
  expect(text).not.toMatch(/(?:^|[\s'"(:=])\/(?:tmp|proc|root|home|var|srv|work|usr|run|data)\b/);
  expect(text).not.toMatch(/\b(?:EROFS|EACCES|EPERM|ENOENT|ENOTDIR|ENOSPC)\b/);
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
}

describeEachDatabase('answers when storage refuses writes', ({ getDatabase }) => {
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let frozen = false;
  const logLines: string[] = [];
  let cookie = '';
  const app = (context: TestContext) => {
    if (!frozen) context.skip('storage could not be made read-only here');
    if (!clearbase) throw new Error('not started');
    return clearbase.app;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-storage-ro-'));
    const storageDir = path.join(dataDir, 'storage');
    await mkdir(storageDir, { recursive: true });
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
    });
    await insertSeasons(getDatabase().db, [FALL_2025]);
    clearbase = await createClearbase(config, createLogger('info', { write: (line: string) => void logLines.push(line) }), {
      readDocuments: false,
      database: getDatabase(),
      webDir: path.join(dataDir, 'none'),
      // The folder is frozen after the start's own probe passed: health must probe again to see it.
      storageProbeFreshMs: 0,
    });
    const login = await clearbase.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
    // Frozen once the server is up, as a disk remounted read-only under a running server would be.
    frozen = await freezeFolder(storageDir);
  });
  afterAll(async () => {
    await thawFolder(dataDir);
    await clearbase?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('health says storage cannot save files in plain words; the path and the error code are in the log only', async (context) => {
    const response = await app(context).inject({ method: 'GET', url: '/api/health', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const health = ZHealth.parse(response.json());
    expect(health.services.s3).toEqual({ status: 'error', message: 'Files cannot be saved to or read from storage. The details are in the server log.' });
    // No service names where this server keeps its files, failing or not.
    expectNothingInternal(response.body, dataDir);
    const logged = logLines.filter((line) => line.includes('health check failed') && line.includes('"service":"s3"'));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('')).toMatch(/EPERM/);
    expect(logged.join('')).toContain(dataDir);
  });

  it('answers a webhook upload with a plain 503, and the pipeline test with a plain 500 and a reference', async (context) => {
    const upload = await injectSignedForm(
      app(context),
      [
        { name: 'submissionId', value: 'read-only-1' },
        { name: 'season', value: 'fall-2025' },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: 'Ada' },
        { name: 'playerLastName', value: 'Lovelace' },
        { name: 'playerBirthDate', value: '2015-12-10' },
        { name: 'birth_certificate', filename: 'birth.pdf', content: makePdf('birth', 2_000), contentType: 'application/pdf' },
      ],
      SECRET,
    );
    expect(upload.statusCode).toBe(503);
    expect(upload.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Storage is not accepting files right now. Send the form again later.' });
    expectNothingInternal(upload.body, dataDir);

    const test = await app(context).inject({ method: 'POST', url: '/api/admin/test', headers: { cookie } });
    expect(test.statusCode).toBe(500);
    expect(test.json()).toMatchObject({ code: 'INTERNAL' });
    expectNothingInternal(test.body, dataDir);

    // What went wrong, with the path, is in the log beside the request id the client was given.
    const failures = logLines.filter((line) => line.includes('request failed'));
    expect(failures.some((line) => line.includes(upload.json<{ requestId: string }>().requestId) && line.includes('EPERM'))).toBe(true);
  });
});
