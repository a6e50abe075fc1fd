import { createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import bs58 from 'bs58';
import { LRUCache } from 'lru-cache';

/**
 * Wallet signature verification (docs/marketplace.md "Authentication"): pure and framework-free, so the
 * tRPC middleware, the REST facade and the WebSocket upgrade all share it. Replay protection needs
 * shared state (a database table) and lives with the caller, not here.
 */

export type SignatureFailure = 'missing' | 'malformed' | 'expired' | 'wrong';

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
  /** The request target exactly as sent (path + query, e.g. `/api/orders?status=PAID`), never a rewritten one. */
  url: string;
  /** Node's `req.headers` (lower-case names) or any similar record. */
  headers: Record<string, string | string[] | undefined>;
}

export interface WalletVerifierOptions {
  /** PUBLIC_BASE_URL; when set, `${publicBaseUrl}${url}` is accepted as the signed URL too. */
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
} as const;

/** A timestamp at most 5 minutes old and at most 30 s ahead (docs/marketplace.md "Clock window and single use"). */
export const SIGNATURE_WINDOW = { maxAgeMs: 300_000, maxAheadMs: 30_000 } as const;

// Base58 of n bytes is at most ceil(n * log(256) / log(58)) characters. Checking the length before
// decoding keeps a huge header from costing quadratic base58 work.
const MAX_ADDRESS_CHARS = 44;
const MAX_SIGNATURE_CHARS = 88;
// Unix ms fits in 16 digits until the year 2286; safe integers have at most 16 digits.
const TIMESTAMP_PATTERN = /^[0-9]{1,16}$/;

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

  return {
    /** Returns the authenticated wallet or throws WalletSignatureError (never anything else for client input). */
    verify(req: SignedRequest): VerifiedSignature {
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
      const wallet = single('X-Wallet-Address', values['X-Wallet-Address']);
      const signatureText = single('X-Signature', values['X-Signature']);
      const timestampText = single('X-Timestamp', values['X-Timestamp']);
      const method = req.method.toUpperCase();
      const cacheKey = `${wallet}\n${signatureText}\n${timestampText}\n${method}\n${req.url}`;
      const known = verified.get(cacheKey);
      if (known) {
        checkClock(known.timestamp);
        return known;
      }

      // Format problems ('malformed') are all reported before the clock is looked at.
      const key = publicKeyFor(wallet);
      const signature = decodeBase58(signatureText, MAX_SIGNATURE_CHARS);
      if (!signature || signature.length !== 64) {
        throw new WalletSignatureError('malformed', 'X-Signature is not base58 of 64 bytes');
      }
      const timestamp = Number(timestampText);
      if (!TIMESTAMP_PATTERN.test(timestampText) || !Number.isSafeInteger(timestamp)) {
        throw new WalletSignatureError('malformed', 'X-Timestamp is not Unix time in milliseconds (decimal digits)');
      }

      checkClock(timestamp);

      const candidates = [`${method}:${req.url}:${timestampText}`, ...(publicBaseUrl ? [`${method}:${publicBaseUrl}${req.url}:${timestampText}`] : [])];
      const message = candidates.find((candidate) => verifyEd25519(candidate, key, signature));
      if (message !== undefined) {
        const result = { wallet, timestamp, message };
        verified.set(cacheKey, result);
        return result;
      }
      throw new WalletSignatureError('wrong', 'Signature does not match X-Wallet-Address, method, URL and timestamp');
    },
  };
}

export type WalletVerifier = ReturnType<typeof createWalletVerifier>;
