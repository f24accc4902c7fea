import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnvironment } from '../child-environment';

/**
 * PGlite's PostgreSQL runs in this process's memory, so its buffer pool is the server's resident set:
 * initdb sizes it at 128 MB, all of it touched as soon as it starts. 32 MB holds the demo's database and a
 * league's working set; what does not fit is read again from the operating system's file cache. Given on
 * the command line as well as to initdb, it holds for databases created with the old size too.
 */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=32MB'];

const ENTRY = fileURLToPath(new URL('./pglite-create-process.mjs', import.meta.url));
const creating = new Map<string, Promise<void>>();

/**
 * Starts creating the embedded database in `dir` when there is none there yet: initdb, several seconds of
 * WebAssembly, runs in a process of its own, so `npm start` loads the server's code meanwhile, and the few
 * hundred MB initdb takes (a second PostgreSQL and copies of its memory) go back to the system when it
 * ends (in a thread, about 120 MB of it stayed in the server's allocator for good). It creates the database
 * in a sibling folder and renames it into place once it is complete, so a failed or interrupted creation
 * leaves no half database. `openDatabase` waits for it (createdPglite).
 */
export function startCreatingPglite(dir: string): void {
  if (creating.has(dir) || existsSync(path.join(dir, 'PG_VERSION'))) return;
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  // One name, not one per process: only one process opens an embedded database, and a creation killed
  // half-way (SIGKILL, power) is cleared by the next start instead of staying beside the database.
  const temporary = `${dir}.creating`;
  const created = (async () => {
    await rm(temporary, { recursive: true, force: true });
    try {
      await new Promise<void>((resolve, reject) => {
        // execArgv []: not the parent's loader flags (tsx), see pglite-create-process.mjs.
        const child = fork(ENTRY, [temporary, JSON.stringify(PGLITE_SETTINGS)], {
          execArgv: [],
          env: childEnvironment(),
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        });
        child.once('error', reject);
        child.once('exit', (code, signal) =>
          code === 0 ? resolve() : reject(new Error(`the database creation process exited with ${signal ?? `code ${code}`}`)),
        );
      });
      await rename(temporary, dir);
    } catch (error) {
      await rm(temporary, { recursive: true, force: true });
      throw error;
    }
  })();
  // Whoever opens the database waits for it and learns how it went.
  created.catch(() => undefined);
  creating.set(dir, created);
}

/**
 * Waits for the creation started for `dir`, if any. A failed one is not an error here: the folder is as it
 * was, and PGlite creates the database itself (and fails the start with its own error when it cannot).
 */
export async function createdPglite(dir: string): Promise<void> {
  const pending = creating.get(dir);
  if (!pending) return;
  await pending.catch(() => undefined);
  creating.delete(dir);
}
