import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startClamd, type StartedClamd } from '../../scripts/services/start-clamd';
import { ZDocumentList } from '../../src/contract';
import { onePagePdf } from '../../src/server/files/one-page-pdf';
import { childServerEnv, freePort, signIn, startChildServer, type ChildServer } from '../support/child-server';
import { buildMultipart } from '../support/multipart';

/**
 * A Clearbase of its own for the failed-scan spec and screenshots (the shared e2e server has no clamd): demo
 * data, the address of a real clamd that is not started until the caller asks, and the retry timings of
 * scan-failed-server.ts. The caller sends documents, sees them wait for a failed scan, and may start clamd at
 * that address.
 */
export type ScanFailedServer = {
  url: string;
  password: string;
  /** Sends one registration form with these PDFs (field: a document type) and answers the new documents' ids. */
  submit(player: { firstName: string; lastName: string }, files: Array<{ docType: string; fileName: string }>): Promise<string[]>;
  /** Waits until every document named is shown as waiting for a failed scan. */
  waitForScanFailed(search: string, count: number): Promise<void>;
  /** Starts clamd again where the server expects it. */
  restartClamd(): Promise<void>;
  /** Stops clamd (again). */
  stopClamd(): Promise<void>;
  stop(): Promise<void>;
};

const PASSWORD = 'e2e-scan-failed-password';
const SECRET = 'e2e-scan-failed-webhook-secret';

export async function startScanFailedServer(): Promise<ScanFailedServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cb-e2e-scan-failed-'));
  // In this server's own folder: started (and stopped, and started again) there, clamd is found where it was.
  // Until then nothing listens on that path, and a scan fails as clamd being unavailable.
  const clamdSocket = path.join(dataDir, 'clamd.sock');
  const clamdUrl = `unix:${clamdSocket}`;
  let clamd: StartedClamd | undefined;

  const started: ChildServer[] = [];
  const env = childServerEnv({
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_DEMO: 'true',
    CLEARBASE_LOGIN_RATE_LIMIT: '1000',
    FORM_WEBHOOK_SECRET: SECRET,
    CLAMD_URL: clamdUrl,
    LOG_LEVEL: 'warn',
  });
  // The first start seeds the demo data: on a busy machine that takes a while.
  const server = await startChildServer(env, started, { entry: 'tests/e2e/scan-failed-server.ts', healthyWithinMs: 120_000 });
  const cookie = await signIn(server.url, PASSWORD);

  return {
    url: server.url,
    password: PASSWORD,
    async submit(player, files) {
      const { body, contentType } = buildMultipart([
        { name: 'submissionId', value: `e2e-scan-failed-${randomUUID()}` },
        { name: 'season', value: '2025' },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: player.firstName },
        { name: 'playerLastName', value: player.lastName },
        { name: 'playerBirthDate', value: '2014-05-17' },
        ...files.map((file) => ({ name: file.docType, filename: file.fileName, content: onePagePdf(`${player.lastName} ${file.fileName}`) })),
      ]);
      const response = await fetch(`${server.url}/api/intake/form`, {
        method: 'POST',
        body: new Uint8Array(body),
        headers: { 'content-type': contentType, 'x-clearbase-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` },
      });
      if (response.status !== 202) throw new Error(`the form webhook answered ${response.status}: ${await response.text()}`);
      const answer = (await response.json()) as { documents: Array<{ id: string }> };
      return answer.documents.map((document) => document.id);
    },
    async waitForScanFailed(search, count) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const response = await fetch(`${server.url}/api/documents?search=${encodeURIComponent(search)}&status=scan_failed`, { headers: { cookie } });
        if (ZDocumentList.parse(await response.json()).total === count) return;
        if (Date.now() > deadline) throw new Error(`${count} documents of ${search} were not shown as waiting for a failed scan`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async restartClamd() {
      clamd = await startClamd({ socketPath: clamdSocket });
    },
    async stopClamd() {
      await clamd?.stop();
      clamd = undefined;
    },
    async stop() {
      await Promise.all(started.map((child) => child.kill()));
      await clamd?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
