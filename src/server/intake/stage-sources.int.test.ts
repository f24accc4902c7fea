import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../tests/support/multipart';
import { startRecordingFileServer } from '../../../tests/support/recording-file-server';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { stageSources, type StageSourcesDeps } from './stage-sources';

describe('stageSources', () => {
  let root = '';
  let storage: Storage;
  let files: Awaited<ReturnType<typeof startRecordingFileServer>>;
  let calls = 0;
  const deps = (overrides: Partial<StageSourcesDeps> = {}, call = ++calls): StageSourcesDeps => ({
    storage,
    masterKey: randomBytes(32),
    maxFileBytes: 256 * 1024,
    stagingKey: (position) => `staging/${call}-${position}`,
    filePolicy: { allowedHosts: ['127.0.0.1'], allowHttpLoopback: true, maxBytes: 256 * 1024, timeoutMs: 10_000, deadlineMs: 30_000, maxRedirects: 3 },
    ...overrides,
  });
  const staged = async () => (await readdir(path.join(root, 'staging'), { withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'clearbase-stage-sources-'));
    storage = createLocalStorage(root);
    files = await startRecordingFileServer((filePath) => (filePath.endsWith('.pdf') ? makePdf(filePath) : undefined));
  });
  afterAll(async () => {
    await files.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('sends a host its headers, and not to the host a redirect leads to', async () => {
    const headers = (url: URL): Record<string, string> => (url.hostname === 'localhost' ? { apikey: 'for-localhost-only' } : {});
    const elsewhere = `${files.addressOrigin}/moved.pdf`;
    const result = await stageSources(
      [
        { kind: 'url', url: `${files.origin}/direct.pdf`, filename: 'direct.pdf', declaredType: 'waiver', headers },
        { kind: 'url', url: `${files.origin}/redirect?to=${encodeURIComponent(elsewhere)}`, filename: 'moved.pdf', declaredType: null, headers },
        { kind: 'inline', content: makePdf('inline'), filename: 'inline.pdf', declaredType: 'medical' },
      ],
      deps(),
    );
    expect(result.map((file) => [file.kind, file.originalFilename, file.declaredType])).toEqual([
      ['staged', 'direct.pdf', 'waiver'],
      ['staged', 'moved.pdf', null],
      ['staged', 'inline.pdf', 'medical'],
    ]);
    const asked = (filePath: string) => files.requests.filter((request) => request.path === filePath).map((request) => request.headers.apikey);
    expect(asked('/direct.pdf')).toEqual(['for-localhost-only']);
    expect(asked('/redirect')).toEqual(['for-localhost-only']);
    expect(asked('/moved.pdf')).toEqual([undefined]);
    expect(await staged()).toHaveLength(3);
    await Promise.all(result.flatMap((file) => (file.kind === 'staged' ? [storage.delete(file.stagedKey)] : [])));
  });

  it('refuses a link it may not fetch with the reason, and deletes what it staged when storage fails', async () => {
    const refused = await stageSources([{ kind: 'url', url: 'https://files.elsewhere.example/x.pdf', filename: 'x.pdf', declaredType: null }], deps());
    expect(refused).toEqual([expect.objectContaining({ kind: 'refused', code: 'URL_REFUSED', message: expect.stringMatching(/not in FORM_FILE_HOSTS/) as unknown })]);

    // The second file's storage fails: the first, already staged, is deleted before the failure is passed on.
    let puts = 0;
    const failing: Storage = {
      ...storage,
      put: (key, body) => (++puts === 2 ? Promise.reject(new Error('disk full')) : storage.put(key, body)),
    };
    await expect(
      stageSources(
        [
          { kind: 'inline', content: makePdf('one'), filename: 'one.pdf', declaredType: null },
          { kind: 'inline', content: makePdf('two'), filename: 'two.pdf', declaredType: null },
        ],
        deps({ storage: failing }),
      ),
    ).rejects.toThrow('disk full');
    expect(await staged()).toEqual([]);
  });
});
