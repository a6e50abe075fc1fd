/**
 * The v2 wallet signature over real HTTP (docs/marketplace.md "Signed requests"): with `X-Body-SHA256` the signature
 * covers this deployment's host and the body's bytes as received, on the REST facade and on native tRPC, so an unused
 * signature carries no other body and no other deployment's call. v1 signatures still work; the SDK sends v2.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplaceClient, createSignedFetch, signedHeaders, type SigningOptions } from '../../client-sdk/index.ts';
import { Message } from '../../server/marketplace/entities.ts';
import { registration, walletFor, type Wallet } from '../helpers/marketplace.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let provider: Wallet;
let consumer: Wallet;
let agentId: string;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: 'off' });
  provider = walletFor(server.url);
  consumer = walletFor(server.url);
  agentId = (await provider.sdk.agents.register(registration(provider.address))).id;
});
afterAll(() => server?.destroy());

const hostOf = (url: string) => new URL(url).host;

/** Sends `body` with the signature headers as given (a replay when they were made for another body). */
async function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(baseUrl + path, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The signature headers of `consumer` for a call, v2 when `options.host` is given. */
const signed = async (method: string, path: string, options: SigningOptions = {}) => ({ ...(await signedHeaders(consumer.signer, method, path, options)) }) as Record<string, string>;

const conversationBody = (initialMessage: string) => JSON.stringify({ agentId, clientWallet: consumer.address, initialMessage });
/** Messages with this text: a conversation's first message is one. */
const conversationsSaying = (content: string) => server.db.em().count(Message, { content });

describe('REST', () => {
  it('a signed call sent with a body its signer never wrote is refused (body_mismatch), changes nothing and uses nothing up', async () => {
    const body = conversationBody('as signed');
    const headers = await signed('POST', '/api/conversations', { host: hostOf(server.url), body });

    const forged = await send(server.url, 'POST', '/api/conversations', headers, conversationBody('never written'));
    expect(forged).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'body_mismatch' } } });
    expect(await conversationsSaying('never written')).toBe(0);

    const genuine = await send(server.url, 'POST', '/api/conversations', headers, body);
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(201);
    expect(await conversationsSaying('as signed')).toBe(1);
    expect((await send(server.url, 'POST', '/api/conversations', headers, body)).body.details).toEqual({ reason: 'replayed' });
  });

  it('a signature for another deployment is refused: signed for another host, it does not verify here', async () => {
    const body = conversationBody('for staging');
    const headers = await signed('POST', '/api/conversations', { host: 'staging.market.example', body });
    const res = await send(server.url, 'POST', '/api/conversations', headers, body);
    expect(res).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'wrong' } } });
    expect(await conversationsSaying('for staging')).toBe(0);
    const forThisHost = await signed('POST', '/api/conversations', { host: hostOf(server.url), body });
    expect((await send(server.url, 'POST', '/api/conversations', forThisHost, body)).status).toBe(201);
  });

  it('a malformed X-Body-SHA256 is refused as malformed', async () => {
    const headers = await signed('GET', '/api/orders', { host: hostOf(server.url) });
    const res = await send(server.url, 'GET', '/api/orders', { ...headers, 'X-Body-SHA256': headers['X-Body-SHA256']!.toUpperCase() });
    expect(res).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'malformed' } } });
  });

  it('v1 signatures (`METHOD:URL:TIMESTAMP`) still work; an X-Body-SHA256 added to one makes it wrong (v2 was not signed)', async () => {
    const body = conversationBody('signed the v1 way');
    const v1 = await signed('POST', '/api/conversations');
    const added = await send(server.url, 'POST', '/api/conversations', { ...v1, 'X-Body-SHA256': createHash('sha256').update(body).digest('hex') }, body);
    expect(added).toMatchObject({ status: 401, body: { details: { reason: 'wrong' } } });
    const created = await send(server.url, 'POST', '/api/conversations', v1, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await send(server.url, 'GET', `/api/conversations/${created.body.id}`, await signed('GET', `/api/conversations/${created.body.id}`));
    expect(read).toMatchObject({ status: 200, body: { id: created.body.id } });
  });

  it('createSignedFetch sends v2, with and without a body (a bodiless POST signs the digest of no bytes)', async () => {
    const sent: Headers[] = [];
    const api = createSignedFetch(consumer.signer, server.url, (url, init) => (sent.push(new Headers(init?.headers)), fetch(url, init)));
    const created = await api('/api/conversations', { method: 'POST', body: conversationBody('through the SDK') });
    expect(created.status).toBe(201);
    // No body: the signature verifies and the call reaches the service, which knows no such order.
    const bodiless = await api(`/api/orders/${randomUUID()}/complete`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect([bodiless.status, ((await bodiless.json()) as { error: string }).error]).toEqual([404, 'ORDER_NOT_FOUND']);
    expect(sent.map((headers) => headers.get('x-body-sha256'))).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855']);
  });
});

describe('native tRPC', () => {
  it('a mutation sent with a body its signer never wrote is refused (body_mismatch); the body as signed is accepted', async () => {
    const body = conversationBody('tRPC as signed');
    const headers = await signed('POST', '/trpc/conversations.create', { host: hostOf(server.url), body });
    const forged = await send(server.url, 'POST', '/trpc/conversations.create', headers, conversationBody('tRPC never written'));
    expect(forged.status).toBe(401);
    expect(forged.body.error.data).toMatchObject({ appCode: 'INVALID_SIGNATURE', details: { reason: 'body_mismatch' } });
    expect(await conversationsSaying('tRPC never written')).toBe(0);

    const genuine = await send(server.url, 'POST', '/trpc/conversations.create', headers, body);
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
    expect(genuine.body.result.data.id).toEqual(expect.any(String));
    expect(await conversationsSaying('tRPC as signed')).toBe(1);
  });

  it('the SDK client signs every call v2 and its queries and mutations pass', async () => {
    const sent: Headers[] = [];
    const sdk = createMarketplaceClient({
      baseUrl: server.url,
      wallet: consumer.signer,
      fetch: (url, init) => (sent.push(new Headers(init?.headers)), fetch(url, init)),
    });
    const conversation = await sdk.conversations.create({ agentId, clientWallet: consumer.address, initialMessage: 'typed client' });
    expect((await sdk.conversations.get(conversation.id)).id).toBe(conversation.id);
    expect(sent).toHaveLength(2);
    for (const headers of sent) expect(headers.get('x-body-sha256')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('behind PUBLIC_BASE_URL', () => {
  let proxied: TestServer;
  let wallet: Wallet;
  beforeAll(async () => {
    proxied = await startTestServer({ rateLimits: 'off', publicBaseUrl: 'https://market.example' });
    wallet = walletFor(proxied.url);
  });
  afterAll(() => proxied?.destroy());

  it("a v2 signature names PUBLIC_BASE_URL's host whatever Host the request came with; one for the host called is wrong_host", async () => {
    const body = JSON.stringify(registration(wallet.address));
    const forCalled = await signedHeaders(wallet.signer, 'POST', '/api/agents/register', { host: hostOf(proxied.url), body });
    const refused = await send(proxied.url, 'POST', '/api/agents/register', { ...forCalled }, body);
    expect(refused).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'wrong_host' } } });
    expect(refused.body.message).toBe(`Signed for host ${hostOf(proxied.url)}, but this deployment is market.example: sign for that host`);

    const forPublic = await signedHeaders(wallet.signer, 'POST', '/api/agents/register', { host: 'market.example', body });
    expect((await send(proxied.url, 'POST', '/api/agents/register', { ...forPublic }, body)).status).toBe(201);
  });
});

describe('through a proxy that re-encodes the URL (docs/marketplace.md "The signed URL\'s canonical form")', () => {
  let proxy: Server;
  let proxyUrl: string;
  /** The request targets the server received from the proxy. */
  const forwarded: string[] = [];
  beforeAll(async () => {
    // Escapes `:` and upper-cases every escape's hex, as some proxies and gateways do; passes the client's Host on.
    proxy = createServer((req, res) => {
      const url = (req.url ?? '/').replace(/:/g, '%3A').replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
      forwarded.push(url);
      const upstream = request(new URL(url, server.url), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy?.close(() => resolve())));

  it('a call signed by the SDK still verifies when the proxy sends `10:30` on as `10%3A30` and `%3a` as `%3A`', async () => {
    const api = createSignedFetch(consumer.signer, proxyUrl);
    for (const path of ['/api/orders?note=10:30&limit=5', '/api/orders?note=10%3a30&limit=5']) {
      const res = await api(path);
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect(forwarded.slice(-2)).toEqual(['/api/orders?note=10%3A30&limit=5', '/api/orders?note=10%3A30&limit=5']);
  });

  it('the same signed call, once through the proxy and once directly, is one use: the second is replayed', async () => {
    const body = conversationBody('at 10:30');
    const path = '/api/conversations?at=10:30';
    // Signed for the proxy's host, which it passes on: the direct call names the same host.
    const headers = await signed('POST', path, { host: hostOf(proxyUrl), body });
    const viaProxy = await send(proxyUrl, 'POST', path, headers, body);
    expect(viaProxy.status, JSON.stringify(viaProxy.body)).toBe(201);
    // node:http, not fetch: fetch does not send a Host header of the caller's.
    const direct = await new Promise<string>((resolve, reject) => {
      const headersSent = { ...headers, host: hostOf(proxyUrl), 'content-type': 'application/json' };
      request(new URL(path, server.url), { method: 'POST', headers: headersSent }, (res) => res.setEncoding('utf8').on('data', resolve))
        .on('error', reject)
        .end(body);
    });
    expect(JSON.parse(direct).details).toEqual({ reason: 'replayed' });
    expect(await conversationsSaying('at 10:30')).toBe(1);
  });

  it('a change of meaning is no re-encoding: `%26` (a literal &) signed, `&` received, is refused', async () => {
    const path = '/api/orders?note=a%26limit=5';
    const headers = await signed('GET', path, { host: hostOf(server.url) });
    const res = await send(server.url, 'GET', '/api/orders?note=a&limit=5', headers);
    expect(res).toMatchObject({ status: 401, body: { details: { reason: 'wrong' } } });
  });
});
