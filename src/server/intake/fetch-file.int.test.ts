import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileServer } from '../../../tests/support/file-server';
import { makePdf } from '../../../tests/support/multipart';
import { FileUrlRefusedError, isForbiddenAddress, openFileUrl, pinnedLookup, type FilePolicy } from './fetch-file';

const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('file URL guards', () => {
  const pdf = makePdf('hosted by the form provider');
  let server: Awaited<ReturnType<typeof startFileServer>>;
  let policy: FilePolicy;
  beforeAll(async () => {
    server = await startFileServer({ '/a.pdf': pdf });
    policy = { allowedHosts: ['127.0.0.1', '10.0.0.1', '169.254.169.254'], allowHttpLoopback: true, maxBytes: 1_000_000, timeoutMs: 500, deadlineMs: 1_500, maxRedirects: 3 };
  });
  afterAll(() => server.stop());

  const refusal = (url: string, p: FilePolicy = policy) =>
    openFileUrl(url, p).then(
      () => 'opened',
      (error: unknown) => (error instanceof FileUrlRefusedError ? error.message : `unexpected: ${String(error)}`),
    );

  it('downloads an allowed file, and follows a redirect it re-checks', async () => {
    expect((await readAll(await openFileUrl(`${server.origin}/a.pdf`, policy))).equals(pdf)).toBe(true);
    const redirected = await openFileUrl(`${server.origin}/redirect?to=${encodeURIComponent('/a.pdf')}`, policy);
    expect((await readAll(redirected)).equals(pdf)).toBe(true);
  });

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', /169\.254\.169\.254, a private or reserved address/],
    ['a private range', 'https://10.0.0.1/x.pdf', /10\.0\.0\.1, a private or reserved address/],
    ['a host outside FORM_FILE_HOSTS', 'https://files.evil.example/x.pdf', /not in FORM_FILE_HOSTS/],
    ['credentials in the URL', 'https://user:pw@127.0.0.1/x.pdf', /credentials/],
    ['another scheme', 'file:///etc/passwd', /must use https/],
    ['nonsense', 'not a url', /not a valid URL/],
  ])('refuses %s without connecting', async (_name, url, message) => {
    expect(await refusal(url)).toMatch(message);
  });

  it('refuses a redirect to the metadata address or a private range', async () => {
    expect(await refusal(`${server.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`)).toMatch(/private or reserved/);
    expect(await refusal(`${server.origin}/redirect?to=${encodeURIComponent('http://10.0.0.1/x.pdf')}`)).toMatch(/private or reserved/);
  });

  it('refuses loopback and plain http when the test setting is off', async () => {
    const strict = { ...policy, allowHttpLoopback: false };
    expect(await refusal(`${server.origin}/a.pdf`, strict)).toMatch(/must use https/);
    expect(await refusal('https://127.0.0.1/a.pdf', strict)).toMatch(/127\.0\.0\.1, a private or reserved address/);
  });

  it('gives up on endless redirects, missing files and a stalled download', async () => {
    expect(await refusal(`${server.origin}/loop`)).toMatch(/redirected more than 3 times/);
    expect(await refusal(`${server.origin}/missing.pdf`)).toMatch(/HTTP 404/);
    const stalled = await openFileUrl(`${server.origin}/stall`, policy);
    await expect(readAll(stalled)).rejects.toThrow(/stalled/);
  });

  it('cuts off a download that trickles past the deadline though it is never idle', async () => {
    // The idle limit far above the trickle's 50 ms, so a busy machine's pause cannot pass for a stall.
    const trickle = { ...policy, timeoutMs: 1_500, deadlineMs: 2_000 };
    const started = Date.now();
    const trickling = await openFileUrl(`${server.origin}/trickle`, trickle);
    await expect(readAll(trickling)).rejects.toThrow('The file download did not finish within 2 s.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('downloads by host name: localhost is allowed by name when loopback is, and still judged by its addresses', async () => {
    const byName = `${server.origin.replace('127.0.0.1', 'localhost')}/a.pdf`;
    expect(byName).toMatch(/^http:\/\/localhost:\d+\/a\.pdf$/);
    expect((await readAll(await openFileUrl(byName, policy))).equals(pdf)).toBe(true);
    // Listed by name but loopback not allowed: the name resolves to a loopback address, which is refused.
    const strict = { ...policy, allowedHosts: ['localhost'], allowHttpLoopback: false };
    expect(await refusal(byName.replace('http:', 'https:'), strict)).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a private or reserved address/);
    expect(await refusal(byName, { ...policy, allowHttpLoopback: false, allowedHosts: [] })).toMatch(/must use https/);
  });

  it("allows a form builder's domain and its subdomains, and nothing that merely ends with its name", async () => {
    const withDomain = { ...policy, allowedHosts: [], allowedDomains: ['jotform.com'] };
    // Allowed by name, then refused for where it points (no network here): the host check passed.
    expect(await refusal('https://files.jotform.com/x.pdf', withDomain)).not.toMatch(/not in FORM_FILE_HOSTS/);
    expect(await refusal('https://jotform.com/x.pdf', withDomain)).not.toMatch(/not in FORM_FILE_HOSTS/);
    expect(await refusal('https://evil-jotform.com/x.pdf', withDomain)).toMatch(/not in FORM_FILE_HOSTS/);
    expect(await refusal('https://jotform.com.evil.example/x.pdf', withDomain)).toMatch(/not in FORM_FILE_HOSTS/);
  });

  it('answers both shapes of DNS lookup a connection asks for, and a dual-stack connection falls back to the address that answers', async () => {
    const lookup = pinnedLookup([
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const all = await new Promise<unknown>((resolve, reject) => lookup('files.example', { all: true }, (error, address) => (error ? reject(error) : resolve(address))));
    expect(all).toEqual([
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const one = await new Promise<unknown>((resolve, reject) =>
      lookup('files.example', {}, (error, address, family) => (error ? reject(error) : resolve({ address, family }))),
    );
    expect(one).toEqual({ address: '::1', family: 6 });
    // The server listens on IPv4 only: with autoSelectFamily the connection tries ::1, then 127.0.0.1.
    const port = Number(new URL(server.origin).port);
    let attempted: string[] = [];
    const body = await new Promise<Buffer>((resolve, reject) => {
      const createConnection = () => {
        const socket = net.connect({ host: 'files.example', port, lookup, autoSelectFamily: true });
        socket.once('connect', () => (attempted = socket.autoSelectFamilyAttemptedAddresses));
        return socket;
      };
      const req = http.get({ host: 'files.example', port, path: '/a.pdf', createConnection }, (response) => {
        readAll(response).then(resolve, reject);
      });
      req.on('error', reject);
    });
    expect(attempted).toEqual([`::1:${port}`, `127.0.0.1:${port}`]);
    expect(body.equals(pdf)).toBe(true);
  });

  it('classifies addresses, including IPv4 carried in IPv6', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '0.0.0.0']) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });
});
