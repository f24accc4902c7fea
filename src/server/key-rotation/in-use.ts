import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * The processes, other than this one, holding a file open inside `folder`: a PGlite database keeps its files
 * open for as long as the server runs, and has no lock file that says so (its postmaster.pid names no
 * process). Read from /proc, so Linux only: undefined where there is no /proc to read. Processes of other
 * accounts are not visible to an unprivileged one; a server runs as the account that owns its data folder.
 */
export async function processesUsingFolder(folder: string): Promise<number[] | undefined> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return undefined;
  }
  const inside = path.resolve(folder) + path.sep;
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let descriptors: string[];
    try {
      descriptors = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      const target = await readlink(`/proc/${pid}/fd/${descriptor}`).catch(() => '');
      if (target.startsWith(inside)) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}
