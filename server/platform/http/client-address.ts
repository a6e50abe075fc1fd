import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * The address a request comes from, for everything counted per client (rate limits, readers' builds, chat limits):
 * the socket's peer, or, when that peer is a proxy the operator trusts (TRUST_PROXY), the address it says it forwards
 * for: the right-most address of `X-Forwarded-For` that is not a trusted proxy itself (proxy-addr, as Express reads
 * it). Behind a proxy nobody configured, every client would be the proxy, one budget for all; an untrusted peer's
 * `X-Forwarded-For` is ignored, or any client could name itself anyone.
 */

/** Which peers are trusted proxies: addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`. */
export type TrustedProxies = readonly string[];

/** Checks a TRUST_PROXY list as proxy-addr reads it; throws a TypeError naming what it cannot read. */
export function compileTrust(proxies: TrustedProxies): (address: string, hop: number) => boolean {
  return proxyaddr.compile([...proxies]);
}

const addresses = new WeakMap<IncomingMessage, string>();

/** Works out and remembers the client's address of `req` (once, where the request enters the server). */
export function rememberClientAddress(req: IncomingMessage, trust: ((address: string, hop: number) => boolean) | undefined): void {
  if (addresses.has(req)) return;
  // proxy-addr reads the peer from `req.connection`, which Node keeps as an alias of `req.socket`.
  addresses.set(req, trust ? proxyaddr(req, trust) : (req.socket.remoteAddress ?? 'unknown'));
}

/** The client's address of `req` (rememberClientAddress), else its socket's peer. */
export function clientAddress(req: IncomingMessage): string {
  return addresses.get(req) ?? req.socket.remoteAddress ?? 'unknown';
}
