import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/server/platform/config';
import type { Database } from '../../src/server/platform/db/client';
import { createLogger, type Logger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';

export type SignedInClearbase = {
  clearbase: Clearbase;
  app: FastifyInstance;
  /** `cb_session=…`, for the `cookie` header. */
  cookie: string;
  dataDir: string;
  close(): Promise<void>;
};

/**
 * A Clearbase in this process on the test's database (no web app, no demo data), signed in with the shared
 * password: what an API test needs before its first call. `settings` adds to or overrides the environment.
 */
export async function startSignedInClearbase(options: {
  database: Database;
  prefix: string;
  settings?: Record<string, string>;
  startWorkers?: boolean;
  /** Read stored documents (OCR): only for tests about reading, so the others leave the cores to what they test. */
  readDocuments?: boolean;
  /** A built web app to serve; none by default. */
  webDir?: string;
  /** Where the server logs; silent by default (a test that proves what is never logged captures it). */
  log?: Logger;
  /** How many matches the Documents list and notification History count exactly before they estimate (the server's default otherwise). */
  listCountCap?: number;
  /** age's scrypt work factor of the nightly backup (the server's default otherwise). */
  backupWorkFactor?: number;
}): Promise<SignedInClearbase> {
  const password = `${options.prefix} test password`;
  const dataDir = await mkdtemp(path.join(tmpdir(), `${options.prefix}-`));
  let clearbase: Clearbase | undefined;
  try {
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: password,
      CLEARBASE_DEMO: 'false',
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
      ...options.settings,
    });
    clearbase = await createClearbase(config, options.log ?? createLogger('silent'), {
      database: options.database,
      webDir: options.webDir ?? path.join(dataDir, 'none'),
      startWorkers: options.startWorkers,
      readDocuments: options.readDocuments ?? false,
      listCountCap: options.listCountCap,
      backupWorkFactor: options.backupWorkFactor,
    });
    const login = await clearbase.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password } });
    const cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
    if (!cookie.startsWith('cb_session=')) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
    const started = clearbase;
    return {
      clearbase: started,
      app: started.app,
      cookie,
      dataDir,
      async close() {
        await started.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await clearbase?.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
