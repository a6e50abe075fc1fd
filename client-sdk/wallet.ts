import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { canonicalUrl } from './signed-url.ts';

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

/** The signature headers; `X-Body-SHA256` with a v2 signature (which binds the server's host and the body). */
export type WalletHeaders = Record<'X-Wallet-Address' | 'X-Signature' | 'X-Timestamp', string> & { 'X-Body-SHA256'?: string };

export interface SigningOptions {
  /** The timestamp to sign, Unix ms. Default: now, strictly increasing per signer. */
  now?: number;
  /**
   * The server's host as the request addresses it (`new URL(baseUrl).host`; PUBLIC_BASE_URL's host behind a proxy).
   * Given, the v2 message is signed: `v2:METHOD:HOST URL:TIMESTAMP:BODY_SHA256`, so the signature is good for this
   * host and this body only.
   */
  host?: string;
  /** With `host`: the exact body that will be sent (a string goes as UTF-8); none is an empty body. */
  body?: string | Uint8Array;
}

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
 * The authentication headers for one request. `url` is the request target as it will be sent (path + query, e.g.
 * `/api/orders?status=PAID`). Signed is `${METHOD}:${url}:${timestamp}` (v1), or with `options.host` the v2 message,
 * which adds `X-Body-SHA256`. A number for `options` is the timestamp (`now`), as before.
 */
export async function signedHeaders(
  signer: WalletSigner,
  method: string,
  url: string,
  options: number | SigningOptions = {},
): Promise<WalletHeaders> {
  const { now, host, body } = typeof options === 'number' ? { now: options } : options;
  const timestamp = String(now === undefined ? nextTimestamp(signer) : Math.floor(now));
  const bodySha256 = host === undefined ? undefined : await sha256Hex(typeof body === 'string' ? new TextEncoder().encode(body) : (body ?? new Uint8Array()));
  const text =
    host === undefined || bodySha256 === undefined
      ? `${method.toUpperCase()}:${url}:${timestamp}`
      : `v2:${method.toUpperCase()}:${host.toLowerCase()}${url}:${timestamp}:${bodySha256}`;
  const signature = await signer.sign(new TextEncoder().encode(text));
  return {
    'X-Wallet-Address': signer.address,
    'X-Signature': bs58.encode(signature),
    'X-Timestamp': timestamp,
    ...(bodySha256 === undefined ? {} : { 'X-Body-SHA256': bodySha256 }),
  };
}

/**
 * Lower-case hex SHA-256 by WebCrypto (Node, and browsers in secure contexts); undefined where there is none (a page
 * served over plain http from another host than localhost), where the v1 message is signed instead.
 */
async function sha256Hex(bytes: Uint8Array): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * `init` with the method upper-cased (as signed: fetch does not upper-case `patch`) and the authentication headers
 * for `signedUrl` (path + query as the server receives it, signed in its canonical form, which a proxy's
 * re-encoding does not change) set over the caller's. With `host` (the server's), the v2 message binds that host and
 * `init.body` too: a body the signature could not cover (FormData, a stream) is refused with a TypeError.
 */
export async function signInit(signer: WalletSigner, signedUrl: string, init: RequestInit = {}, host?: string): Promise<RequestInit> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  const options = host === undefined ? {} : { host, ...(init.body == null ? {} : { body: await bodyBytes(init.body) }) };
  for (const [name, value] of Object.entries(await signedHeaders(signer, method, canonicalUrl(signedUrl), options))) headers.set(name, value);
  return { ...init, method, headers };
}

/** The bytes fetch will send for `body`, for the kinds whose bytes are known before sending. */
async function bodyBytes(body: NonNullable<RequestInit['body']>): Promise<string | Uint8Array> {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('A signed body must be a string, bytes, a Blob or URLSearchParams: FormData and streams are not known before they are sent');
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
 * It signs the v2 message `v2:METHOD:host path:timestamp:body SHA-256`, where host is `baseUrl`'s and path is the
 * path + query relative to `baseUrl` in the form the request puts on the wire (so `/a b` is signed as `/a%20b`, as
 * the server receives it; in canonical form, so `%3a` is signed as `:`), sends the method upper-cased as signed, and adds `Content-Type: application/json` when a
 * body is given without a content type.
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
    const signed = await signInit(signer, target.pathname.slice(basePath.length) + target.search, init, target.host);
    const headers = signed.headers as Headers;
    if (init.body != null && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetchImpl(target.href, signed);
  };
}
