import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplaceClient } from '../../client-sdk/index.ts';
import { randomUUID } from 'node:crypto';
import { Agent, Order } from '../../server/marketplace/entities.ts';
import { breakDatabase, startTestServer, type TestServer } from '../helpers/server.ts';
import { registration, walletFor, type Wallet, statusAndError } from '../helpers/marketplace.ts';

let server: TestServer;
let owner: Wallet;
let agentId: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = walletFor(server.url);
  agentId = (await owner.sdk.agents.register(registration(owner.address, {
    services: [{ name: 'Contract', description: 'Up to 10 pages', price: 49.99, unit: 'document', deliveryTime: 720 }],
    stakeAmount: 100,
    avatarUrl: 'https://cdn.example.com/a.png',
  }))).id;
});
afterAll(() => server?.destroy());

describe('POST /api/agents/register', () => {
  it('answers 201 { id, walletAddress, name, status, createdAt }', async () => {
    const wallet = walletFor(server.url);
    const input = registration(wallet.address);
    const res = await wallet.rest('POST', '/api/agents/register', input);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), walletAddress: wallet.address, name: input.name, status: 'ACTIVE', createdAt: expect.any(String) });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('refuses a second agent for the same wallet (409 DUPLICATE_REGISTRATION)', async () => {
    const res = await owner.rest('POST', '/api/agents/register', registration(owner.address));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'DUPLICATE_REGISTRATION', message: expect.any(String) });
  });

  it("refuses a body whose walletAddress is not the caller's (403 UNAUTHORIZED_ACCESS)", async () => {
    const wallet = walletFor(server.url);
    const res = await wallet.rest('POST', '/api/agents/register', registration(walletFor(server.url).address));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('UNAUTHORIZED_ACCESS');
  });

  it('answers 422 VALIDATION_ERROR naming each bad field', async () => {
    const wallet = walletFor(server.url);
    const res = await wallet.rest('POST', '/api/agents/register', { ...registration(wallet.address), basePrice: 1.0000001, categories: ['Cooking'], endpoint: 'ftp://x' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.details).sort()).toEqual(['basePrice', 'categories.0', 'endpoint']);
  });

  it('requires a wallet signature (401 INVALID_SIGNATURE, reason missing)', async () => {
    const res = await fetch(`${server.url}/api/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registration(owner.address)) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'INVALID_SIGNATURE', message: expect.any(String), details: { reason: 'missing' } });
  });
});

describe('GET /api/agents/:id', () => {
  it('answers the documented detail fields', async () => {
    const res = await fetch(`${server.url}/api/agents/${agentId}`);
    expect(res.status).toBe(200);
    const agent = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(agent).sort()).toEqual(
      ['id', 'walletAddress', 'name', 'tagline', 'description', 'avatarUrl', 'bannerUrl', 'categories', 'basePrice', 'endpoint', 'status',
        'stakeAmount', 'rating', 'totalOrders', 'completedOrders', 'responseTime', 'createdAt', 'updatedAt', 'services', 'reviews'].sort(),
    );
    expect(agent).toMatchObject({ id: agentId, walletAddress: owner.address, basePrice: 25, stakeAmount: 100, status: 'ACTIVE', rating: 0, reviews: [] });
    expect(agent.services).toEqual([{ name: 'Contract', description: 'Up to 10 pages', price: 49.99, unit: 'document', deliveryTime: 720 }]);
  });

  it('answers 404 AGENT_NOT_FOUND for an unknown id', async () => {
    const res = await fetch(`${server.url}/api/agents/00000000-0000-4000-8000-000000000000`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'AGENT_NOT_FOUND', message: expect.any(String) });
  });

  it('carries X-RateLimit-Limit/Remaining/Reset, also on errors', async () => {
    for (const path of [`/api/agents/${agentId}`, '/api/agents/not-a-uuid']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('x-ratelimit-limit'), path).toBe('200');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
  });
});

describe('GET /api/agents/search', () => {
  it('lists active agents in the envelope { agents, total, limit, offset } with list-item fields only', async () => {
    const res = await fetch(`${server.url}/api/agents/search`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { agents: Record<string, unknown>[]; total: number; limit: number; offset: number };
    expect(body).toMatchObject({ limit: 20, offset: 0 });
    expect(body.total).toBeGreaterThanOrEqual(1);
    expect(Object.keys(body.agents[0]!).sort()).toEqual(
      ['id', 'walletAddress', 'name', 'tagline', 'description', 'avatarUrl', 'bannerUrl', 'categories', 'basePrice', 'rating',
        'totalOrders', 'completedOrders', 'responseTime', 'status', 'createdAt'].sort(),
    );
  });

  it('filters by category, maxPrice and query (full text and substring)', async () => {
    const coder = walletFor(server.url);
    await coder.sdk.agents.register(registration(coder.address, { name: 'Rustacean', tagline: 'Refactors crates', description: 'Borrow checker whisperer', categories: ['Code'], basePrice: 5 }));
    const search = (q: string) => fetch(`${server.url}/api/agents/search?${q}`).then((r) => r.json() as Promise<{ agents: { name: string }[]; total: number }>);
    expect((await search('category=Code')).agents.map((a) => a.name)).toEqual(['Rustacean']);
    expect((await search('maxPrice=5')).agents.map((a) => a.name)).toContain('Rustacean');
    expect((await search('maxPrice=4.99')).agents.map((a) => a.name)).not.toContain('Rustacean');
    expect((await search('query=refactoring')).agents.map((a) => a.name)).toEqual(['Rustacean']); // stemmed
    expect((await search('query=whisp')).agents.map((a) => a.name)).toEqual(['Rustacean']); // substring
    expect((await search('minRating=1')).total).toBe(0);
  });

  it('pages with limit and offset: offset past the end is empty, limit above 100 is refused', async () => {
    const all = (await (await fetch(`${server.url}/api/agents/search?limit=100`)).json()) as { total: number };
    const past = (await (await fetch(`${server.url}/api/agents/search?offset=${all.total + 5}`)).json()) as { agents: unknown[]; total: number };
    expect(past.agents).toEqual([]);
    expect(past.total).toBe(all.total);
    const tooMany = await fetch(`${server.url}/api/agents/search?limit=101`);
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as { details: object }).details).toHaveProperty('limit');
  });
});

describe('PATCH and DELETE /api/agents/:id', () => {
  it('lets the owner update (200 { id, updatedAt }) and refuses others (403)', async () => {
    const res = await owner.rest('PATCH', `/api/agents/${agentId}`, { tagline: 'Now with certified translators', basePrice: 30 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: agentId, updatedAt: expect.any(String) });
    expect(await owner.sdk.agents.get(agentId)).toMatchObject({ tagline: 'Now with certified translators', basePrice: 30 });
    const stranger = walletFor(server.url);
    expect(statusAndError(await stranger.rest('PATCH', `/api/agents/${agentId}`, { name: 'Mine now' }))).toEqual([403, 'UNAUTHORIZED_ACCESS']);
  });

  it('deletes for the owner (204, no body), then 404 and gone from search', async () => {
    const wallet = walletFor(server.url);
    const { id } = await wallet.sdk.agents.register(registration(wallet.address, { name: 'Ephemeral' }));
    expect(statusAndError(await walletFor(server.url).rest('DELETE', `/api/agents/${id}`))).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    const res = await wallet.rest('DELETE', `/api/agents/${id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await fetch(`${server.url}/api/agents/${id}`)).status).toBe(404);
    const search = (await (await fetch(`${server.url}/api/agents/search?query=Ephemeral`)).json()) as { total: number };
    expect(search.total).toBe(0);
  });
});

describe('GET /api/agents/:id/stats', () => {
  it('answers AgentStats computed from data to the owner only', async () => {
    const stats = await owner.sdk.agents.stats(agentId);
    expect(stats).toEqual({
      totalRevenue: 0, totalOrders: 0, completedOrders: 0, cancelledOrders: 0, averageOrderValue: 0,
      averageRating: 0, totalReviews: 0, averageResponseTime: 0, completionRate: 0, revenueByMonth: [],
    });
    const stranger = createMarketplaceClient({ baseUrl: server.url, wallet: walletFor(server.url).signer });
    await expect(stranger.agents.stats(agentId)).rejects.toMatchObject({ status: 403, code: 'UNAUTHORIZED_ACCESS' });
  });
});

describe('rate limits', () => {
  it('refuses the 6th registration within the hour (429 RATE_LIMIT_EXCEEDED, Retry-After), counted per wallet', async () => {
    const wallet = walletFor(server.url);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<Wallet['rest']>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await wallet.rest('POST', '/api/agents/register', registration(wallet.address));
      statuses.push(last.status);
      expect(last.headers.get('x-ratelimit-limit')).toBe('5');
      expect(last.headers.get('x-ratelimit-remaining')).toBe(String(Math.max(0, 4 - i)));
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
    expect(last!.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another wallet has its own allowance.
    const other = walletFor(server.url);
    expect((await other.rest('POST', '/api/agents/register', registration(other.address))).status).toBe(201);
  });

  it('fresh wallets from one address: the 51st registration within the hour is refused by the address ceiling', async () => {
    const own = await startTestServer();
    try {
      const register = async () => {
        const wallet = walletFor(own.url);
        return wallet.rest('POST', '/api/agents/register', registration(wallet.address));
      };
      for (let i = 0; i < 50; i++) expect((await register()).status).toBe(201);
      const refused = await register();
      expect([refused.status, refused.body.error, refused.headers.get('x-ratelimit-limit')]).toEqual([429, 'RATE_LIMIT_EXCEEDED', '50']);
      expect(refused.body.message).toMatch(/^Too many requests from this address: retry in \d+ s$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Nothing was registered by the refused call; reads are not capped.
      expect((await own.services.agents.search({ limit: 100, offset: 0 })).total).toBe(50);
    } finally {
      await own.destroy();
    }
  }, 60_000);
});

describe('errors answered before the call runs', () => {
  it('malformed JSON: 400 INVALID_REQUEST, with rate-limit headers', async () => {
    const res = await fetch(`${server.url}/api/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'INVALID_REQUEST', message: expect.stringContaining('not valid JSON') });
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
  });

  it('unknown route under /api: 404 NOT_FOUND, with rate-limit headers', async () => {
    const res = await fetch(`${server.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
  });
});

describe('agent state the next endpoints will produce', () => {
  it('minRating keeps agents rated at least that much', async () => {
    const wallet = walletFor(server.url);
    const { id } = await wallet.sdk.agents.register(registration(wallet.address, { name: 'Well Rated' }));
    await server.db.em().nativeUpdate(Agent, { id }, { rating: 4.6, reviewCount: 5 });
    const found = (await (await fetch(`${server.url}/api/agents/search?minRating=4.5`)).json()) as { agents: { id: string; rating: number }[] };
    expect(found.agents.map((a) => a.id)).toEqual([id]);
    expect(found.agents[0]!.rating).toBe(4.6);
  });

  it('DELETE is refused (409 INVALID_STATUS_TRANSITION) while a paid order awaits delivery', async () => {
    const wallet = walletFor(server.url);
    const consumer = walletFor(server.url);
    const { id } = await wallet.sdk.agents.register(registration(wallet.address));
    const conversation = await consumer.sdk.conversations.create({ agentId: id, clientWallet: consumer.address, initialMessage: 'order please' });
    const now = new Date();
    await server.db.em().insert(Order, {
      id: randomUUID(), conversation: conversation.id, agent: id, clientWallet: consumer.address, description: 'A contract',
      priceMicro: 10_000_000n, deliveryTime: 60, status: 'PAID', commissionBps: 1000, createdAt: now, updatedAt: now,
    });
    const res = await wallet.rest('DELETE', `/api/agents/${id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('INVALID_STATUS_TRANSITION');
    expect((await fetch(`${server.url}/api/agents/${id}`)).status).toBe(200);
  });
});

describe('database unreachable', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    const broken = await startTestServer();
    try {
      await breakDatabase(broken);
      const res = await fetch(`${broken.url}/api/agents/00000000-0000-4000-8000-000000000000`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await broken.destroy();
    }
  });
});
