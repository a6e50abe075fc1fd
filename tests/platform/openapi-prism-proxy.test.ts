/**
 * openapi.json against the real server's traffic: Stoplight Prism in proxy mode (`prism proxy openapi.json <server>
 * --errors`) in front of the real server while a representative flow of REST calls passes through it: the happy
 * path of every operation and its main error statuses, made by the suite's own helpers (restClient, walletFor,
 * the order and hosting helpers) with their base URL pointed at Prism. Prism checks each request against the
 * document (parameters, bodies, security) and each answer (status, headers, body); with `--errors` an answer that
 * breaks its schema becomes Prism's 500 and a request the document calls invalid Prism's own 422 or 401. Every
 * finding (the `sl-violations` header, warnings included, or an answer of Prism's own) fails the test, listed with
 * the operation and status.
 *
 * Two Prism processes: `strict` validates requests and carries every call a correct client makes (the errors
 * included: 404, 409, 403, 401 with a wrong signature); `lenient` (`--validate-request=false`) carries the calls
 * that are invalid on purpose (bodies, parameters, 413), whose answers (400/422/413) are then validated too.
 *
 * The server runs with PUBLIC_BASE_URL = the strict Prism's URL, as a deployment behind a proxy does: wallets sign
 * for the host they call (Prism's), and the server checks v2 signatures against that host. Prism forwards the path
 * as sent and re-serialises the query (URLSearchParams: `:` becomes `%3A`), and re-serialises JSON bodies (the
 * same bytes for the compact JSON clients send). The embedded ledger's JSON-RPC (/dev/solana-rpc, not a REST
 * operation) is called on the server directly.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeypair } from '../../client-sdk/index.ts';
import type { GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { hostingConfig, settled, smallDocsRepo, webhookSignature, type Build } from '../helpers/hosting.ts';
import { registration, walletFor, type Wallet } from '../helpers/marketplace.ts';
import { freePort } from '../../scripts/lib/free-port.ts';
import { documentOf, operationOf, operationsOf, scratchDir, startPrism, writeDocument, type Operation, type Prism } from '../helpers/openapi-contract.ts';
import { openTokenAccount, paymentHeader } from '../helpers/orders.ts';
import { asset, employee, restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

interface Exchange {
  via: 'strict' | 'lenient';
  method: string;
  url: string;
  /** Whether the request carried a body. */
  withBody: boolean;
  /** `METHOD /template` of the document, or undefined when no operation matches. */
  operation: string | undefined;
  status: number;
  /** Prism's findings: its sl-violations header and its own error answers. */
  findings: string[];
}

let server: TestServer;
let dns: DnsStandIn;
let strict: Prism;
let lenient: Prism;
let apiKey: string;
let operations: Operation[];
const scratch = scratchDir('openapi-prism-');
const exchanges: Exchange[] = [];
const realFetch = globalThis.fetch;

/** Every response from a Prism is recorded with what Prism found in it, whatever helper made the call. */
async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await realFetch(input, init);
  const url = input instanceof Request ? input.url : String(input);
  const via = strict && url.startsWith(strict.url) ? 'strict' : lenient && url.startsWith(lenient.url) ? 'lenient' : undefined;
  if (!via) return res;
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const findings: string[] = [];
  const header = res.headers.get('sl-violations');
  if (header) {
    try {
      for (const v of JSON.parse(header) as { severity: string; location?: string[]; code?: string | number; message: string }[]) {
        findings.push(`${v.severity} at ${(v.location ?? []).join('.') || '?'}: ${v.message}`);
      }
    } catch {
      findings.push(`sl-violations: ${header.slice(0, 2000)}`);
    }
  }
  if (/problem\+json/.test(res.headers.get('content-type') ?? '')) {
    const problem = (await res.clone().json().catch(() => ({}))) as { type?: string; title?: string; detail?: string; validation?: { location?: string[]; message: string; severity?: string }[] };
    findings.push(`Prism answered ${res.status} ${problem.type ?? ''} ${problem.title ?? ''}${problem.detail ? `: ${problem.detail}` : ''}`.trim());
    for (const v of problem.validation ?? []) findings.push(`  ${v.severity ?? ''} at ${(v.location ?? []).join('.') || '?'}: ${v.message}`);
  }
  const withBody = (init?.body ?? null) !== null || (input instanceof Request && input.body !== null);
  exchanges.push({ via, method, url, withBody, operation: operationOf(operations, method, url)?.name, status: res.status, findings });
  return res;
}

/** A wallet of the strict Prism's host whose calls go to the lenient Prism (signed for the host the server is told). */
const lenientWallet = (wallet: Wallet) =>
  walletFor(strict.url, wallet.secretKey, (url, init) => globalThis.fetch(String(url).replace(strict.url, lenient.url), init));

/** Asserts a status softly (the flow goes on, every mismatch is listed), with the answer's body in the message. */
function expectStatus<R extends { status: number; body?: any }>(label: string, res: R, status: number): R {
  expect.soft(res.status, `${label} answered ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  return res;
}

/** A signed call whose signature is wrong: the headers are there (Prism's security check passes), the server refuses. */
async function badlySigned(method: string, path: string, body?: unknown, via = strict) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await globalThis.fetch(`${via.url}${path}`, {
    method,
    headers: {
      'x-wallet-address': generateKeypair().address,
      'x-signature': '1'.repeat(88),
      'x-timestamp': String(Date.now()),
      'x-body-sha256': createHash('sha256').update(text ?? '').digest('hex'),
      ...(text === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(text === undefined ? {} : { body: text }),
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

const randomId = () => randomUUID();
const big = (bytes: number) => 'x'.repeat(bytes);
const hex = (bytes: number) => Array.from({ length: bytes }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('');

beforeAll(async () => {
  globalThis.fetch = recordingFetch as typeof fetch;
  dns = await startDnsStandIn();
  const strictPort = await freePort();
  server = await startTestServer({ publicBaseUrl: `http://127.0.0.1:${strictPort}`, docs: hostingConfig({ dnsServers: [dns.server] }) });
  // The document as this server serves it (its servers entry: the strict Prism, the server's PUBLIC_BASE_URL).
  const doc = await documentOf(server.url);
  operations = operationsOf(doc);
  const file = writeDocument(doc, scratch.dir);
  [strict, lenient] = await Promise.all([startPrism(file, server.url, { port: strictPort }), startPrism(file, server.url, { validateRequest: false })]);
  apiKey = (await createOrganization(server)).apiKey;
}, 90_000);

afterAll(async () => {
  globalThis.fetch = realFetch;
  await Promise.all([strict?.stop(), lenient?.stop()]);
  await server?.destroy();
  await dns?.close();
  scratch.remove();
});

/** A repository webhook as GitHub describes it to its deliveries. */
const githubHook = () => ({ id: 4_812_000 + Math.floor(Math.random() * 1000), installationTarget: 98_765_432 });
type GithubHook = ReturnType<typeof githubHook>;

const githubRepository = {
  id: 98_765_432,
  node_id: 'R_kgDOLa7xmA',
  name: 'widgets',
  full_name: 'acme/widgets',
  private: false,
  owner: { name: 'acme', email: null, login: 'acme', id: 1_234_567, node_id: 'O_kgDOABLZhw', type: 'Organization', site_admin: false, url: 'https://api.github.com/users/acme', html_url: 'https://github.com/acme' },
  html_url: 'https://github.com/acme/widgets',
  description: 'Widgets documentation',
  fork: false,
  url: 'https://github.com/acme/widgets',
  clone_url: 'https://github.com/acme/widgets.git',
  git_url: 'git://github.com/acme/widgets.git',
  ssh_url: 'git@github.com:acme/widgets.git',
  created_at: 1_733_000_000,
  updated_at: '2026-11-30T09:12:44Z',
  pushed_at: 1_764_495_164,
  size: 212,
  stargazers_count: 3,
  default_branch: 'main',
  master_branch: 'main',
  organization: 'acme',
  topics: ['docs'],
  visibility: 'public',
};
const githubSender = { login: 'ada', id: 7_654_321, node_id: 'U_kgDOAHTKsQ', type: 'User', site_admin: false, html_url: 'https://github.com/ada' };

/** A push of one commit to main, as GitHub delivers it (the fields of its push event payload). */
function githubPush(after: string) {
  const before = hex(20);
  const commit = {
    id: after,
    tree_id: hex(20),
    distinct: true,
    message: 'Docs: the quick start names the new flag',
    timestamp: '2026-11-30T10:12:40+01:00',
    url: `https://github.com/acme/widgets/commit/${after}`,
    author: { name: 'Ada Lovelace', email: 'ada@example.com', username: 'ada' },
    committer: { name: 'GitHub', email: 'noreply@github.com', username: 'web-flow' },
    added: [],
    removed: [],
    modified: ['index.mdx'],
  };
  return {
    ref: 'refs/heads/main',
    before,
    after,
    repository: githubRepository,
    pusher: { name: 'ada', email: 'ada@example.com' },
    organization: { login: 'acme', id: 1_234_567, node_id: 'O_kgDOABLZhw', url: 'https://api.github.com/orgs/acme', description: null },
    sender: githubSender,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/acme/widgets/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits: [commit],
    head_commit: commit,
  };
}

/** The ping GitHub sends when the hook is created. */
const githubPing = (hook: GithubHook) => ({
  zen: 'Design for failure.',
  hook_id: hook.id,
  hook: {
    type: 'Repository',
    id: hook.id,
    name: 'web',
    active: true,
    events: ['push', 'pull_request'],
    config: { content_type: 'json', insecure_ssl: '0', url: `${strict.url}/api/docs/repositories/acme/widgets/webhook` },
    updated_at: '2026-11-30T09:12:44Z',
    created_at: '2026-11-30T09:12:44Z',
    url: `https://api.github.com/repos/acme/widgets/hooks/${hook.id}`,
    test_url: `https://api.github.com/repos/acme/widgets/hooks/${hook.id}/test`,
    ping_url: `https://api.github.com/repos/acme/widgets/hooks/${hook.id}/pings`,
    deliveries_url: `https://api.github.com/repos/acme/widgets/hooks/${hook.id}/deliveries`,
    last_response: { code: null, status: 'unused', message: null },
  },
  repository: githubRepository,
  sender: githubSender,
});

/** GitHub's two signature headers of a body under the hook's secret. */
const githubSignatures = (secret: string, body: string) => ({
  'X-Hub-Signature': `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
  'X-Hub-Signature-256': webhookSignature(secret, body),
});

/** One delivery with GitHub's headers (as its "Recent Deliveries" page shows them). */
async function githubDelivery(url: string, event: string, hook: GithubHook, body: string, signatures: Record<string, string>) {
  const res = await globalThis.fetch(url, {
    method: 'POST',
    headers: {
      Accept: '*/*',
      'Content-Type': 'application/json',
      'User-Agent': 'GitHub-Hookshot/8c3f0a1',
      'X-GitHub-Delivery': randomUUID(),
      'X-GitHub-Event': event,
      'X-GitHub-Hook-ID': String(hook.id),
      'X-GitHub-Hook-Installation-Target-ID': String(hook.installationTarget),
      'X-GitHub-Hook-Installation-Target-Type': 'repository',
      ...signatures,
    },
    body,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

describe('the resource API through Prism', () => {
  it('creates, lists and updates employees and assets; 400, 401, 404, 409, 413', async () => {
    const rest = restClient(strict.url, apiKey);
    const loose = restClient(lenient.url, apiKey);
    const e = employee({ resourceId: `emp:${randomUUID()}@x`, phone: '+44 20 7946 0958', calendarSync: 'GCal', role: 'Engineer' });
    expectStatus('create employee', await rest('POST', '/employee-resources', e), 201);
    expectStatus('duplicate employee', await rest('POST', '/employee-resources', e), 409);
    expectStatus('employee with a bad email', await loose('POST', '/employee-resources', employee({ email: 'not-an-email' })), 400);
    expectStatus('employee over 100 kB', await loose('POST', '/employee-resources', employee({ note: big(110_000) })), 413);
    expectStatus('list employees', await rest('GET', '/employee-resources'), 200);
    expectStatus('list employees, unknown key', await restClient(strict.url, 'rk_unknown')('GET', '/employee-resources'), 401);
    const path = `/employee-resources/${encodeURIComponent(e.resourceId)}`;
    expectStatus('update employee', await rest('PUT', path, { role: 'Lead', note: null }), 200);
    expectStatus('update employee, no body', await rest('PUT', path), 200);
    expectStatus('update unknown employee', await rest('PUT', '/employee-resources/no-such-employee', { role: 'x' }), 404);
    expectStatus('update employee with an identifier', await loose('PUT', path, { userId: 'u2' }), 400);

    const a = asset({ note: 'second floor', notificationsEnabled: true });
    expectStatus('create asset', await rest('POST', '/asset-resources', a), 201);
    expectStatus('duplicate asset', await rest('POST', '/asset-resources', a), 409);
    expectStatus('asset with a bad list', await loose('POST', '/asset-resources', { ...a, userIdsToNotify: 'user-1' }), 400);
    expectStatus('list assets', await rest('GET', '/asset-resources'), 200);
    expectStatus('list assets, unknown key', await restClient(strict.url, 'rk_unknown')('GET', '/asset-resources'), 401);
    expectStatus('update asset', await rest('PUT', `/asset-resources/${a.resourceId}`, { isActive: false, displayPictureUri: null }), 200);
    expectStatus('update asset, no body', await rest('PUT', `/asset-resources/${a.resourceId}`), 200);
    expectStatus('update unknown asset', await rest('PUT', '/asset-resources/no-such-asset', { isActive: false }), 404);
    expectStatus('update asset over 100 kB', await loose('PUT', `/asset-resources/${a.resourceId}`, { note: big(110_000) }), 413);

    expectStatus('all resources', await rest('GET', '/all-resources'), 200);
    const { orgId } = (await rest('GET', '/all-resources')).body.employees[0] as { orgId: string };
    expectStatus('all resources of the own organization', await rest('GET', `/all-resources?orgId=${orgId}`), 200);
    expectStatus('all resources, bad orgId', await loose('GET', `/all-resources?orgId=${big(129)}`), 400);
  }, 60_000);
});

describe('the marketplace through Prism', () => {
  it('agents, conversations, a whole order paid in USDC and its review, complete, cancel and delete; their errors', async () => {
    const provider = walletFor(strict.url);
    const consumer = walletFor(strict.url);
    const stranger = walletFor(strict.url);
    const public_ = restClient(strict.url, null);
    const loosePublic = restClient(lenient.url, null);
    await openTokenAccount(server.url, provider); // the ledger's JSON-RPC, on the server directly

    expectStatus('payments config', await public_('GET', '/api/payments/config'), 200);
    expectStatus('faucet', await public_('POST', '/dev/faucet', { wallet: consumer.address, amount: 200 }), 200);
    expectStatus('faucet, negative amount', await loosePublic('POST', '/dev/faucet', { wallet: consumer.address, amount: -5 }), 422);
    expectStatus('faucet, not JSON', await loosePublic('POST', '/dev/faucet', 'wallet=x', { 'content-type': 'text/plain' }), 400);

    // Agents
    const registered = expectStatus('register', await provider.rest('POST', '/api/agents/register', registration(provider.address, { avatarUrl: 'https://cdn.example.com/a.png' })), 201);
    const agentId = registered.body?.id as string;
    expectStatus('register again', await provider.rest('POST', '/api/agents/register', registration(provider.address)), 409);
    expectStatus('register for another wallet', await stranger.rest('POST', '/api/agents/register', registration(provider.address)), 403);
    expectStatus('register, wrong signature', await badlySigned('POST', '/api/agents/register', registration(provider.address)), 401);
    expectStatus('register without categories', await lenientWallet(stranger).rest('POST', '/api/agents/register', registration(stranger.address, { categories: [] })), 422);
    expectStatus('search', await public_('GET', '/api/agents/search?query=legal&category=Translation&limit=10&offset=0'), 200);
    expectStatus('search, limit too large', await loosePublic('GET', '/api/agents/search?limit=100000'), 422);
    expectStatus('agent', await public_('GET', `/api/agents/${agentId}`), 200);
    expectStatus('unknown agent', await public_('GET', `/api/agents/${randomId()}`), 404);
    expectStatus('agent, not a UUID', await loosePublic('GET', '/api/agents/not-a-uuid'), 422);
    expectStatus('update agent', await provider.rest('PATCH', `/api/agents/${agentId}`, { tagline: 'Faster now', avatarUrl: null }), 200);
    expectStatus("update another's agent", await stranger.rest('PATCH', `/api/agents/${agentId}`, { tagline: 'Mine' }), 403);
    expectStatus('update unknown agent', await provider.rest('PATCH', `/api/agents/${randomId()}`, { tagline: 'x' }), 404);
    expectStatus('stats', await provider.rest('GET', `/api/agents/${agentId}/stats`), 200);
    expectStatus("another's stats", await stranger.rest('GET', `/api/agents/${agentId}/stats`), 403);

    // Conversations
    const conversation = expectStatus(
      'open conversation',
      await consumer.rest('POST', '/api/conversations', { agentId, clientWallet: consumer.address, initialMessage: 'Hello' }, { 'Idempotency-Key': randomUUID() }),
      201,
    );
    const conversationId = conversation.body?.id as string;
    expectStatus('conversation with an unknown agent', await consumer.rest('POST', '/api/conversations', { agentId: randomId(), clientWallet: consumer.address, initialMessage: 'Hi' }), 404);
    expectStatus('conversation over 100 kB', await lenientWallet(consumer).rest('POST', '/api/conversations', { agentId, clientWallet: consumer.address, initialMessage: big(110_000) }), 413);
    expectStatus('conversation', await consumer.rest('GET', `/api/conversations/${conversationId}`), 200);
    expectStatus("another's conversation", await stranger.rest('GET', `/api/conversations/${conversationId}`), 403);
    expectStatus('unknown conversation', await consumer.rest('GET', `/api/conversations/${randomId()}`), 404);
    const key = randomUUID();
    expectStatus('send', await provider.rest('POST', `/api/conversations/${conversationId}/messages`, { senderWallet: provider.address, content: 'Hi there' }, { 'Idempotency-Key': key }), 201);
    expectStatus('send, replayed', await provider.rest('POST', `/api/conversations/${conversationId}/messages`, { senderWallet: provider.address, content: 'Hi there' }, { 'Idempotency-Key': key }), 201);
    expectStatus('send, key reused for another body', await provider.rest('POST', `/api/conversations/${conversationId}/messages`, { senderWallet: provider.address, content: 'Other' }, { 'Idempotency-Key': key }), 409);
    expectStatus('send to another conversation', await stranger.rest('POST', `/api/conversations/${conversationId}/messages`, { senderWallet: stranger.address, content: 'Hi' }), 403);
    expectStatus('messages', await consumer.rest('GET', `/api/conversations/${conversationId}/messages?limit=10&offset=0`), 200);
    expectStatus("another's messages", await stranger.rest('GET', `/api/conversations/${conversationId}/messages`), 403);
    // A signed GET whose query holds `:` (Prism re-encodes it as %3A on the way): the signature must still verify.
    expectStatus('messages since a time', await consumer.rest('GET', `/api/conversations/${conversationId}/messages?since=2026-01-01T10:30:00.000Z`), 200);

    // Orders
    const newOrder = async (label: string) => {
      const res = expectStatus(
        label,
        await provider.rest('POST', '/api/orders', { conversationId, agentId, clientWallet: consumer.address, description: 'Translate the contract', price: 12.5, deliveryTime: 120 }),
        201,
      );
      return res.body as { id: string; price: number };
    };
    const accept = async (order: { id: string; price: number }) =>
      consumer.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: consumer.address, paymentMethod: 'usdc', paymentHeader: await paymentHeader(server.url, consumer, order) });

    const order = await newOrder('create order');
    expectStatus('order in an unknown conversation', await provider.rest('POST', '/api/orders', { conversationId: randomId(), agentId, clientWallet: consumer.address, description: 'x', price: 1, deliveryTime: 60 }), 404);
    expectStatus('list orders', await consumer.rest('GET', '/api/orders?status=PENDING&limit=5&offset=0'), 200);
    expectStatus('list orders, unknown status', await lenientWallet(consumer).rest('GET', '/api/orders?status=LOST'), 422);
    expectStatus('order', await consumer.rest('GET', `/api/orders/${order.id}`), 200);
    expectStatus("another's order", await stranger.rest('GET', `/api/orders/${order.id}`), 403);
    expectStatus('unknown order', await consumer.rest('GET', `/api/orders/${randomId()}`), 404);
    expectStatus('deliver an unpaid order', await provider.rest('POST', `/api/orders/${order.id}/deliver`, { agentWallet: provider.address, result: 'Done' }), 409);
    expectStatus('accept with a bad payment header', await consumer.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: consumer.address, paymentMethod: 'usdc', paymentHeader: 'bm90IGEgcGF5bWVudA==' }), 400);
    expectStatus('accept', await accept(order), 200);
    expectStatus('accept again', await accept(order), 409);
    expectStatus('deliver', await provider.rest('POST', `/api/orders/${order.id}/deliver`, { agentWallet: provider.address, result: 'Done', message: 'Here', attachments: ['https://cdn.example.com/out.pdf'] }), 200);
    expectStatus('review', await consumer.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: consumer.address, rating: 5, comment: 'Great' }), 201);
    expectStatus('review again', await consumer.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: consumer.address, rating: 4 }), 409);

    const second = await newOrder('create a second order');
    expectStatus('accept the second', await accept(second), 200);
    expectStatus('deliver the second', await provider.rest('POST', `/api/orders/${second.id}/deliver`, { agentWallet: provider.address, result: 'Done' }), 200);
    expectStatus('complete, no body', await consumer.rest('POST', `/api/orders/${second.id}/complete`), 200);
    expectStatus('complete again', await consumer.rest('POST', `/api/orders/${second.id}/complete`, {}), 409);

    const third = await newOrder('create a third order');
    expectStatus('cancel, no body', await consumer.rest('POST', `/api/orders/${third.id}/cancel`), 200);
    expectStatus('cancel again', await provider.rest('POST', `/api/orders/${third.id}/cancel`, { wallet: provider.address }), 409);

    const fourth = await newOrder('create a fourth order');
    expectStatus('accept the fourth', await accept(fourth), 200);
    expectStatus("delete another's agent", await stranger.rest('DELETE', `/api/agents/${agentId}`), 403);
    expectStatus('delete an agent with a paid order to deliver', await provider.rest('DELETE', `/api/agents/${agentId}`), 409);
    expectStatus('deliver the fourth', await provider.rest('POST', `/api/orders/${fourth.id}/deliver`, { agentWallet: provider.address, result: 'Done' }), 200);
    expectStatus('delete agent', await provider.rest('DELETE', `/api/agents/${agentId}`), 204);
    expectStatus('delete unknown agent', await provider.rest('DELETE', `/api/agents/${randomId()}`), 404);
  }, 120_000);

  it('429 with Retry-After past a rate limit (agents.register: 5 an hour per wallet)', async () => {
    const wallet = walletFor(strict.url);
    const other = generateKeypair().address;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await wallet.rest('POST', '/api/agents/register', registration(other))).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
  }, 30_000);
});

describe('documentation hosting through Prism', () => {
  let repo: GitFixture;
  afterAll(() => repo?.cleanup());

  it('registers, publishes, builds, answers GitHub deliveries, maps and verifies domains; 401, 404, 409, 413, 422', async () => {
    const rest: Rest = restClient(strict.url, apiKey);
    const loose = restClient(lenient.url, apiKey);
    repo = smallDocsRepo();
    const created = expectStatus('register repository', await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'widgets', source: repo.dir }), 201);
    const secret = created.body?.webhookSecret as string;
    expectStatus('register again', await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'widgets', source: repo.dir }), 409);
    expectStatus('register a source that is no repository', await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'nothing', source: '/nonexistent/docs' }), 422);
    expectStatus('register a bad owner name', await loose('POST', '/api/docs/repositories', { owner: '-acme-', repo: 'x', source: repo.dir }), 422);
    expectStatus('register over 100 kB', await loose('POST', '/api/docs/repositories', { owner: 'acme', repo: 'big', source: big(110_000) }), 413);
    expectStatus('repository', await rest('GET', '/api/docs/repositories/acme/widgets'), 200);
    expectStatus('unknown repository', await rest('GET', '/api/docs/repositories/acme/nothing'), 404);
    expectStatus('repository, unknown key', await restClient(strict.url, 'rk_unknown')('GET', '/api/docs/repositories/acme/widgets'), 401);
    expectStatus('update repository', await rest('PATCH', '/api/docs/repositories/acme/widgets', { readerBuilds: { commits: true } }), 200);
    expectStatus('update unknown repository', await rest('PATCH', '/api/docs/repositories/acme/nothing', { readerBuilds: { tags: false } }), 404);

    const publish = expectStatus('publish, no body', await rest<Build>('POST', '/api/docs/repositories/acme/widgets/publish'), 200);
    expectStatus('publish main', await rest('POST', '/api/docs/repositories/acme/widgets/publish', { ref: 'main' }), 200);
    expectStatus('publish an unknown ref', await rest('POST', '/api/docs/repositories/acme/widgets/publish', { ref: 'no-such-branch' }), 404);
    expectStatus('publish an unknown repository', await rest('POST', '/api/docs/repositories/acme/nothing/publish', {}), 404);
    const build = await settled(rest, publish.status === 200 ? publish.body : (await rest<Build>('POST', '/api/docs/repositories/acme/widgets/publish', {})).body);
    expect.soft(build.status, JSON.stringify(build)).toBe('SUCCEEDED');
    expectStatus('build', await rest('GET', `/api/docs/builds/${build.id}`), 200);
    expectStatus('unknown build', await rest('GET', `/api/docs/builds/${randomId()}`), 404);
    expectStatus('builds', await rest('GET', '/api/docs/repositories/acme/widgets/builds?limit=5&offset=0'), 200);

    expectStatus('builds of an unknown repository', await rest('GET', '/api/docs/repositories/acme/nothing/builds'), 404);

    // The code host's deliveries, as GitHub sends them: first a ping when the hook is created, then pushes.
    const hook = githubHook();
    const deliver = (via: Prism, site: string, event: string, payload: object, sign: (body: string) => Record<string, string> = (body) => githubSignatures(secret, body)) => {
      const body = JSON.stringify(payload);
      return githubDelivery(`${via.url}/api/docs/repositories/${site}/webhook`, event, hook, body, sign(body));
    };
    const push = githubPush(build.commit);
    expectStatus('webhook ping', await deliver(strict, 'acme/widgets', 'ping', githubPing(hook)), 200);
    expectStatus('webhook push', await deliver(strict, 'acme/widgets', 'push', push), 200);
    expectStatus('webhook push, wrong signature', await deliver(strict, 'acme/widgets', 'push', push, () => githubSignatures('not-the-secret', JSON.stringify(push))), 401);
    // (A delivery without X-Hub-Signature-256 is refused by Prism itself: the document requires the credential.)
    // An unknown repository has no secret to match: the signature is refused before the repository is named.
    expectStatus('webhook push to an unknown repository', await deliver(strict, 'acme/nothing', 'push', push), 401);
    expectStatus('webhook push, not a JSON object', await deliver(lenient, 'acme/widgets', 'push', [push]), 400);
    // An event the document does not list (its body is none of push, pull_request, ping): through the lenient Prism.
    expectStatus('webhook of an unhandled event', await deliver(lenient, 'acme/widgets', 'issues', { action: 'opened', issue: { number: 1, title: 'Typo' }, repository: push.repository, sender: push.sender }), 422);
    expectStatus('webhook push over 100 kB', await deliver(strict, 'acme/widgets', 'push', { ...push, commits: Array.from({ length: 400 }, () => push.head_commit) }), 413);

    expectStatus('chat agent', await rest('POST', '/api/docs/repositories/acme/widgets/agents', { provider: 'openai', apiKey: 'sk-test-key', model: 'gpt-4o-mini' }), 201);
    expectStatus('chat agent of an unknown repository', await rest('POST', '/api/docs/repositories/acme/nothing/agents', { provider: 'openai', apiKey: 'sk-test-key' }), 404);

    expectStatus('map domain', await rest('POST', '/api/docs/domains', { hostname: 'docs.acme.test', owner: 'acme', repo: 'widgets' }), 201);
    expectStatus('map it again', await rest('POST', '/api/docs/domains', { hostname: 'docs.acme.test', owner: 'acme', repo: 'widgets' }), 409);
    expectStatus('verify, no body', await rest('POST', '/api/docs/domains/docs.acme.test/verify'), 200);
    expectStatus('verify an unknown domain', await rest('POST', '/api/docs/domains/nothing.acme.test/verify'), 404);
    expectStatus('remove domain', await rest('DELETE', '/api/docs/domains/docs.acme.test'), 204);
    expectStatus('remove it again', await rest('DELETE', '/api/docs/domains/docs.acme.test'), 404);
    // The push's build (the same commit: reused) is settled before the server stops.
    for (const b of (await rest('GET', '/api/docs/repositories/acme/widgets/builds')).body?.builds ?? []) await settled(rest, b);
  }, 120_000);
});

describe("every operation's refusals through Prism", () => {
  /** A URL of the operation: path parameters of the right form, naming nothing in particular. */
  const urlOf = (o: Operation) =>
    o.path.replace(/\{(\w+)\}/g, (_, name: string) => ({ id: randomId(), resourceId: 'no-such-resource', owner: 'acme', repo: 'widgets', hostname: 'nothing.acme.test' })[name] ?? 'x');
  const apiOf = (o: Operation) => (o.path.startsWith('/api/docs') ? 'docs' : o.path.startsWith('/api') || o.path.startsWith('/dev') ? 'marketplace' : 'resources');
  const walletSecured = (o: Operation) => (o.op.security ?? []).some((r) => Object.keys(r).some((name) => /wallet/i.test(name)));
  const keySecured = (o: Operation) => (o.op.security ?? []).some((r) => Object.keys(r).some((name) => /apikey|bearer/i.test(name)));

  it('401 for a wrong credential, 400 for a body that is no JSON object, 413 over 100 kB, 400/422 for an unknown field', async () => {
    for (const o of operations) {
      if (/\/webhook$/.test(o.path)) continue; // its own deliveries above
      const url = urlOf(o);
      // The credential is checked before the body is read: an empty body, through the lenient Prism.
      const body = o.op.requestBody ? {} : undefined;
      if (walletSecured(o)) expectStatus(`${o.name}, wrong signature`, await badlySigned(o.method, url, body, lenient), 401);
      if (keySecured(o)) expectStatus(`${o.name}, unknown key`, await restClient(lenient.url, 'rk_unknown')(o.method, url, body), 401);
      if (!o.op.requestBody) continue;
      // With a valid credential, through the lenient Prism (the document calls these bodies invalid).
      const send = walletSecured(o)
        ? (body: unknown) => lenientWallet(walletFor(strict.url)).rest(o.method, url, body)
        : (body: unknown) => restClient(lenient.url, keySecured(o) ? apiKey : null)(o.method, url, JSON.stringify(body));
      expectStatus(`${o.name}, a JSON array`, await send([1]), 400);
      expectStatus(`${o.name}, over 100 kB`, await send({ note: big(110_000) }), 413);
      expectStatus(`${o.name}, an unknown field`, await send({ noSuchField: true }), apiOf(o) === 'resources' ? 400 : 422);
    }
  }, 60_000);
});

describe('what Prism found', () => {
  it('no violation in any exchange (request or answer, warnings included), no answer of Prism its own', () => {
    const listed = exchanges
      .filter((x) => x.findings.length)
      .map((x) => `${x.operation ?? `${x.method} ${new URL(x.url).pathname} (no operation)`} -> ${x.status} via ${x.via}\n    ${x.findings.join('\n    ')}`);
    console.log(`[prism] ${exchanges.length} exchanges, ${listed.length} with findings`);
    expect(listed).toEqual([]);
  });

  it('every operation of the document was called through Prism, with a 2xx answer', () => {
    const byOperation = new Map<string, Set<number>>(operations.map((o) => [o.name, new Set<number>()]));
    for (const x of exchanges) if (x.operation) byOperation.get(x.operation)!.add(x.status);
    console.log(`[prism] statuses per operation:\n${[...byOperation].map(([name, s]) => `  ${name}: ${[...s].sort().join(', ')}`).join('\n')}`);
    const without2xx = [...byOperation].filter(([, statuses]) => ![...statuses].some((s) => s >= 200 && s < 300)).map(([name]) => name);
    expect(without2xx).toEqual([]);
    expect(exchanges.filter((x) => !x.operation).map((x) => `${x.method} ${x.url}`)).toEqual([]);
    // The documented answers not exercised here (500, 503 and 429 but one need a broken database, a git host down
    // or a rate limit spent): printed, so a reader sees what this flow does not reach.
    const missed = operations
      .map((o) => [o.name, Object.keys(o.op.responses).filter((s) => !byOperation.get(o.name)!.has(Number(s)))] as const)
      .filter(([, statuses]) => statuses.length);
    console.log(`[prism] documented statuses not exercised:\n${missed.map(([name, s]) => `  ${name}: ${s.join(', ')}`).join('\n')}`);
  });

  it('every operation with an error answer besides 429/500/503 was called into one of them', () => {
    const unreached = operations
      .filter((o) => Object.keys(o.op.responses).some((s) => Number(s) >= 400 && ![429, 500, 503].includes(Number(s))))
      .filter((o) => !exchanges.some((x) => x.operation === o.name && x.status >= 400 && x.status < 500 && x.status !== 429))
      .map((o) => o.name);
    expect(unreached).toEqual([]);
  });

  it('every POST/PUT whose body the document makes optional was called without one through the strict Prism, with a 2xx answer', () => {
    const optional = operations.filter((o) => ['POST', 'PUT'].includes(o.method) && o.op.requestBody && o.op.requestBody.required !== true);
    const bodiless = optional
      .filter((o) => !exchanges.some((x) => x.via === 'strict' && x.operation === o.name && !x.withBody && x.status >= 200 && x.status < 300))
      .map((o) => o.name);
    expect(bodiless).toEqual([]);
    // And the calls made without a body are to operations whose body is optional (Prism's 422 otherwise, listed above).
    console.log(`[prism] optional bodies: ${optional.map((o) => o.name).join(', ') || 'none'}`);
  });
});
