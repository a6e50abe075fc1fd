import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';
import fc from 'fast-check';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createSignedFetch,
  generateKeypair,
  keypairSigner,
  signedHeaders,
  type WalletSigner,
} from '../../client-sdk/wallet.ts';
import {
  canonicalUrl,
  createWalletVerifier,
  EMPTY_BODY_SHA256,
  proofFromQuery,
  WalletSignatureError,
  type SignatureFailure,
  type SignedRequest,
} from '../../server/marketplace/wallet-signature.ts';

const NOW = 1_700_000_000_000;
const FIVE_MINUTES = 300_000;
const THIRTY_SECONDS = 30_000;

const alice = keypairSigner(generateKeypair().secretKey);
const bob = keypairSigner(generateKeypair().secretKey);
const verifier = createWalletVerifier({ now: () => NOW });

/** Headers as node gives them: lower-case names. */
const lowerCase = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

async function signedRequest(
  method: string,
  url: string,
  { signer = alice, at = NOW }: { signer?: WalletSigner; at?: number } = {},
): Promise<SignedRequest & { headers: Record<string, string> }> {
  return { method, url, headers: lowerCase(await signedHeaders(signer, method, url, at)) };
}

const sha256 = (body: string | Uint8Array) => createHash('sha256').update(body).digest('hex');
const bytes = (text: string) => new TextEncoder().encode(text);

/** A request signed the v2 way, for `host` and `body`, as the server receives it from that host. */
async function v2Request(
  method: string,
  url: string,
  { host = 'market.example', body, signer = alice, at = NOW }: { host?: string; body?: string; signer?: WalletSigner; at?: number } = {},
): Promise<SignedRequest & { headers: Record<string, string> }> {
  const headers = lowerCase(await signedHeaders(signer, method, url, { now: at, host, ...(body === undefined ? {} : { body }) }));
  return { method, url, headers, host, ...(body === undefined ? {} : { body: bytes(body) }) };
}

/** The failure reason of `verify`, or 'ok'; anything but a WalletSignatureError is re-thrown. */
function outcome(req: SignedRequest, v = verifier): SignatureFailure | 'ok' {
  try {
    v.verify(req);
    return 'ok';
  } catch (error) {
    if (error instanceof WalletSignatureError) return error.reason;
    throw error;
  }
}

function failure(req: SignedRequest, v = verifier): WalletSignatureError {
  try {
    v.verify(req);
  } catch (error) {
    if (error instanceof WalletSignatureError) return error;
    throw error;
  }
  throw new Error('verify accepted the request');
}

// Ed25519 group order L and field prime p, for hand-made non-canonical inputs.
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;

const littleEndian = (bytes: Uint8Array) => bytes.reduceRight((n, byte) => (n << 8n) | BigInt(byte), 0n);
function toLittleEndian(n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}
function powMod(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  base %= P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % P;
    base = (base * base) % P;
  }
  return result;
}
/** Whether y (< p) is the y coordinate of a point of edwards25519: x^2 = (y^2 - 1) / (d y^2 + 1) is a square. */
function isCurveY(y: bigint): boolean {
  const d = (((-121665n * powMod(121666n, P - 2n)) % P) + P) % P;
  const y2 = (y * y) % P;
  const x2 = (((y2 - 1n + P) % P) * powMod((d * y2 + 1n) % P, P - 2n)) % P;
  return x2 === 0n || powMod(x2, (P - 1n) / 2n) === 1n;
}

describe('a request signed by the SDK', () => {
  it('verifies and yields the wallet, the timestamp and the signed message', async () => {
    const req = await signedRequest('POST', '/api/orders');
    expect(verifier.verify(req)).toEqual({ wallet: alice.address, timestamp: NOW, message: `POST:/api/orders:${NOW}` });
  });

  it('signs `<METHOD>:<URL>:<TIMESTAMP>` with the method upper-cased', async () => {
    const headers = await signedHeaders(alice, 'post', '/api/messages', NOW);
    const message = new TextEncoder().encode(`POST:/api/messages:${NOW}`);
    expect(headers['X-Timestamp']).toBe(String(NOW));
    expect(headers['X-Wallet-Address']).toBe(alice.address);
    expect(nacl.sign.detached.verify(message, bs58.decode(headers['X-Signature']), bs58.decode(alice.address))).toBe(true);
    expect(verifier.verify({ method: 'POST', url: '/api/messages', headers }).wallet).toBe(alice.address);
  });

  it('reads header names case-insensitively', async () => {
    const headers = await signedHeaders(alice, 'GET', '/api/orders', NOW);
    expect(outcome({ method: 'GET', url: '/api/orders', headers })).toBe('ok');
    const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(outcome({ method: 'GET', url: '/api/orders', headers: shouting })).toBe('ok');
  });

  it('includes the query string in the signed URL', async () => {
    const req = await signedRequest('GET', '/api/orders?status=PAID');
    expect(outcome(req)).toBe('ok');
    expect(outcome({ ...req, url: '/api/orders' })).toBe('wrong');
    expect(outcome({ ...req, url: '/api/orders?status=DELIVERED' })).toBe('wrong');
    expect(outcome({ ...req, url: '/api/orders?status=PAID&limit=1' })).toBe('wrong');
  });

  it('accepts a signer that is only a function (a browser wallet)', async () => {
    const { secretKey } = generateKeypair();
    const local = keypairSigner(secretKey);
    const wallet: WalletSigner = { address: local.address, sign: async (message) => local.sign(message) };
    expect(verifier.verify(await signedRequest('GET', '/api/agents/1', { signer: wallet })).wallet).toBe(local.address);
  });
});

describe('missing headers', () => {
  it.each(['x-wallet-address', 'x-signature', 'x-timestamp'])('without %s the reason is missing', async (name) => {
    const req = await signedRequest('GET', '/api/orders');
    delete req.headers[name];
    const error = failure(req);
    expect(error.reason).toBe('missing');
    expect(error.message.toLowerCase()).toContain(name);
  });

  it('an empty header counts as missing', async () => {
    const req = await signedRequest('GET', '/api/orders');
    expect(outcome({ ...req, headers: { ...req.headers, 'x-signature': '' } })).toBe('missing');
  });

  it('names every missing header', () => {
    expect(failure({ method: 'GET', url: '/', headers: {} }).message).toBe(
      'Missing X-Wallet-Address, X-Signature, X-Timestamp header',
    );
  });
});

describe('malformed headers', () => {
  const withHeader = async (name: string, value: string | string[]) => {
    const req = await signedRequest('GET', '/api/orders');
    return { ...req, headers: { ...req.headers, [name]: value } };
  };

  it.each([
    ['not base58', '0OIl+/'],
    ['31 bytes', bs58.encode(new Uint8Array(31).fill(7))],
    ['33 bytes', bs58.encode(new Uint8Array(33).fill(7))],
    ['a huge value', '1'.repeat(100_000)],
  ])('X-Wallet-Address %s', async (_, value) => {
    const error = failure(await withHeader('x-wallet-address', value));
    expect(error.reason).toBe('malformed');
    expect(error.message).toBe('X-Wallet-Address is not base58 of 32 bytes');
  });

  it.each([
    ['not base58', 'l'.repeat(88)],
    ['63 bytes', bs58.encode(new Uint8Array(63).fill(9))],
    ['65 bytes', bs58.encode(new Uint8Array(65).fill(9))],
    ['hex', 'ab'.repeat(64)],
  ])('X-Signature %s', async (_, value) => {
    const error = failure(await withHeader('x-signature', value));
    expect(error.reason).toBe('malformed');
    expect(error.message).toBe('X-Signature is not base58 of 64 bytes');
  });

  it.each(['1.7e12', '-1700000000000', '1700000000000.0', ' 1700000000000', '0x18bcfe56800', 'now', '12345678901234567', '9007199254740993'])(
    'X-Timestamp %j',
    async (value) => {
      const error = failure(await withHeader('x-timestamp', value));
      expect([error.name, error.reason, error.message]).toEqual([
        'WalletSignatureError',
        'malformed',
        'X-Timestamp is not Unix time in milliseconds (decimal digits)',
      ]);
    },
  );

  it.each(['x-wallet-address', 'x-signature', 'x-timestamp'])('%s given twice (an array)', async (name) => {
    const req = await signedRequest('GET', '/api/orders');
    const value = req.headers[name] as string;
    const error = failure({ ...req, headers: { ...req.headers, [name]: [value, value] } });
    expect(error.reason).toBe('malformed');
    const canonical = { 'x-wallet-address': 'X-Wallet-Address', 'x-signature': 'X-Signature', 'x-timestamp': 'X-Timestamp' }[name];
    expect(error.message).toBe(`${canonical} is given more than once`);
  });
});

describe('timestamp window: at most 5 minutes old, at most 30 seconds ahead', () => {
  it('accepts exactly 5 minutes old', async () => {
    expect(outcome(await signedRequest('GET', '/api/orders', { at: NOW - FIVE_MINUTES }))).toBe('ok');
  });

  it('refuses 5 minutes + 1 ms old as expired', async () => {
    const error = failure(await signedRequest('GET', '/api/orders', { at: NOW - FIVE_MINUTES - 1 }));
    expect(error.reason).toBe('expired');
    expect(error.message).toBe('X-Timestamp is more than 300 s old');
  });

  it('accepts exactly 30 seconds ahead', async () => {
    expect(outcome(await signedRequest('GET', '/api/orders', { at: NOW + THIRTY_SECONDS }))).toBe('ok');
  });

  it('refuses 30 seconds + 1 ms ahead as expired', async () => {
    const error = failure(await signedRequest('GET', '/api/orders', { at: NOW + THIRTY_SECONDS + 1 }));
    expect(error.reason).toBe('expired');
    expect(error.message).toBe('X-Timestamp is more than 30 s in the future');
  });

  it('by default (no options, the real clock) refuses a timestamp more than 30 seconds ahead or 5 minutes old', async () => {
    const real = createWalletVerifier();
    const at = (offset: number) => signedRequest('POST', '/api/orders', { at: Date.now() + offset });
    expect(outcome(await at(THIRTY_SECONDS + 5_000), real)).toBe('expired');
    expect(outcome(await at(-FIVE_MINUTES - 5_000), real)).toBe('expired');
    expect(outcome(await at(THIRTY_SECONDS - 5_000), real)).toBe('ok');
  });

  it('takes maxAgeMs and maxAheadMs', async () => {
    const strict = createWalletVerifier({ now: () => NOW, maxAgeMs: 1_000, maxAheadMs: 0 });
    expect(outcome(await signedRequest('GET', '/', { at: NOW - 1_000 }), strict)).toBe('ok');
    expect(outcome(await signedRequest('GET', '/', { at: NOW - 1_001 }), strict)).toBe('expired');
    expect(outcome(await signedRequest('GET', '/', { at: NOW + 1 }), strict)).toBe('expired');
  });
});

describe('a signed request sent again (verified once, then remembered)', () => {
  it('verifies again with the same wallet, timestamp and message', async () => {
    const fresh = createWalletVerifier({ now: () => NOW });
    const req = await signedRequest('GET', '/api/orders?limit=20');
    const first = fresh.verify(req);
    expect(fresh.verify({ ...req, headers: { ...req.headers } })).toEqual(first);
  });

  it('is refused as expired once its window has passed, though it verified before', async () => {
    let clock = NOW;
    const moving = createWalletVerifier({ now: () => clock });
    const req = await signedRequest('GET', '/api/orders');
    expect(outcome(req, moving)).toBe('ok');
    clock = NOW + FIVE_MINUTES + 1;
    expect(outcome(req, moving)).toBe('expired');
  });

  it('the same headers on another URL or method are still wrong', async () => {
    const fresh = createWalletVerifier({ now: () => NOW });
    const req = await signedRequest('GET', '/api/orders/1');
    expect(outcome(req, fresh)).toBe('ok');
    expect(outcome({ ...req, url: '/api/orders/2' }, fresh)).toBe('wrong');
    expect(outcome({ ...req, method: 'DELETE' }, fresh)).toBe('wrong');
    expect(outcome({ ...req, headers: { ...req.headers, 'x-wallet-address': bob.address } }, fresh)).toBe('wrong');
  });
});

describe('wrong signatures', () => {
  it('signed by another wallet than X-Wallet-Address', async () => {
    const req = await signedRequest('GET', '/api/orders', { signer: bob });
    expect(outcome({ ...req, headers: { ...req.headers, 'x-wallet-address': alice.address } })).toBe('wrong');
  });

  it('tampered method', async () => {
    expect(outcome({ ...(await signedRequest('GET', '/api/orders/1')), method: 'DELETE' })).toBe('wrong');
  });

  it('tampered URL', async () => {
    expect(outcome({ ...(await signedRequest('GET', '/api/orders/1')), url: '/api/orders/2' })).toBe('wrong');
  });

  it('tampered timestamp (still inside the window)', async () => {
    const req = await signedRequest('POST', '/api/orders');
    expect(outcome({ ...req, headers: { ...req.headers, 'x-timestamp': String(NOW - 1) } })).toBe('wrong');
    // Same number, other digits: the signed text is what counts.
    expect(outcome({ ...req, headers: { ...req.headers, 'x-timestamp': `0${NOW}` } })).toBe('wrong');
  });

  it('a non-canonical signature (S + L) that tweetnacl accepts is rejected', async () => {
    const req = await signedRequest('POST', '/api/orders/1/accept');
    const signature = bs58.decode(req.headers['x-signature'] as string);
    const s = littleEndian(signature.subarray(32));
    const malleated = new Uint8Array(64);
    malleated.set(signature.subarray(0, 32));
    malleated.set(toLittleEndian(s + L, 32), 32);

    const message = new TextEncoder().encode(`POST:/api/orders/1/accept:${NOW}`);
    expect(nacl.sign.detached.verify(message, malleated, bs58.decode(alice.address))).toBe(true);
    const error = failure({ ...req, headers: { ...req.headers, 'x-signature': bs58.encode(malleated) } });
    expect(error.reason).toBe('wrong');
  });

  it('a 32-byte address that is not a curve point gives a WalletSignatureError, not a crash', async () => {
    let y = 2n;
    while (isCurveY(y)) y++;
    const offCurve = toLittleEndian(y, 32);
    const nonCanonical = toLittleEndian(2n ** 255n - 1n, 32); // y >= p: no valid encoding
    const req = await signedRequest('GET', '/api/orders');
    for (const key of [offCurve, nonCanonical]) {
      const error = failure({ ...req, headers: { ...req.headers, 'x-wallet-address': bs58.encode(key) } });
      expect(error.reason).toBe('wrong');
    }
  });

  it('arbitrary header values only ever yield a WalletSignatureError', async () => {
    const req = await signedRequest('GET', '/api/orders');
    const base58Char = fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl ');
    const base58ish = fc.oneof(fc.string(), fc.string({ unit: base58Char, maxLength: 100 }));
    fc.assert(
      fc.property(
        fc.option(base58ish, { nil: undefined }),
        fc.option(base58ish, { nil: undefined }),
        fc.option(fc.oneof(fc.string(), fc.nat().map(String)), { nil: undefined }),
        fc.string(),
        (wallet, signature, timestamp, url) => {
          const headers = { ...req.headers, 'x-wallet-address': wallet, 'x-signature': signature, 'x-timestamp': timestamp };
          expect(['missing', 'malformed', 'expired', 'wrong']).toContain(outcome({ method: 'GET', url, headers }));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('properties: signed by the SDK, then verified', () => {
  const method = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'post');
  const pathChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_/.~%?=&');
  const url = fc.string({ unit: pathChar, maxLength: 80 }).map((rest) => `/api/${rest}`);
  /** A timestamp the window accepts: up to 5 minutes old, up to 30 seconds ahead. */
  const inWindow = fc.integer({ min: -FIVE_MINUTES, max: THIRTY_SECONDS }).map((offset) => NOW + offset);

  it("any method, URL and timestamp inside the window round-trips: the signer's wallet and timestamp come back", async () => {
    await fc.assert(
      fc.asyncProperty(method, url, inWindow, async (m, u, at) => {
        const req = await signedRequest(m, u, { at });
        expect(verifier.verify(req)).toMatchObject({ wallet: alice.address, timestamp: at });
      }),
      { numRuns: 300 },
    );
  });

  it('a near-valid request (one flipped bit of the signature or address, a shifted timestamp, another method or URL) is refused', async () => {
    const flipBit = (value: string, bit: number) => {
      const bytes = bs58.decode(value);
      bytes[Math.floor(bit / 8) % bytes.length]! ^= 1 << (bit % 8);
      return bs58.encode(bytes);
    };
    const tamper = fc.oneof(
      fc.nat({ max: 511 }).map((bit) => ({ kind: 'signature' as const, bit })),
      fc.nat({ max: 255 }).map((bit) => ({ kind: 'address' as const, bit })),
      fc.integer({ min: -600_000, max: 600_000 }).filter((shift) => shift !== 0).map((shift) => ({ kind: 'timestamp' as const, shift })),
      fc.constant({ kind: 'method' as const }),
      fc.constant({ kind: 'url' as const }),
    );
    await fc.assert(
      fc.asyncProperty(method, url, inWindow, tamper, async (m, u, at, change) => {
        const req = await signedRequest(m, u, { at });
        const headers = { ...req.headers };
        let tampered: SignedRequest = req;
        if (change.kind === 'signature') tampered = { ...req, headers: { ...headers, 'x-signature': flipBit(headers['x-signature']!, change.bit) } };
        if (change.kind === 'address') tampered = { ...req, headers: { ...headers, 'x-wallet-address': flipBit(headers['x-wallet-address']!, change.bit) } };
        if (change.kind === 'timestamp') tampered = { ...req, headers: { ...headers, 'x-timestamp': String(at + change.shift) } };
        if (change.kind === 'method') tampered = { ...req, method: m.toUpperCase() === 'GET' ? 'POST' : 'GET' };
        if (change.kind === 'url') tampered = { ...req, url: `${u}x` };
        const reason = outcome(tampered);
        if (change.kind === 'timestamp') {
          const shifted = at + change.shift;
          const inside = shifted >= NOW - FIVE_MINUTES && shifted <= NOW + THIRTY_SECONDS;
          expect(reason).toBe(inside ? 'wrong' : 'expired');
        } else {
          expect(reason).toBe('wrong');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('signed URL: path form, or absolute form with PUBLIC_BASE_URL', () => {
  const absolute = async () => {
    const req = await signedRequest('GET', 'https://market.example/api/orders?status=PAID');
    return { ...req, url: '/api/orders?status=PAID' };
  };

  it('the absolute form is refused without publicBaseUrl', async () => {
    const error = failure(await absolute());
    expect([error.reason, error.message]).toEqual(['wrong', 'Signature does not match X-Wallet-Address, method, URL and timestamp']);
    // Not even for a signer who guessed how an unset base URL would print.
    const guessed = await signedRequest('GET', 'undefined/api/orders');
    expect(outcome({ ...guessed, url: '/api/orders' })).toBe('wrong');
  });

  it('the absolute form is accepted with publicBaseUrl (a trailing slash is ignored)', async () => {
    for (const publicBaseUrl of ['https://market.example', 'https://market.example/']) {
      const v = createWalletVerifier({ now: () => NOW, publicBaseUrl });
      expect(v.verify(await absolute()).message).toBe(`GET:https://market.example/api/orders?status=PAID:${NOW}`);
    }
  });

  it('the path form is still accepted with publicBaseUrl', async () => {
    const v = createWalletVerifier({ now: () => NOW, publicBaseUrl: 'https://market.example' });
    expect(v.verify(await signedRequest('GET', '/api/orders')).message).toBe(`GET:/api/orders:${NOW}`);
  });

  it('another origin in the absolute form is refused', async () => {
    const v = createWalletVerifier({ now: () => NOW, publicBaseUrl: 'https://other.example' });
    expect(outcome(await absolute(), v)).toBe('wrong');
  });
});

describe("the signed URL's canonical form: a proxy's re-encoding keeps a signature valid, a change of meaning does not", () => {
  it('canonicalUrl decodes escapes of what means the same either way and upper-cases the hex of every other escape', () => {
    const cases: [string, string][] = [
      ['/api/x?at=10%3A30', '/api/x?at=10:30'],
      ['/api/x?at=10%3a30', '/api/x?at=10:30'],
      ['/api/%7Ealice/%41b%2d1%3A2%40c', '/api/~alice/Ab-1:2@c'],
      ['/api/x?list=%21%24%27%28%29%2A%2C', "/api/x?list=!$'()*,"],
      // Outside those characters, nothing is decoded: in the path not even !$'()*, (the REST facade keeps them escaped).
      ['/api/a%21b%2cc?x=%21', '/api/a%21b%2Cc?x=!'],
      ['/api/a%2fb?x=%2f%3f%23%26%3d%25%2b%3b%20%c3%a9%5b', '/api/a%2Fb?x=%2F%3F%23%26%3D%25%2B%3B%20%C3%A9%5B'],
      ['/api/x?q=%253A', '/api/x?q=%253A'],
      ['/api/x?a=b&c=d:e?f/g', '/api/x?a=b&c=d:e?f/g'],
      ['/api/x?bad=%G1%4', '/api/x?bad=%G1%4'],
      ['/api/x', '/api/x'],
    ];
    for (const [url, canonical] of cases) {
      expect(canonicalUrl(url), url).toBe(canonical);
      expect(canonicalUrl(canonical), canonical).toBe(canonical);
    }
  });

  it('a signed GET with `:` in its query verifies sent on as `%3A` or `%3a` (v1, v2, the absolute form); a signature of another form only as sent', async () => {
    const url = '/api/conversations/c/messages?since=2026-01-15T09:30:00.000Z';
    const reencoded = ['/api/conversations/c/messages?since=2026-01-15T09%3A30%3A00.000Z', '/api/conversations/c/messages?since=2026-01-15T09%3a30%3a00.000Z'];
    const v1 = await signedRequest('GET', url);
    const v2 = await v2Request('GET', url);
    const publicBaseUrl = 'https://market.example';
    const absolute = await signedRequest('GET', `${publicBaseUrl}${url}`);
    for (const received of reencoded) {
      expect(verifier.verify({ ...v1, url: received }).message, received).toBe(`GET:${url}:${NOW}`);
      expect(verifier.verify({ ...v2, url: received }).message, received).toBe(`v2:GET:market.example${url}:${NOW}:${EMPTY_BODY_SHA256}`);
      expect(outcome({ ...absolute, url: received }, createWalletVerifier({ now: () => NOW, publicBaseUrl })), received).toBe('ok');
    }
    // A client that signed `%3A` (not the canonical form) is verified against the URL as received, as before.
    const asSent = await signedRequest('GET', reencoded[0]!);
    expect(outcome(asSent)).toBe('ok');
    expect(outcome({ ...asSent, url })).toBe('wrong');
  });

  /** The outcome of a GET signed (v1 and v2) over `signed` and received as `received`, both being the same. */
  const received = async (signed: string, url: string) => {
    const v1 = outcome({ ...(await signedRequest('GET', signed)), url });
    expect(outcome({ ...(await v2Request('GET', signed)), url }), `v2: ${signed} received as ${url}`).toBe(v1);
    return v1;
  };

  it('re-encodings that keep the meaning verify: unreserved characters, `:` `@`, in the query `!$\'()*,`, the hex case', async () => {
    for (const [signed, url] of [
      ['/api/orders?status=PAID&limit=5', '/api/orders?st%61tus=P%41ID&limit=%35'],
      ["/api/x?tags=a,b&who=o'neil(*)!$", '/api/x?tags=a%2Cb&who=o%27neil%28%2A%29%21%24'],
      ['/api/x/a:b@c~d', '/api/x/a%3ab%40c%7Ed'],
      ['/api/x?p=%2F%26', '/api/x?p=%2f%26'],
    ]) {
      expect(await received(signed!, url!), `${signed} received as ${url}`).toBe('ok');
    }
  });

  it('re-encodings that change the meaning are refused: `&` `=` `+` `%` `;` in the query, `/` `?` anywhere, `!` `,` in the path', async () => {
    for (const [signed, url] of [
      ['/api/x?a=1%262', '/api/x?a=1&2'],
      ['/api/x?a=1&b=2', '/api/x?a=1%26b=2'],
      ['/api/x?a=b', '/api/x?a%3Db'],
      ['/api/x?q=a+b', '/api/x?q=a%2Bb'],
      ['/api/x?q=%20', '/api/x?q=%2520'],
      ['/api/x?a=1;b=2', '/api/x?a=1%3Bb=2'],
      ['/api/x?a=1/2', '/api/x?a=1%2F2'],
      ['/api/orders/a/b', '/api/orders/a%2Fb'],
      ['/api/orders/a%2Fb', '/api/orders/a/b'],
      ['/api/orders?x=1', '/api/orders%3Fx=1'],
      // The REST facade reads `a%2Cb` in a path as another id than `a,b`.
      ['/api/x/a,b!', '/api/x/a%2Cb%21'],
    ]) {
      expect(await received(signed!, url!), `${signed} received as ${url}`).toBe('wrong');
    }
  });

  it('properties: a URL signed in canonical form verifies however a proxy re-encodes what means the same (either hex case)', async () => {
    const decodable = { path: 'aZ09-._~:@', query: "aZ09-._~:@!$'()*," };
    const token = (part: 'path' | 'query', others: string[]) =>
      fc.record({ text: fc.constantFrom(...decodable[part], ...others), spelling: fc.constantFrom('as is', 'upper', 'lower') });
    const path = fc.array(token('path', ['/', '%2F', '%21', '%3F', '%25', '%20']), { maxLength: 20 });
    const query = fc.array(token('query', ['/', '=', '&', '+', '%26', '%3D', '%2B', '%25', '%20', '%2F', '%3F', '%23', '%3B', '%C3%A9']), { maxLength: 30 });
    /** The token as a re-encoding proxy may pass it on: escaped (or its escape's hex case changed), or as it was. */
    const respell = (part: 'path' | 'query', { text, spelling }: { text: string; spelling: string }) => {
      if (spelling === 'as is') return text;
      if (text.startsWith('%')) return spelling === 'lower' ? text.toLowerCase() : text;
      if (!decodable[part].includes(text)) return text;
      const hex = text.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${spelling === 'upper' ? hex.toUpperCase() : hex}`;
    };
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        const signed = `/api/${p.map((t) => t.text).join('')}?${q.map((t) => t.text).join('')}`;
        const received = `/api/${p.map((t) => respell('path', t)).join('')}?${q.map((t) => respell('query', t)).join('')}`;
        expect(canonicalUrl(received)).toBe(signed);
        expect(outcome({ ...(await signedRequest('POST', signed)), url: received })).toBe('ok');
      }),
      { numRuns: 300 },
    );
  });
});

describe('v2: the host and the body are signed too (X-Body-SHA256)', () => {
  const body = '{"agentId":"a","initialMessage":"hello"}';

  it('the SDK signs `v2:<METHOD>:<host><URL>:<TIMESTAMP>:<body SHA-256>` and sends the digest; the server verifies it', async () => {
    const headers = await signedHeaders(alice, 'post', '/api/conversations', { now: NOW, host: 'Market.Example:8443', body });
    expect(headers['X-Body-SHA256']).toBe(sha256(body));
    const message = `v2:POST:market.example:8443/api/conversations:${NOW}:${sha256(body)}`;
    expect(nacl.sign.detached.verify(bytes(message), bs58.decode(headers['X-Signature']), bs58.decode(alice.address))).toBe(true);
    const req = { method: 'POST', url: '/api/conversations', headers, host: 'market.example:8443', body: bytes(body) };
    expect(verifier.verify(req)).toEqual({ wallet: alice.address, timestamp: NOW, message });
  });

  it('a body other than the one signed is refused as body_mismatch, a digest changed to match it as wrong', async () => {
    const req = await v2Request('POST', '/api/conversations', { body });
    const other = bytes('{"agentId":"b","initialMessage":"hello"}');
    const error = failure({ ...req, body: other });
    expect([error.reason, error.message]).toEqual(['body_mismatch', 'The body does not match X-Body-SHA256 (hex SHA-256 of the body bytes as sent)']);
    expect(outcome({ ...req, body: other, headers: { ...req.headers, 'x-body-sha256': sha256(other) } })).toBe('wrong');
    expect(outcome({ ...req, body: undefined })).toBe('body_mismatch');
  });

  it('a signature verified once (remembered) is still checked against each body', async () => {
    const fresh = createWalletVerifier({ now: () => NOW });
    const req = await v2Request('GET', '/api/orders');
    expect(outcome(req, fresh)).toBe('ok');
    expect(outcome({ ...req, body: bytes('{}') }, fresh)).toBe('body_mismatch');
    expect(outcome(req, fresh)).toBe('ok');
  });

  it('no body is the digest of no bytes, whether the body is absent or empty', async () => {
    const req = await v2Request('POST', '/api/orders/1/complete');
    expect(req.headers['x-body-sha256']).toBe(EMPTY_BODY_SHA256);
    expect(outcome(req)).toBe('ok');
    expect(outcome({ ...req, body: new Uint8Array() })).toBe('ok');
  });

  it('a signature for another host is wrong; the Host header is compared in lower case', async () => {
    const req = await v2Request('POST', '/api/conversations', { host: 'staging.market.example', body });
    const error = failure({ ...req, host: 'market.example' });
    expect([error.reason, error.message]).toEqual(['wrong', 'Signature does not match X-Wallet-Address, method, host, URL, timestamp and X-Body-SHA256']);
    expect(outcome({ ...req, host: 'STAGING.market.example' })).toBe('ok');
  });

  it('with PUBLIC_BASE_URL, only its host: whatever Host a proxy passes on; a signature for the Host called is wrong_host', async () => {
    const behindProxy = createWalletVerifier({ now: () => NOW, publicBaseUrl: 'https://market.example/' });
    const forPublic = await v2Request('GET', '/api/orders', { host: 'market.example' });
    expect(outcome({ ...forPublic, host: '127.0.0.1:3000' }, behindProxy)).toBe('ok');
    const forCalled = await v2Request('GET', '/api/orders', { host: '127.0.0.1:3000' });
    const error = failure(forCalled, behindProxy);
    expect([error.reason, error.message]).toEqual(['wrong_host', 'Signed for host 127.0.0.1:3000, but this deployment is market.example: sign for that host']);
    const forOther = await v2Request('GET', '/api/orders', { host: 'staging.market.example' });
    expect(outcome({ ...forOther, host: '127.0.0.1:3000' }, behindProxy)).toBe('wrong');
  });

  it('without a Host header or PUBLIC_BASE_URL there is no host to check: wrong_host', async () => {
    const req = await v2Request('GET', '/api/orders');
    expect(outcome({ ...req, host: undefined })).toBe('wrong_host');
  });

  it('cannot be turned into v1 or back: each form verifies only as itself', async () => {
    const v2 = await v2Request('POST', '/api/orders', { body });
    const { 'x-body-sha256': _, ...withoutDigest } = v2.headers;
    expect(outcome({ ...v2, headers: withoutDigest })).toBe('wrong');
    const v1 = await signedRequest('POST', '/api/orders');
    expect(outcome({ ...v1, host: 'market.example', headers: { ...v1.headers, 'x-body-sha256': EMPTY_BODY_SHA256 } })).toBe('wrong');
    // v1 signatures are still accepted, whatever body and host come with them.
    expect(outcome({ ...v1, host: 'anywhere.example', body: bytes(body) })).toBe('ok');
  });

  it.each([
    ['upper-case hex', () => sha256('x').toUpperCase()],
    ['63 digits', () => sha256('x').slice(1)],
    ['base64', () => createHash('sha256').update('x').digest('base64url')],
    ['empty', () => ''],
    ['given twice', () => [EMPTY_BODY_SHA256, EMPTY_BODY_SHA256]],
  ])('an X-Body-SHA256 that is %s is malformed', async (_, value) => {
    const req = await v2Request('GET', '/api/orders');
    const error = failure({ ...req, headers: { ...req.headers, 'x-body-sha256': value() } });
    expect(error.reason).toBe('malformed');
    expect(error.message).toMatch(/^X-Body-SHA256 is/);
  });

  it('properties: any bytes round-trip; any changed byte is body_mismatch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), async (body, at) => {
        const headers = lowerCase(await signedHeaders(alice, 'POST', '/api/orders', { now: NOW, host: 'market.example', body }));
        const req = { method: 'POST', url: '/api/orders', headers, host: 'market.example', body };
        expect(outcome(req)).toBe('ok');
        const changed = Uint8Array.from(body);
        changed[at % body.length]! ^= 1;
        expect(outcome({ ...req, body: changed })).toBe('body_mismatch');
      }),
      { numRuns: 100 },
    );
  });
});

describe('a proof in the query string (/ws)', () => {
  it('signs the URL without timestamp, signature and body_sha256, in the order sent, and reads those as the headers', () => {
    const target = `/ws?wallet=${alice.address}&since=5&timestamp=${NOW}&signature=abc&body_sha256=${EMPTY_BODY_SHA256}`;
    expect(proofFromQuery(target)).toEqual({
      url: `/ws?wallet=${alice.address}&since=5`,
      headers: { 'x-wallet-address': alice.address, 'x-timestamp': String(NOW), 'x-signature': 'abc', 'x-body-sha256': EMPTY_BODY_SHA256 },
    });
    expect(proofFromQuery(`/ws?timestamp=1&since=5&signature=s&wallet=w`).url).toBe('/ws?since=5&wallet=w');
    expect(proofFromQuery('/ws?%74imestamp=1&signature=s').url).toBe('/ws');
    expect(proofFromQuery('/ws').url).toBe('/ws');
  });

  it('keeps repeated proof parameters repeated, so the verifier refuses them', async () => {
    const req = { method: 'GET', ...proofFromQuery(`/ws?wallet=${alice.address}&timestamp=${NOW}&signature=a&signature=b`) };
    expect(req.headers['x-signature']).toEqual(['a', 'b']);
    expect(outcome(req)).toBe('malformed');
  });

  it('a signature of the old form, `GET:/ws?wallet=<address>:<timestamp>`, is the same message', async () => {
    const { 'X-Signature': signature } = await signedHeaders(alice, 'GET', `/ws?wallet=${alice.address}`, NOW);
    const req = { method: 'GET', ...proofFromQuery(`/ws?wallet=${alice.address}&timestamp=${NOW}&signature=${signature}`) };
    expect(verifier.verify(req).message).toBe(`GET:/ws?wallet=${alice.address}:${NOW}`);
    // ...but no parameter added after signing goes unsigned.
    expect(outcome({ method: 'GET', ...proofFromQuery(`/ws?wallet=${alice.address}&timestamp=${NOW}&signature=${signature}&since=0`) })).toBe('wrong');
  });

  it('names such as __proto__ and constructor are plain parameters', () => {
    expect(proofFromQuery('/ws?__proto__=1&constructor=2&wallet=w')).toEqual({ url: '/ws?__proto__=1&constructor=2&wallet=w', headers: { 'x-wallet-address': 'w' } });
  });
});

describe('SDK keypairs', () => {
  it('generateKeypair gives a 32-byte base58 address matching its 64-byte secret key', () => {
    const { address, secretKey } = generateKeypair();
    expect(bs58.decode(address)).toHaveLength(32);
    expect(secretKey).toHaveLength(64);
    expect(keypairSigner(secretKey).address).toBe(address);
  });

  it('keypairSigner refuses a key that is not 64 bytes', () => {
    expect(() => keypairSigner(new Uint8Array(32))).toThrow(/64 bytes/);
  });
});

/** What the test server answers: the verified wallet and message, and what it received. */
interface Echo {
  wallet: string;
  message: string;
  contentType: string | null;
  body: string;
}
const echo = async (res: Response) => (await res.json()) as Echo;

describe('createSignedFetch against a node:http server', () => {
  let server: Server;
  let baseUrl: string;
  const serverVerifier = createWalletVerifier();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          const body = Buffer.concat(chunks);
          const { wallet, message } = serverVerifier.verify({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, host: req.headers.host, body });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ wallet, message, contentType: req.headers['content-type'] ?? null, body: body.toString() }));
        } catch (error) {
          const reason = error instanceof WalletSignatureError ? error.reason : 'crash';
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'INVALID_SIGNATURE', details: { reason } }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('a GET with a query string verifies on the server', async () => {
    const api = createSignedFetch(alice, baseUrl);
    const res = await api('/api/orders?status=PAID&limit=5');
    expect(res.status).toBe(200);
    const json = await echo(res);
    expect(json.wallet).toBe(alice.address);
    expect(json.message).toBe(`v2:GET:${new URL(baseUrl).host}/api/orders?status=PAID&limit=5:${json.message.split(':').at(-2)}:${EMPTY_BODY_SHA256}`);
    expect(json.contentType).toBeNull();
  });

  it('a POST with a body gets a JSON content type and verifies', async () => {
    const api = createSignedFetch(bob, `${baseUrl}/`);
    const res = await api('/api/messages', { method: 'post', body: JSON.stringify({ content: 'hi' }) });
    expect(res.status).toBe(200);
    const json = await echo(res);
    expect(json).toMatchObject({ wallet: bob.address, contentType: 'application/json', body: '{"content":"hi"}' });
    expect(json.message).toMatch(new RegExp(`^v2:POST:${new URL(baseUrl).host}/api/messages:\\d+:${sha256('{"content":"hi"}')}$`));
  });

  it('a bodiless POST signs the digest of no bytes', async () => {
    const res = await createSignedFetch(alice, baseUrl)('/api/orders/1/complete', { method: 'POST' });
    expect(res.status).toBe(200);
    expect((await echo(res)).message).toMatch(new RegExp(`^v2:POST:127\\.0\\.0\\.1:\\d+/api/orders/1/complete:\\d+:${EMPTY_BODY_SHA256}$`));
  });

  it('signs string, bytes, Blob and URLSearchParams bodies as sent; refuses FormData and streams before sending', async () => {
    const api = createSignedFetch(alice, baseUrl);
    for (const body of ['{"a":1}', bytes('{"a":1}'), bytes('x{"a":1}').subarray(1), new Blob(['{"a":1}']), new URLSearchParams({ a: '1' })]) {
      const res = await api('/api/upload', { method: 'POST', body });
      expect(res.status, String(body)).toBe(200);
    }
    await expect(api('/api/upload', { method: 'POST', body: new FormData() })).rejects.toThrow(TypeError);
    await expect(api('/api/upload', { method: 'POST', body: new Blob(['x']).stream(), duplex: 'half' } as RequestInit)).rejects.toThrow(TypeError);
  });

  it('keeps a content type the caller set', async () => {
    const api = createSignedFetch(alice, baseUrl);
    const res = await api('/api/upload', { method: 'PUT', body: 'x', headers: { 'Content-Type': 'text/plain' } });
    expect((await echo(res)).contentType).toBe('text/plain');
  });

  it('signs the path as it goes on the wire (percent-encoded)', async () => {
    const api = createSignedFetch(alice, baseUrl);
    const res = await api('/api/agents/search?q=code review');
    expect(res.status).toBe(200);
    expect((await echo(res)).message).toMatch(/^v2:GET:127\.0\.0\.1:\d+\/api\/agents\/search\?q=code%20review:\d+:[0-9a-f]{64}$/);
  });

  it('the signed headers replace caller headers of the same name', async () => {
    const api = createSignedFetch(alice, baseUrl);
    const res = await api('/api/orders', { headers: { 'X-Wallet-Address': bob.address } });
    expect((await echo(res)).wallet).toBe(alice.address);
  });

  it('the server refuses a forged X-Wallet-Address as wrong', async () => {
    const forged = await fetch(`${baseUrl}/api/orders`, {
      headers: { ...(await signedHeaders(alice, 'GET', '/api/orders')), 'X-Wallet-Address': bob.address },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: 'INVALID_SIGNATURE', details: { reason: 'wrong' } });
  });

  it('signs the path relative to a baseUrl with a path prefix', async () => {
    const seen: { url: string; headers: Headers }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, headers: new Headers(init.headers) });
      return new Response('{}');
    }) as typeof fetch;
    const api = createSignedFetch(alice, 'https://gateway.example/marketplace/', fakeFetch);
    await api('/api/orders?status=PAID');
    const [call] = seen;
    expect(call?.url).toBe('https://gateway.example/marketplace/api/orders?status=PAID');
    const headers = Object.fromEntries(call?.headers ?? []);
    expect(outcome({ method: 'GET', url: '/api/orders?status=PAID', headers, host: 'gateway.example' }, createWalletVerifier())).toBe('ok');
    await expect(api('/../other')).rejects.toThrow(TypeError);
    await expect(api('api/orders')).rejects.toThrow(TypeError);
  });
});

describe('without WebCrypto (a browser page served over plain http from another host than localhost)', () => {
  it('signedHeaders signs the v1 message, which servers still accept', async () => {
    vi.stubGlobal('crypto', {});
    try {
      const headers = await signedHeaders(alice, 'GET', '/api/orders', { now: NOW, host: 'market.example' });
      expect(Object.keys(headers)).toEqual(['X-Wallet-Address', 'X-Signature', 'X-Timestamp']);
      expect(verifier.verify({ method: 'GET', url: '/api/orders', headers, host: 'market.example' }).message).toBe(`GET:/api/orders:${NOW}`);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('timestamps', () => {
  it('are strictly increasing per signer, so requests signed in one millisecond never look replayed', async () => {
    const signer = keypairSigner(generateKeypair().secretKey);
    const stamps: number[] = [];
    for (let i = 0; i < 50; i++) stamps.push(Number((await signedHeaders(signer, 'POST', '/api/conversations'))['X-Timestamp']));
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]!);
    expect(Math.abs(stamps.at(-1)! - Date.now())).toBeLessThan(1_000);
  });
});
