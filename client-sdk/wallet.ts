import bs58 from 'bs58';
import nacl from 'tweetnacl';

/**
 * Wallet signing for the marketplace API (docs/marketplace.md "Authentication"). Runs in browsers too, so no node:
 * imports: signing uses tweetnacl and base58 uses bs58.
 */

/** Anything that can sign for a wallet: a local keypair or a browser wallet's `signMessage`. */
export interface WalletSigner {
  /** Base58 Ed25519 public key. */
  address: string;
  /** Detached 64-byte Ed25519 signature of `message`. */
  sign(message: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

export type WalletHeaders = Record<'X-Wallet-Address' | 'X-Signature' | 'X-Timestamp', string>;

/** A signer holding a 64-byte Ed25519 secret key (tweetnacl / Solana keypair format: seed + public key). */
export function keypairSigner(secretKey: Uint8Array): WalletSigner {
  if (secretKey.length !== nacl.sign.secretKeyLength) {
    throw new TypeError(`secretKey must be ${nacl.sign.secretKeyLength} bytes, got ${secretKey.length}`);
  }
  // Copy so later changes to the caller's array cannot change the signer.
  const key = Uint8Array.from(secretKey);
  const { publicKey } = nacl.sign.keyPair.fromSecretKey(key);
  return {
    address: bs58.encode(publicKey),
    sign: (message) => nacl.sign.detached(message, key),
  };
}

/** A fresh random wallet (for tests, development and agents that hold their own key). */
export function generateKeypair(): { address: string; secretKey: Uint8Array } {
  const { publicKey, secretKey } = nacl.sign.keyPair();
  return { address: bs58.encode(publicKey), secretKey };
}

/**
 * The three authentication headers for one request. `url` is the request target as it will be sent
 * (path + query, e.g. `/api/orders?status=PAID`); the message signed is `${METHOD}:${url}:${timestamp}`.
 */
export async function signedHeaders(
  signer: WalletSigner,
  method: string,
  url: string,
  now?: number,
): Promise<WalletHeaders> {
  const timestamp = String(now === undefined ? nextTimestamp(signer) : Math.floor(now));
  const message = new TextEncoder().encode(`${method.toUpperCase()}:${url}:${timestamp}`);
  const signature = await signer.sign(message);
  return {
    'X-Wallet-Address': signer.address,
    'X-Signature': bs58.encode(signature),
    'X-Timestamp': timestamp,
  };
}

/**
 * `init` with the method upper-cased (as signed: fetch does not upper-case `patch`) and the three
 * authentication headers for `signedUrl` (path + query as the server receives it) set over the caller's.
 */
export async function signInit(signer: WalletSigner, signedUrl: string, init: RequestInit = {}): Promise<RequestInit> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(await signedHeaders(signer, method, signedUrl))) headers.set(name, value);
  return { ...init, method, headers };
}

const lastTimestamps = new WeakMap<WalletSigner, number>();

/**
 * Now, but strictly increasing per signer: the server accepts a signed POST once, so two requests
 * signed within one millisecond must not carry the same timestamp.
 */
function nextTimestamp(signer: WalletSigner): number {
  const timestamp = Math.max(Date.now(), (lastTimestamps.get(signer) ?? 0) + 1);
  lastTimestamps.set(signer, timestamp);
  return timestamp;
}

/**
 * A small REST helper for third parties that only want the signed fetch:
 * `const api = createSignedFetch(signer, 'https://marketplace.example'); await api('/api/orders?status=PAID')`.
 *
 * It signs `METHOD:path:timestamp`, where path is the path + query relative to `baseUrl` in the form
 * the request puts on the wire (so `/a b` is signed as `/a%20b`, as the server receives it), sends
 * the method upper-cased as signed, and adds `Content-Type: application/json` when a body is given
 * without a content type.
 */
export function createSignedFetch(
  signer: WalletSigner,
  baseUrl: string,
  fetchImpl: typeof fetch = fetch,
): (path: string, init?: RequestInit) => Promise<Response> {
  const base = baseUrl.replace(/\/+$/, '');
  // A base with a path (behind a prefix-stripping proxy) is not part of what the server sees.
  const basePath = new URL(base).pathname.replace(/\/$/, '');

  return async (path, init = {}) => {
    if (!path.startsWith('/')) throw new TypeError(`path must start with "/", got "${path}"`);
    const target = new URL(base + path);
    const inBase = target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
    if (!inBase) throw new TypeError(`path "${path}" leaves baseUrl "${baseUrl}"`);
    const signed = await signInit(signer, target.pathname.slice(basePath.length) + target.search, init);
    const headers = signed.headers as Headers;
    if (init.body != null && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetchImpl(target.href, signed);
  };
}
