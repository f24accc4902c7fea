import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/platform/config';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';

const HOUR = 3_600_000;

/**
 * The half-written files a killed process leaves in local storage (its `.…tmp` files, renamed into place only
 * when a write completes) are removed when Clearbase starts, once older than the staging grace period (an hour);
 * a younger one may be a write still going on somewhere and stays.
 */
describeEachDatabase('abandoned writes swept at start', ({ getDatabase }) => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-abandoned-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('removes stale temporary files anywhere in storage and keeps fresh ones and every object', async () => {
    const storage = path.join(dataDir, 'storage');
    const folder = path.join(storage, 'seasons/2025/AA/ada_lovelace_2015-12-10_CB-2025-0a1b2c3d');
    await mkdir(folder, { recursive: true });
    await mkdir(path.join(storage, 'staging'), { recursive: true });
    // A process that has exited: its pid names no live writer.
    const killed = spawnSync(process.execPath, ['-e', '']).pid;
    const files = {
      object: path.join(folder, 'ada_lovelace_waiver.pdf'),
      stale: path.join(folder, `.ada_lovelace_medical.pdf.${killed}-0123456789ab.tmp`),
      staleOlderVersion: path.join(folder, '.ada_lovelace_residency.pdf.0123456789ab.tmp'),
      staleStaging: path.join(storage, 'staging', `.1f0e2d3c-0000-4000-8000-000000000001-0.${killed}-ba9876543210.tmp`),
      fresh: path.join(folder, `.ada_lovelace_birth_certificate.pdf.${killed}-00112233aabb.tmp`),
    };
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    for (const [name, file] of Object.entries(files)) {
      await writeFile(file, `contents of ${name}`);
      if (name !== 'fresh') await utimes(file, twoHoursAgo, twoHoursAgo);
    }

    const config = loadConfig({ CLEARBASE_DATA_DIR: dataDir, CLEARBASE_PASSWORD: 'abandoned writes password', CLEARBASE_DEMO: 'false' });
    const clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none') });
    // Closing waits for the sweep the start began.
    await clearbase.close();

    expect((await readdir(folder)).sort()).toEqual([path.basename(files.fresh), path.basename(files.object)].sort());
    expect(await readdir(path.join(storage, 'staging'))).toEqual([]);
    await rm(storage, { recursive: true, force: true });
  });
});
