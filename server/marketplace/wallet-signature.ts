import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import bs58 from 'bs58';
import { LRUCache } from 'lru-cache';
import { canonicalUrl } from '../../client-sdk/signed-url.ts';

export { canonicalUrl };

/**
 * Wallet signature verification (docs/marketplace.md "Authentication"): pure and framework-free, so the
 * tRPC middleware, the REST facade and the WebSocket upgrade all share it. Replay protection needs
 * shared state (a database table) and lives with the caller, not here.
 */

export type SignatureFailure = 'missing' | 'malformed' | 'expired' | 'wrong' | 'wrong_host' | 'body_mismatch';

/** The only error `verify` throws for client input; `reason` becomes `details.reason` of INVALID_SIGNATURE. */
export class WalletSignatureError extends Error {
  override readonly name = 'WalletSignatureError';
  readonly reason: SignatureFailure;

  constructor(reason: SignatureFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface SignedRequest {
  method: string;
  /**
   * The request target as received (path + query, e.g. `/api/orders?status=PAID`), never a rewritten one: a signature
   * of it or of its canonical form (`canonicalUrl`) verifies.
   */
  url: string;
  /** Node's `req.headers` (lower-case names) or any similar record. */
  headers: Record<string, string | string[] | undefined>;
  /** The request's Host header: this deployment's host in a v2 message unless PUBLIC_BASE_URL names it. */
  host?: string | undefined;
  /** The body's bytes exactly as received (none: an empty body); a v2 message signs their SHA-256. */
  body?: Uint8Array | undefined;
}

export interface WalletVerifierOptions {
  /**
   * PUBLIC_BASE_URL; when set, `${publicBaseUrl}${url}` is accepted as the signed URL of a v1 message too, and its
   * host is the only one a v2 message may name.
   */
  publicBaseUrl?: string;
  now?: () => number;
  /** Oldest accepted timestamp, in ms before now. Default 5 minutes. */
  maxAgeMs?: number;
  /** Accepted clock skew into the future, in ms. Default 30 seconds. */
  maxAheadMs?: number;
}

export interface VerifiedSignature {
  /** The base58 address from X-Wallet-Address. */
  wallet: string;
  /** X-Timestamp, Unix ms. */
  timestamp: number;
  /** The message that verified (path form or absolute form). */
  message: string;
}

export const WALLET_HEADERS = {
  wallet: 'x-wallet-address',
  signature: 'x-signature',
  timestamp: 'x-timestamp',
  /** Optional: sending it makes the signed message v2 (the host and this digest of the body signed too). */
  bodyDigest: 'x-body-sha256',
} as const;

/** X-Body-SHA256 of a request without a body: the SHA-256 of no bytes. */
export const EMPTY_BODY_SHA256 = createHash('sha256').digest('hex');

/**
 * The two messages a wallet may sign (docs/marketplace.md "Signed requests"). v1 binds the method, the URL and the
 * time only, so a captured unused signature carries any body to any deployment that shares the paths; v2 also binds
 * the deployment's host and the body's SHA-256. A v1 message starts with an upper-case method, so none reads as v2.
 */
export const signedMessage = {
  v1: (method: string, url: string, timestamp: string) => `${method}:${url}:${timestamp}`,
  v2: (method: string, host: string, url: string, timestamp: string, bodySha256: string) =>
    `v2:${method}:${host}${url}:${timestamp}:${bodySha256}`,
};

/** The URLs a request may have signed: as received, and its canonical form when that differs. */
const signableUrls = (url: string) => {
  const canonical = canonicalUrl(url);
  return canonical === url ? [url] : [url, canonical];
};

/** A timestamp at most 5 minutes old and at most 30 s ahead (docs/marketplace.md "Clock window and single use"). */
export const SIGNATURE_WINDOW = { maxAgeMs: 300_000, maxAheadMs: 30_000 } as const;

/**
 * The query parameters that stand for the signature headers in a URL that carries its own proof (`/ws`: browsers
 * cannot give a WebSocket headers). `wallet` stands for X-Wallet-Address and stays in the signed URL.
 */
const QUERY_PROOF = new Map([
  ['timestamp', WALLET_HEADERS.timestamp],
  ['signature', WALLET_HEADERS.signature],
  ['body_sha256', WALLET_HEADERS.bodyDigest],
]);

/**
 * A request target with its proof in the query (`/ws?wallet=A&since=5&timestamp=T&signature=S`) as the request the
 * wallet signed: its URL is the target as sent without the `timestamp`, `signature` and `body_sha256` parameters, so
 * every other parameter (`since` too) is signed, whatever their order. Repeated proof parameters stay repeated
 * (refused as malformed).
 */
export function proofFromQuery(target: string): Pick<SignedRequest, 'url' | 'headers'> {
  const at = target.indexOf('?');
  if (at < 0) return { url: target, headers: {} };
  const headers: Record<string, string[]> = {};
  const signed: string[] = [];
  for (const pair of target.slice(at + 1).split('&')) {
    // Decoded as the server's query parsing decodes it, so `%74imestamp` is the timestamp here too.
    const [name, value] = [...new URLSearchParams(pair)][0] ?? ['', ''];
    const proofHeader = QUERY_PROOF.get(name) ?? (name === 'wallet' ? WALLET_HEADERS.wallet : undefined);
    if (proofHeader) (headers[proofHeader] ??= []).push(value);
    if (!QUERY_PROOF.has(name)) signed.push(pair);
  }
  const once = Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
  return { url: signed.length ? `${target.slice(0, at)}?${signed.join('&')}` : target.slice(0, at), headers: once };
}

// Base58 of n bytes is at most ceil(n * log(256) / log(58)) characters. Checking the length before
// decoding keeps a huge header from costing quadratic base58 work.
const MAX_ADDRESS_CHARS = 44;
const MAX_SIGNATURE_CHARS = 88;
// Unix ms fits in 16 digits until the year 2286; safe integers have at most 16 digits.
export const TIMESTAMP_PATTERN = /^[0-9]{1,16}$/;
// Lower case only: the header's text is signed, so one digest must have one spelling.
export const BODY_DIGEST_PATTERN = /^[0-9a-f]{64}$/;

// DER SubjectPublicKeyInfo header for an Ed25519 key; followed by the raw 32-byte key.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

// Importing a key costs roughly half a verification again (scripts/bench/signatures.ts), and
// wallets repeat: cache KeyObjects by address.
// A hit also proves the address decoded to 32 bytes before, so it skips base58 decoding.
const keyCache = new LRUCache<string, KeyObject>({ max: 10_000 });

function header(headers: SignedRequest['headers'], name: string): string | string[] | undefined {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  // Node lower-cases names; other callers (tests, fetch-style records) may not.
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === name) return headers[key];
  }
  return undefined;
}

function single(name: string, value: string | string[] | undefined): string {
  // Repeated headers are ambiguous (which one was signed?): refuse rather than pick one.
  if (typeof value !== 'string') throw new WalletSignatureError('malformed', `${name} is given more than once`);
  return value;
}

function decodeBase58(value: string, maxChars: number): Uint8Array | undefined {
  if (value.length > maxChars) return undefined;
  return bs58.decodeUnsafe(value);
}

/** The cached KeyObject, or undefined when the 32 bytes cannot be imported as a key. */
function publicKeyFor(wallet: string): KeyObject | undefined {
  const cached = keyCache.get(wallet);
  if (cached) return cached;
  const raw = decodeBase58(wallet, MAX_ADDRESS_CHARS);
  if (!raw || raw.length !== 32) {
    throw new WalletSignatureError('malformed', 'X-Wallet-Address is not base58 of 32 bytes');
  }
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    keyCache.set(wallet, key);
    return key;
  } catch {
    // OpenSSL currently imports any 32 bytes (off-curve keys simply never verify); should a version
    // refuse them here, nobody can sign for that address either: the signature is 'wrong'.
    return undefined;
  }
}

function verifyEd25519(message: string | Uint8Array, key: KeyObject | undefined, signature: Uint8Array): boolean {
  if (!key) return false;
  try {
    // node:crypto is ~70x faster than tweetnacl and rejects non-canonical signatures (S >= L). Strings are UTF-8.
    return cryptoVerify(null, typeof message === 'string' ? Buffer.from(message) : message, key, signature);
  } catch {
    return false;
  }
}

/**
 * Whether `signature` is `address`'s Ed25519 signature of `message` (raw bytes, e.g. a payment
 * transaction's message), with the same cached keys. False for anything malformed; never throws.
 */
export function verifyAddressSignature(address: string, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verifyEd25519(message, publicKeyFor(address), signature);
  } catch {
    return false; // an address that is not base58 of 32 bytes
  }
}

/** Characters of verified-signature keys kept per verifier (a few thousand signed URLs). */
const VERIFIED_CACHE_CHARS = 8 << 20;

export function createWalletVerifier(options: WalletVerifierOptions = {}) {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? SIGNATURE_WINDOW.maxAgeMs;
  const maxAheadMs = options.maxAheadMs ?? SIGNATURE_WINDOW.maxAheadMs;
  const publicBaseUrl = options.publicBaseUrl?.replace(/\/$/, '');
  // PUBLIC_BASE_URL names the deployment: a v2 message must name its host, whatever Host header a proxy passes on.
  const publicHost = publicBaseUrl ? new URL(publicBaseUrl).host : undefined;
  // A signed GET may be sent again and again within its window (a client polling a list): the exact headers,
  // method and URL that verified once verify again, so the Ed25519 check is skipped; the clock is still checked.
  const verified = new LRUCache<string, VerifiedSignature>({
    maxSize: VERIFIED_CACHE_CHARS,
    sizeCalculation: (_, key) => key.length,
    ttl: maxAgeMs + maxAheadMs,
  });

  function checkClock(timestamp: number) {
    const current = now();
    if (current - timestamp > maxAgeMs) {
      throw new WalletSignatureError('expired', `X-Timestamp is more than ${maxAgeMs / 1000} s old`);
    }
    if (timestamp - current > maxAheadMs) {
      throw new WalletSignatureError('expired', `X-Timestamp is more than ${maxAheadMs / 1000} s in the future`);
    }
  }

  /**
   * Checks the signature of a request whose headers were read: formats first ('malformed'), then the clock, then
   * Ed25519 over each message the request may have signed.
   */
  function verifySignature(req: SignedRequest, proof: Proof): VerifiedSignature {
    const key = publicKeyFor(proof.wallet);
    const signature = decodeBase58(proof.signature, MAX_SIGNATURE_CHARS);
    if (!signature || signature.length !== 64) {
      throw new WalletSignatureError('malformed', 'X-Signature is not base58 of 64 bytes');
    }
    const timestamp = Number(proof.timestamp);
    if (!TIMESTAMP_PATTERN.test(proof.timestamp) || !Number.isSafeInteger(timestamp)) {
      throw new WalletSignatureError('malformed', 'X-Timestamp is not Unix time in milliseconds (decimal digits)');
    }
    if (proof.bodyDigest !== undefined && !BODY_DIGEST_PATTERN.test(proof.bodyDigest)) {
      throw new WalletSignatureError('malformed', 'X-Body-SHA256 is not a SHA-256 in lower-case hex (64 digits)');
    }

    checkClock(timestamp);

    const { method, host, bodyDigest } = proof;
    const signs = (message: string) => verifyEd25519(message, key, signature);
    const urls = signableUrls(req.url);
    if (bodyDigest === undefined) {
      const forms = publicBaseUrl ? urls.flatMap((url) => [url, `${publicBaseUrl}${url}`]) : urls;
      const message = forms.map((url) => signedMessage.v1(method, url, proof.timestamp)).find(signs);
      if (message !== undefined) return { wallet: proof.wallet, timestamp, message };
      throw new WalletSignatureError('wrong', 'Signature does not match X-Wallet-Address, method, URL and timestamp');
    }
    if (host === undefined) throw new WalletSignatureError('wrong_host', 'No Host header to check a v2 signature against');
    const v2 = (signedHost: string) => urls.map((url) => signedMessage.v2(method, signedHost, url, proof.timestamp, bodyDigest)).find(signs);
    const message = v2(host);
    if (message !== undefined) return { wallet: proof.wallet, timestamp, message };
    // Behind PUBLIC_BASE_URL, a client that called this server by another name signed that name: say so.
    const called = req.host?.toLowerCase();
    if (called !== undefined && called !== host && v2(called) !== undefined) {
      throw new WalletSignatureError('wrong_host', `Signed for host ${called}, but this deployment is ${host}: sign for that host`);
    }
    throw new WalletSignatureError('wrong', 'Signature does not match X-Wallet-Address, method, host, URL, timestamp and X-Body-SHA256');
  }

  return {
    /** Returns the authenticated wallet or throws WalletSignatureError (never anything else for client input). */
    verify(req: SignedRequest): VerifiedSignature {
      const proof = readProof(req, publicHost);
      // Everything the signed message is made of, so that a remembered verification stands for this message only.
      const v2Parts = proof.bodyDigest === undefined ? [] : [proof.bodyDigest, proof.host ?? ''];
      const cacheKey = [proof.wallet, proof.signature, proof.timestamp, proof.method, req.url, ...v2Parts].join('\n');
      let result = verified.get(cacheKey);
      if (result) checkClock(result.timestamp);
      else {
        result = verifySignature(req, proof);
        verified.set(cacheKey, result);
      }
      // The body is checked every time: the cache remembers a signature, never the body it came with.
      if (proof.bodyDigest !== undefined && sha256Hex(req.body) !== proof.bodyDigest) {
        throw new WalletSignatureError('body_mismatch', 'The body does not match X-Body-SHA256 (hex SHA-256 of the body bytes as sent)');
      }
      return result;
    },
  };
}

/** What a request claims: the signature headers' values, the method as signed, and the host a v2 message names. */
interface Proof {
  wallet: string;
  signature: string;
  timestamp: string;
  /** X-Body-SHA256: present for a v2 message. */
  bodyDigest: string | undefined;
  method: string;
  host: string | undefined;
}

function readProof(req: SignedRequest, publicHost: string | undefined): Proof {
  const values = {
    'X-Wallet-Address': header(req.headers, WALLET_HEADERS.wallet),
    'X-Signature': header(req.headers, WALLET_HEADERS.signature),
    'X-Timestamp': header(req.headers, WALLET_HEADERS.timestamp),
  };
  // An empty header carries nothing: report it as missing, like an absent one.
  const missing = Object.entries(values).filter(([, value]) => value === undefined || value === '');
  if (missing.length > 0) {
    throw new WalletSignatureError('missing', `Missing ${missing.map(([name]) => name).join(', ')} header`);
  }
  const digest = header(req.headers, WALLET_HEADERS.bodyDigest);
  return {
    wallet: single('X-Wallet-Address', values['X-Wallet-Address']),
    signature: single('X-Signature', values['X-Signature']),
    timestamp: single('X-Timestamp', values['X-Timestamp']),
    bodyDigest: digest === undefined ? undefined : single('X-Body-SHA256', digest),
    method: req.method.toUpperCase(),
    // Clients sign URL.host's spelling (lower case); the deployment's own name when PUBLIC_BASE_URL gives one.
    host: publicHost ?? req.host?.toLowerCase(),
  };
}

const sha256Hex = (bytes: Uint8Array | undefined) => createHash('sha256').update(bytes ?? new Uint8Array()).digest('hex');

export type WalletVerifier = ReturnType<typeof createWalletVerifier>;
