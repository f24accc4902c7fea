import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Written by vite.config.ts at the end of every build.
const STAMP = path.join(ROOT, 'dist/web/.build-stamp');
const INPUTS = ['src/web', 'src/contract', 'vite.config.ts', 'package-lock.json'];

function newestMtime(target: string): number {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), info.mtimeMs);
}

/** True when dist/web is missing or older than any web source, so `npm start` after a pull rebuilds. */
export function webBuildIsStale(): boolean {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.map((p) => path.join(ROOT, p)).some((p) => existsSync(p) && newestMtime(p) > built);
}

export function ensureWebBuild(): void {
  if (!webBuildIsStale()) return;
  process.stdout.write('Building the web app (dist/web)…\n');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error('The web app did not build. Run `npm ci` first, then `npm run build` to see the error.');
  }
}
