import { isIP } from 'node:net';
import { isAbsolute } from 'node:path';
import ipaddr from 'ipaddr.js';

/**
 * Which git sources may be registered, and how git is handed them (docs/docs-hosting.md "Registering a repository",
 * "Security model"). Pure: the caller (mirrors.ts) looks the host's addresses up.
 *
 * Git's URL parser (curl's) is not the WHATWG one we check with: `https://a.example\@127.0.0.1/` is host
 * `a.example` to WHATWG and `127.0.0.1` to curl. So what parsers read differently is refused outright, and git is
 * handed the URL as WHATWG re-serialises it (`href`), never the text as sent.
 */

/** A source git may fetch: a local path (where the operator allows them) as given, or an https URL. */
export type Source = { local: string } | { url: URL };

/** Why `source` cannot be a repository's source, or how git is to be handed it. */
export function parseSource(source: string, allowLocal: boolean): Source | { problem: string } {
  if (/\p{Cc}/u.test(source)) return { problem: 'Must not contain control characters' };
  if (allowLocal && (isAbsolute(source) || source.startsWith('file://'))) return { local: source };
  if (/[\s\\]/.test(source)) return { problem: 'Must not contain whitespace or backslashes' };
  if (source.includes('@')) return { problem: 'Must not contain @ (no user names or credentials: only public repositories can be registered)' };
  const url = URL.parse(source);
  if (url?.protocol !== 'https:' || !url.hostname || url.pathname.length < 2) {
    return { problem: `Must be an https:// git URL${allowLocal ? ' or a local path' : ' (local paths only where the server allows them: DOCS_LOCAL_SOURCES=on)'}` };
  }
  return { url };
}

/** A URL's host as an address or name to look up: an IPv6 literal without its brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** IPv6 ranges whose last 32 bits are an IPv4 address the packet may end up at: mapped, compatible, translated (SIIT), NAT64. */
const IPV4_IN_LAST_32_BITS = ['::ffff:0:0/96', '::/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));
/** 6to4: the IPv4 address is bits 16-48. */
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
/** The only IPv6 space assigned for global unicast; anything outside it reaches nothing public. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** The IPv4 address an IPv6 one carries (and may be delivered to), if any. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = ip.toByteArray();
  if (IPV4_IN_LAST_32_BITS.some((range) => ip.match(range))) return new ipaddr.IPv4(bytes.slice(12));
  if (ip.match(SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/**
 * Whether `address` is on the public internet: not loopback, private, link-local, shared, multicast, reserved or
 * documentation space (ipaddr.js's ranges, from IANA's special-purpose registries). An IPv6 address carrying an
 * IPv4 one is judged by that IPv4 address (`::ffff:127.0.0.1` is loopback, `::ffff:8.8.8.8` public).
 */
export function isPublicAddress(address: string): boolean {
  // Only the forms DNS answers with and curl takes: ipaddr.js would also read `1.2.3` or `0x7f.1` as IPv4.
  if (!isIP(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() === 'unicast';
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

/** Why a host with `addresses` may not be fetched from, or undefined: it must have some, all public. */
export function addressProblem(host: string, addresses: readonly string[]): string | undefined {
  if (addresses.length === 0) return `The host ${host} cannot be resolved`;
  if (!addresses.every(isPublicAddress)) return `The host ${host} is not a public address`;
  return undefined;
}

/**
 * git's `http.curloptResolve` entry (`host:port:address[,address]`, IPv6 addresses in brackets) pinning a host name
 * to the addresses just checked, so curl cannot resolve it again (no DNS rebinding in between). None for an IP
 * literal: curl looks nothing up for it, and the entry has no room for an IPv6 host (its host ends at the first `:`).
 */
export function pinnedResolve(url: URL, addresses: readonly string[]): string | undefined {
  if (isIP(hostOf(url))) return undefined;
  return `${url.hostname}:${url.port || 443}:${addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',')}`;
}
