import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * An archive written into `folder` (made, its owner's alone, if missing) as `name`: first as
 * `<name>.partial`, fsynced, then renamed, so the folder never holds a short archive under a backup's name;
 * a failed write removes its partial file. `fill` writes the archive and ends the stream.
 */
export async function writeArchiveFile(
  folder: string,
  name: string,
  fill: (out: Writable) => Promise<void>,
  onStart?: (file: string) => void,
): Promise<{ file: string; bytes: number }> {
  await makeFolder(folder);
  const file = path.join(folder, name);
  const partial = `${file}.partial`;
  onStart?.(file);
  const out = createWriteStream(partial, { mode: 0o600, flags: 'wx' });
  try {
    await fill(out);
    await finished(out);
    const handle = await open(partial, 'r');
    await handle.sync().finally(() => handle.close());
    await rename(partial, file);
    return { file, bytes: (await stat(file)).size };
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Makes `folder` and any folder above it that is missing (each its owner's alone), one level at a time:
 * Node's own recursive mkdir never returns for a path under /proc, which a person may well type.
 */
export async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { mode: 0o700 });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (!(await stat(folder)).isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
      return;
    }
    const parent = path.dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    await makeFolder(parent);
  }
  try {
    await mkdir(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
