import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';

/** Rules for downloading a file the registration form points at, before anything else is done with it. */
export type FilePolicy = {
  /** Host names the form provider serves files from (FORM_FILE_HOSTS); nothing else is fetched. */
  allowedHosts: readonly string[];
  /** Domains a form builder serves its files from: each allows itself and its subdomains (`jotform.com`, `www.jotform.com`). */
  allowedDomains?: readonly string[];
  /** Tests only: plain http to a loopback address, and `localhost` by name. */
  allowHttpLoopback: boolean;
  maxBytes: number;
  /** Idle time allowed while connecting and while the body flows. */
  timeoutMs: number;
  /**
   * The whole download, redirects included, must end within this: a body that keeps trickling just fast
   * enough to beat the idle timeout is cut off too (and a request can never outlast the staging sweep's grace).
   */
  deadlineMs: number;
  maxRedirects: number;
};

/** The URL may not be fetched or gave no usable file; the file is refused, retrying will not help. */
export class FileUrlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileUrlRefusedError';
  }
}

/**
 * Addresses a server-side fetch must never reach: loopback, private networks, link-local (incl. the
 * 169.254.169.254 cloud metadata service), carrier-grade NAT, benchmarking, multicast and reserved space.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

type Resolved = { address: string; family: 4 | 6 };

/** IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries. */
function normalise(resolved: Resolved): Resolved {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(resolved.address);
  return mapped?.[1] ? { address: mapped[1], family: 4 } : resolved;
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const r = normalise({ address, family: family === 4 ? 4 : 6 });
  return FORBIDDEN.check(r.address, r.family === 4 ? 'ipv4' : 'ipv6');
}

const isLoopback = (r: Resolved) => LOOPBACK.check(r.address, r.family === 4 ? 'ipv4' : 'ipv6');

async function resolveHost(host: string): Promise<Resolved[]> {
  const literal = isIP(host);
  if (literal) return [{ address: host, family: literal === 4 ? 4 : 6 }];
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 4 ? 4 : 6 }));
  } catch {
    throw new FileUrlRefusedError(`The file host ${host} could not be found.`);
  }
}

/** Checks one hop and returns the addresses to connect to, every one of them checked (pinned: see pinnedLookup). */
async function vetUrl(url: URL, policy: FilePolicy): Promise<Resolved[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (url.username || url.password) throw new FileUrlRefusedError('File URLs may not carry credentials.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttpLoopback)) {
    throw new FileUrlRefusedError(`File URLs must use https (got ${url.protocol.replace(':', '')}).`);
  }
  if (!isAllowedHost(host, policy)) {
    throw new FileUrlRefusedError(`The file host ${host} is not in FORM_FILE_HOSTS.`);
  }
  const addresses = (await resolveHost(host)).map(normalise);
  for (const resolved of addresses) {
    const loopbackForTests = policy.allowHttpLoopback && isLoopback(resolved);
    if (isForbiddenAddress(resolved.address) && !loopbackForTests) {
      throw new FileUrlRefusedError(`The file host ${host} resolves to ${resolved.address}, a private or reserved address.`);
    }
  }
  if (url.protocol === 'http:' && !addresses.every(isLoopback)) {
    throw new FileUrlRefusedError('Plain http is allowed only to loopback in tests; use https.');
  }
  if (addresses.length === 0) throw new FileUrlRefusedError(`The file host ${host} has no address.`);
  return addresses;
}

function isAllowedHost(host: string, policy: FilePolicy): boolean {
  if (policy.allowedHosts.includes(host)) return true;
  if (policy.allowHttpLoopback && host === 'localhost') return true;
  return (policy.allowedDomains ?? []).some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * The DNS lookup a connection makes, answered from the addresses already vetted, so a second DNS answer
 * cannot differ from the one checked. Node asks for every address (`all: true`) when it connects with
 * `autoSelectFamily` (the default since Node 20: it tries IPv6 and IPv4 in turn) and for one otherwise;
 * both shapes of answer are given, so host names work on every supported Node version, dual-stack included.
 */
export function pinnedLookup(addresses: readonly Resolved[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, addresses.map(({ address, family }) => ({ address, family })));
      return;
    }
    const [first] = addresses;
    if (first) callback(null, first.address, first.family);
    else callback(new FileUrlRefusedError('The file host has no address.'), '');
  };
}

function request(url: URL, pinned: readonly Resolved[], timeoutMs: number, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      headers: { ...headers, 'user-agent': 'Clearbase/1 (registration documents)', accept: 'application/pdf,image/*;q=0.9,*/*;q=0.1' },
      lookup: pinnedLookup(pinned),
      timeout: timeoutMs,
    });
    req.on('timeout', () => req.destroy(new FileUrlRefusedError(`The file URL did not answer within ${Math.round(timeoutMs / 1000)} s.`)));
    req.on('error', (error) =>
      reject(error instanceof FileUrlRefusedError ? error : new FileUrlRefusedError(`The file could not be downloaded: ${error.message}`)),
    );
    req.on('response', resolve);
    req.end();
  });
}

/**
 * Opens a file URL under the policy, following at most `maxRedirects` redirects, each checked again.
 * Resolves to the body stream of a 2xx answer; its size is capped by whoever reads it (stageFile).
 * `headers` gives the headers for each address fetched, redirects included, so a credential the file's host
 * wants (a form builder's API key) goes to that host only and never follows a redirect elsewhere.
 */
export async function openFileUrl(
  raw: string,
  policy: FilePolicy,
  options: { headers?: (url: URL) => Record<string, string> } = {},
): Promise<Readable> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FileUrlRefusedError('The file URL is not a valid URL.');
  }
  const deadline = Date.now() + policy.deadlineMs;
  const tooSlow = () => new FileUrlRefusedError(`The file download did not finish within ${Math.round(policy.deadlineMs / 1000)} s.`);
  for (let hop = 0; hop <= policy.maxRedirects; hop++) {
    if (Date.now() >= deadline) throw tooSlow();
    const pinned = await vetUrl(url, policy);
    const response = await request(url, pinned, policy.timeoutMs, options.headers?.(url) ?? {});
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FileUrlRefusedError(`The file URL answered HTTP ${status}.`);
    }
    const declaredLength = Number(response.headers['content-length'] ?? NaN);
    if (Number.isFinite(declaredLength) && declaredLength > policy.maxBytes) {
      response.destroy();
      throw new FileUrlRefusedError(`The file is ${(declaredLength / 1_048_576).toFixed(1)} MB; the limit is ${Math.floor(policy.maxBytes / 1_048_576)} MB.`);
    }
    // A body that stalls mid-way is cut off rather than holding a worker forever.
    response.setTimeout(policy.timeoutMs, () =>
      response.destroy(new FileUrlRefusedError(`The file download stalled for ${Math.round(policy.timeoutMs / 1000)} s.`)),
    );
    const cutOff = setTimeout(() => response.destroy(tooSlow()), Math.max(0, deadline - Date.now()));
    cutOff.unref();
    response.once('close', () => clearTimeout(cutOff));
    return response;
  }
  throw new FileUrlRefusedError(`The file URL redirected more than ${policy.maxRedirects} times.`);
}
