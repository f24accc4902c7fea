import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { unzip } from '../../../../tests/support/zip';
import { zipStream, type ZipEntry } from './zip-stream';

const collect = async (source: AsyncIterable<Buffer>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
};

const at = new Date('2026-03-14T15:09:26Z');
const entry = (name: string, body: () => Readable | Buffer | string, level?: number): ZipEntry => ({ name, modifiedAt: at, open: () => Promise.resolve(body()), ...(level === undefined ? {} : { level }) });

describe('zipStream', () => {
  it('writes entries that read back byte for byte, with UTF-8 names and their time', async () => {
    const random = randomBytes(300_000);
    const archive = await collect(
      zipStream([
        entry('records.json', () => JSON.stringify({ a: 1 })),
        entry('documents/Fall Ball 2025 – Birth certificate.pdf', () => Readable.from([random.subarray(0, 100_000), random.subarray(100_000)]), 1),
        entry('empty.txt', () => Buffer.alloc(0)),
      ]),
    );
    const entries = unzip(archive);
    expect(entries.map((e) => e.name)).toEqual(['records.json', 'documents/Fall Ball 2025 – Birth certificate.pdf', 'empty.txt']);
    expect(entries[0]?.bytes.toString()).toBe('{"a":1}');
    expect(entries[1]?.bytes.equals(random)).toBe(true);
    expect(entries[2]?.bytes.length).toBe(0);
    expect(entries[0]?.modifiedAt.toISOString()).toBe('2026-03-14T15:09:26.000Z');
  });

  it('is accepted by Info-ZIP unzip, which checks every CRC', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cb-zip-'));
    try {
      const file = path.join(folder, 'a.zip');
      await writeFile(file, await collect(zipStream([entry('a.txt', () => 'hello '.repeat(1000)), entry('b/c.bin', () => randomBytes(70_000), 1)])));
      const { stdout } = await promisify(execFile)('unzip', ['-t', file]);
      expect(stdout).toContain('No errors detected');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('opens an entry only when its turn comes, one after another', async () => {
    const opened: string[] = [];
    const archive = zipStream(
      (function* () {
        for (const name of ['one', 'two']) yield { name, modifiedAt: at, open: () => (opened.push(name), Promise.resolve(Buffer.from(name))) };
      })(),
    );
    await archive.next();
    expect(opened).not.toContain('two');
    const rest: Buffer[] = [];
    for (let next = await archive.next(); !next.done; next = await archive.next()) rest.push(next.value);
    expect(opened).toEqual(['one', 'two']);
    await archive.return(undefined);
  });

  it("ends with the source's error when an entry's source fails", async () => {
    const failing = new Readable({ read() { this.destroy(new Error('storage went away')); } });
    await expect(collect(zipStream([entry('x', () => failing)]))).rejects.toThrow('storage went away');
  });

  it('refuses two entries of one name', async () => {
    await expect(collect(zipStream([entry('x', () => 'a'), entry('x', () => 'b')]))).rejects.toThrow('same name');
  });
});
