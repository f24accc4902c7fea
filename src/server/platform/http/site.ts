import { hostname as osHostname, networkInterfaces } from 'node:os';

/**
 * Which names and origins are this installation's own.
 *
 * The Host check defeats DNS rebinding: a page on an attacker's domain that re-points its name at this
 * server still sends its own name as Host, which is not ours. The Origin check defeats cross-site
 * requests and cross-site WebSocket hijacking: a browser always says which page a request comes from.
 */
export type SiteGuard = {
  /** Whether `hostname` (no port, IPv6 with or without brackets) is a name this server answers to. */
  isOwnHost(hostname: string): boolean;
  /**
   * Whether an Origin header names this site. `requestHost` is the request's Host (name and port), already
   * known to be one of ours: without a public address, a page of ours is served from that very host.
   */
  isOwnOrigin(origin: string, requestHost: string): boolean;
};

export type SiteOptions = {
  /** CLEARBASE_PUBLIC_URL: the address staff use; undefined means the listening address. */
  publicUrl: URL | undefined;
  /** The address the server listens on (HOST). */
  listenHost: string;
  /** The machine's own names, for a server listening on every interface. */
  machineNames?: () => string[];
};

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();

/** Host names and addresses of this machine's interfaces: what a colleague on the same network may type. */
export function machineNames(): string[] {
  const addresses = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => entry.address);
  return [osHostname(), ...addresses];
}

export function createSiteGuard(options: SiteOptions): SiteGuard {
  const names = new Set(LOOPBACK_NAMES);
  if (options.publicUrl) names.add(bare(options.publicUrl.hostname));
  else if (WILDCARD_HOSTS.has(options.listenHost)) for (const name of (options.machineNames ?? machineNames)()) names.add(bare(name));
  else names.add(bare(options.listenHost));

  const isOwnHost = (hostname: string) => names.has(bare(hostname));
  const isLoopback = (hostname: string) => LOOPBACK_NAMES.includes(bare(hostname));

  return {
    isOwnHost,
    isOwnOrigin(origin, requestHost) {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false; // includes the literal 'null' of sandboxed frames and file pages
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      if (options.publicUrl && url.origin === options.publicUrl.origin) return true;
      // Without a public address, the page came from the host this request reached; with one, only someone
      // on the server itself (a loopback name) uses another address.
      const sameHost = url.host.toLowerCase() === requestHost.toLowerCase();
      return sameHost && isOwnHost(url.hostname) && (!options.publicUrl || isLoopback(url.hostname));
    },
  };
}
