/**
 * Calls whose body is optional, made with no body at all (issue 36 item 1): no Content-Length, no Transfer-Encoding
 * and no Content-Type, as `curl -X POST` sends them (raw HTTP here: fetch and node:http send `Content-Length: 0`),
 * and with `Content-Length: 0` as fetch and the SDK's createSignedFetch send them. Each is read as no input, like
 * `{}`, and answers its documented success (docs/resource-management.md "Updating resources", docs/marketplace.md
 * "Request bodies", docs/docs-hosting.md). A body still needs `Content-Type: application/json`.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedFetch, signedHeaders } from '../../client-sdk/index.ts';
import type { GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { hostingConfig, smallDocsRepo, webhookSignature } from '../helpers/hosting.ts';
import type { Wallet } from '../helpers/marketplace.ts';
import { agentAndConsumer, createOrder, deliveredOrder, fund, type Parties } from '../helpers/orders.ts';
import { asset, employee, restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let dns: DnsStandIn;
let repo: GitFixture;
let apiKey: string;
let rest: Rest;
let p: Parties;
let webhookSecret: string;
const site = 'acme/bodiless';
const domain = 'bodiless.acme.test';

beforeAll(async () => {
  dns = await startDnsStandIn();
  // Builds are only queued (none runs): publishing answers the queued build.
  server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ buildConcurrency: 0, dnsServers: [dns.server] }) });
  ({ apiKey } = await createOrganization(server));
  rest = restClient(server.url, apiKey);
  repo = smallDocsRepo();
  const registered = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'bodiless', source: repo.dir });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  webhookSecret = registered.body.webhookSecret;
  const mapped = await rest('POST', '/api/docs/domains', { hostname: domain, owner: 'acme', repo: 'bodiless' });
  dns.txt(mapped.body.verification.name, [mapped.body.verification.value]);
  p = await agentAndConsumer(server.url);
  await fund(server.url, p.client.address, 100);
}, 60_000);
afterAll(async () => {
  await server?.destroy();
  await dns?.close();
  repo?.cleanup();
});

interface Answer {
  status: number;
  body: any;
}

/**
 * A request with no body at all over raw HTTP/1.1: no Content-Length, no Transfer-Encoding, no Content-Type (unless
 * `headers` names one).
 */
async function bodiless(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port, host } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  // Written, not ended: a client that half-closes its side is answered with nothing by node:http. `Connection: close`
  // has the server end the connection after its answer.
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const response = Buffer.concat(await socket.toArray());
  const split = response.indexOf('\r\n\r\n');
  const head = response.subarray(0, split).toString('latin1');
  const body = response.subarray(split + 4);
  const text = (/^transfer-encoding: chunked/im.test(head) ? dechunk(body) : body).toString('utf8');
  return { status: Number(head.split(' ')[1]), body: text ? JSON.parse(text) : undefined };
}

/** A chunked body's bytes (tRPC answers chunked). */
function dechunk(chunked: Buffer): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; ; ) {
    const eol = chunked.indexOf('\r\n', at);
    const size = parseInt(chunked.subarray(at, eol).toString('latin1'), 16);
    if (!size) return Buffer.concat(chunks);
    chunks.push(chunked.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** The same request through fetch without a body: `Content-Length: 0`, no Content-Type. */
async function emptyFetch(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(server.url + path, { method, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const auth = () => ({ authorization: `Bearer ${apiKey}` });
/** A wallet's v2 signature of a call with no body (the SHA-256 of no bytes), for this server's host. */
const signed = async (wallet: Wallet, method: string, path: string) =>
  ({ ...(await signedHeaders(wallet.signer, method, path, { host: new URL(server.url).host })) }) as Record<string, string>;
/** The SDK's signed fetch (docs/marketplace.md "Signing with the SDK"), called without a body. */
const sdkCall = async (wallet: Wallet, method: string, path: string): Promise<Answer> => {
  const res = await createSignedFetch(wallet.signer, server.url)(path, { method });
  return { status: res.status, body: await res.json() };
};
const said = (answer: Answer) => [answer.status, answer.body];

describe('a call whose body is optional, sent without one, answers its documented success', () => {
  it('PUT /employee-resources/{resourceId}: 200, nothing changed', async () => {
    const input = employee({ role: 'Engineer' });
    expect((await rest('POST', '/employee-resources', input)).status).toBe(201);
    const path = `/employee-resources/${input.resourceId}`;
    for (const send of [bodiless, emptyFetch]) {
      expect(said(await send('PUT', path, auth())), send.name).toEqual([200, { message: 'Employee resource updated' }]);
    }
    const [stored] = (await rest('GET', '/employee-resources')).body.filter((e: { resourceId: string }) => e.resourceId === input.resourceId);
    expect(stored).toEqual(input);
  });

  it('PUT /asset-resources/{resourceId}: 200, nothing changed', async () => {
    const input = asset();
    expect((await rest('POST', '/asset-resources', input)).status).toBe(201);
    for (const send of [bodiless, emptyFetch]) {
      expect(said(await send('PUT', `/asset-resources/${input.resourceId}`, auth())), send.name).toEqual([200, { message: 'Asset resource updated' }]);
    }
    const [stored] = (await rest('GET', '/asset-resources')).body.filter((a: { resourceId: string }) => a.resourceId === input.resourceId);
    expect(stored).toMatchObject(input);
  });

  it('PATCH /api/agents/{id}: 200 with its id, nothing changed (raw HTTP and createSignedFetch)', async () => {
    const path = `/api/agents/${p.agentId}`;
    const before = (await (await fetch(server.url + path)).json()) as Record<string, unknown>;
    const raw = await bodiless('PATCH', path, await signed(p.agent, 'PATCH', path));
    expect([raw.status, raw.body.id], JSON.stringify(raw.body)).toEqual([200, p.agentId]);
    const sdk = await sdkCall(p.agent, 'PATCH', path);
    expect([sdk.status, sdk.body.id], JSON.stringify(sdk.body)).toEqual([200, p.agentId]);
    const { updatedAt: _, ...unchanged } = before;
    expect(await (await fetch(server.url + path)).json()).toMatchObject(unchanged);
  });

  it('POST /api/orders/{id}/cancel: 200, the order CANCELLED (raw HTTP by the consumer, createSignedFetch by the agent)', async () => {
    const byConsumer = await createOrder(p);
    const path = `/api/orders/${byConsumer.id}/cancel`;
    const raw = await bodiless('POST', path, await signed(p.client, 'POST', path));
    expect([raw.status, raw.body.id, raw.body.status], JSON.stringify(raw.body)).toEqual([200, byConsumer.id, 'CANCELLED']);
    const byAgent = await createOrder(p);
    const sdk = await sdkCall(p.agent, 'POST', `/api/orders/${byAgent.id}/cancel`);
    expect([sdk.status, sdk.body.id, sdk.body.status], JSON.stringify(sdk.body)).toEqual([200, byAgent.id, 'CANCELLED']);
  });

  it('POST /api/orders/{id}/complete: 200, the order COMPLETED (raw HTTP and createSignedFetch)', async () => {
    const first = await deliveredOrder(server.url, p);
    const path = `/api/orders/${first.id}/complete`;
    const raw = await bodiless('POST', path, await signed(p.client, 'POST', path));
    expect([raw.status, raw.body.id, raw.body.status], JSON.stringify(raw.body)).toEqual([200, first.id, 'COMPLETED']);
    const second = await deliveredOrder(server.url, p);
    const sdk = await sdkCall(p.client, 'POST', `/api/orders/${second.id}/complete`);
    expect([sdk.status, sdk.body.id, sdk.body.status], JSON.stringify(sdk.body)).toEqual([200, second.id, 'COMPLETED']);
  });

  it('POST /api/docs/repositories/{owner}/{repo}/publish: 200, the build of the default branch', async () => {
    for (const send of [bodiless, emptyFetch]) {
      const res = await send('POST', `/api/docs/repositories/${site}/publish`, auth());
      expect([res.status, res.body?.commit, res.body?.refs], `${send.name} ${JSON.stringify(res)}`).toEqual([200, repo.git('rev-parse', 'HEAD'), ['refs/heads/main']]);
    }
  });

  it('POST /api/docs/domains/{hostname}/verify: 200, the domain proven', async () => {
    for (const send of [bodiless, emptyFetch]) {
      const res = await send('POST', `/api/docs/domains/${domain}/verify`, auth());
      expect([res.status, res.body?.hostname, res.body?.verified], `${send.name} ${JSON.stringify(res)}`).toEqual([200, domain, true]);
    }
  });

  it('POST /api/docs/repositories/{owner}/{repo}/webhook: a ping signed over no bytes answers 200', async () => {
    const headers = { 'x-github-event': 'ping', 'x-hub-signature-256': webhookSignature(webhookSecret, '') };
    for (const send of [bodiless, emptyFetch]) {
      expect(said(await send('POST', `/api/docs/repositories/${site}/webhook`, headers)), send.name).toEqual([200, { event: 'ping', builds: [] }]);
    }
  });
});

describe('what counts as no body', () => {
  it('no body, `Content-Length: 0` with any content type or none, an empty chunked JSON body and `{}` are the same call', async () => {
    const input = employee();
    expect((await rest('POST', '/employee-resources', input)).status).toBe(201);
    const path = `/employee-resources/${input.resourceId}`;
    const updated = [200, { message: 'Employee resource updated' }];
    expect(said(await bodiless('PUT', path, auth()))).toEqual(updated);
    expect(said(await bodiless('PUT', path, { ...auth(), 'content-length': '0' }))).toEqual(updated);
    for (const contentType of ['application/json', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      expect(said(await emptyFetch('PUT', path, { ...auth(), 'content-type': contentType })), contentType).toEqual(updated);
    }
    const chunked = await fetch(server.url + path, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: new ReadableStream({ start: (controller) => controller.close() }),
      duplex: 'half',
    } as RequestInit);
    expect([chunked.status, await chunked.json()]).toEqual(updated);
    expect(said(await rest('PUT', path, {}))).toEqual(updated);
    // The same without the key: 401, so the input was read (as nothing) before the key was checked.
    expect((await bodiless('PUT', path)).status).toBe(401);
  });

  it('only a body needs `Content-Type: application/json`: a body without it, or with another, is refused (400) and changes nothing', async () => {
    const path = `/api/agents/${p.agentId}`;
    expect((await bodiless('PATCH', path, await signed(p.agent, 'PATCH', path))).status).toBe(200);
    const body = JSON.stringify({ name: 'Renamed without a content type' });
    for (const contentType of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const headers = { ...(await signedHeaders(p.agent.signer, 'PATCH', path, { host: new URL(server.url).host, body })), ...(contentType ? { 'content-type': contentType } : {}) };
      const res = await fetch(server.url + path, { method: 'PATCH', headers, body: new TextEncoder().encode(body) });
      expect([res.status, await res.json()], String(contentType)).toMatchObject([400, { error: 'INVALID_REQUEST', message: 'Content-Type must be application/json' }]);
    }
    expect(((await (await fetch(server.url + path)).json()) as { name: string }).name).not.toBe('Renamed without a content type');
  });

  it('a call whose body is required, sent without one, names each missing field (not the content type)', async () => {
    const res = await bodiless('POST', '/employee-resources', auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Invalid request: .*resourceName: /);
    const order = await bodiless('POST', '/api/orders', await signed(p.agent, 'POST', '/api/orders'));
    expect([order.status, order.body.error, Object.keys(order.body.details)]).toEqual([422, 'VALIDATION_ERROR', expect.arrayContaining(['conversationId', 'price'])]);
  });

  it('native /trpc: a POST without a body needs no content type either; it is validated as no input (400), not refused (415)', async () => {
    const res = await bodiless('POST', '/trpc/resources.employees.update', auth());
    expect([res.status, res.body.error.data.appCode]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
