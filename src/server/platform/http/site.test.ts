import { describe, expect, it } from 'vitest';
import { createSiteGuard } from './site';

describe('site guard without a public address', () => {
  const guard = createSiteGuard({ publicUrl: undefined, listenHost: 'localhost' });

  it('answers to the loopback names and the listening host only', () => {
    for (const name of ['localhost', 'LOCALHOST', '127.0.0.1', '::1', '[::1]', 'localhost.']) expect(guard.isOwnHost(name), name).toBe(true);
    for (const name of ['evil.example', 'localhost.evil.example', '127.0.0.2', '']) expect(guard.isOwnHost(name), name).toBe(false);
  });

  it('takes an origin of the very host the request reached', () => {
    expect(guard.isOwnOrigin('http://localhost:5000', 'localhost:5000')).toBe(true);
    expect(guard.isOwnOrigin('http://127.0.0.1:5055', '127.0.0.1:5055')).toBe(true);
  });

  it('refuses other ports, other names, null and non-web schemes', () => {
    expect(guard.isOwnOrigin('http://localhost:3000', 'localhost:5000')).toBe(false);
    expect(guard.isOwnOrigin('https://evil.example', 'localhost:5000')).toBe(false);
    expect(guard.isOwnOrigin('http://evil.example:5000', 'evil.example:5000')).toBe(false);
    expect(guard.isOwnOrigin('null', 'localhost:5000')).toBe(false);
    expect(guard.isOwnOrigin('file://localhost:5000', 'localhost:5000')).toBe(false);
    expect(guard.isOwnOrigin('not a url', 'localhost:5000')).toBe(false);
  });
});

describe('site guard listening on every interface', () => {
  const guard = createSiteGuard({ publicUrl: undefined, listenHost: '0.0.0.0', machineNames: () => ['clubhouse-pc', '192.168.1.20', 'fe80::1'] });

  it("answers to the machine's names and addresses", () => {
    for (const name of ['clubhouse-pc', '192.168.1.20', '[fe80::1]', 'localhost']) expect(guard.isOwnHost(name), name).toBe(true);
    expect(guard.isOwnHost('evil.example')).toBe(false);
    expect(guard.isOwnHost('0.0.0.0')).toBe(false);
  });
});

describe('site guard with a public address', () => {
  const guard = createSiteGuard({ publicUrl: new URL('https://docs.myleague.org'), listenHost: '0.0.0.0', machineNames: () => ['internal-name'] });

  it('answers to the public name and loopback, not to every interface', () => {
    expect(guard.isOwnHost('docs.myleague.org')).toBe(true);
    expect(guard.isOwnHost('localhost')).toBe(true);
    expect(guard.isOwnHost('internal-name')).toBe(false);
  });

  it('takes the public origin exactly, and a loopback origin from the server itself', () => {
    expect(guard.isOwnOrigin('https://docs.myleague.org', 'docs.myleague.org')).toBe(true);
    expect(guard.isOwnOrigin('http://docs.myleague.org', 'docs.myleague.org')).toBe(false);
    expect(guard.isOwnOrigin('https://docs.myleague.org:8443', 'docs.myleague.org:8443')).toBe(false);
    expect(guard.isOwnOrigin('https://sub.docs.myleague.org', 'docs.myleague.org')).toBe(false);
    expect(guard.isOwnOrigin('http://localhost:5000', 'localhost:5000')).toBe(true);
  });
});
