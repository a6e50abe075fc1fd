import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedFetch } from '../../client-sdk/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { registration, walletFor } from '../helpers/marketplace.ts';
import { acceptOrder, agentAndConsumer, createOrder, fund, openTokenAccount, type Parties } from '../helpers/orders.ts';

let server: TestServer;
let p: Parties;

beforeAll(async () => {
  // Many orders per wallet and minute here; the limits themselves are tested in tests/platform/rate-limiter.test.ts.
  server = await startTestServer({ rateLimits: 'off' });
  p = await agentAndConsumer(server.url);
  await fund(server.url, p.client.address, 1_000);
});
afterAll(() => server?.destroy());

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const MISSING = '00000000-0000-4000-8000-000000000000';

/** A PENDING order, then paid. */
async function paidOrder(parties = p, price = 12.5) {
  const order = await createOrder(parties, { price });
  const res = await acceptOrder(server.url, parties, order);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return order;
}

async function deliveredOrder(parties = p) {
  const order = await paidOrder(parties);
  const res = await parties.agent.rest('POST', `/api/orders/${order.id}/deliver`, {
    agentWallet: parties.agent.address,
    result: 'Done',
    message: 'See attached',
    attachments: ['https://files.example.com/contract-de.pdf'],
  });
  expect(res.status).toBe(200);
  return order;
}

describe('POST /api/orders', () => {
  it('answers 201 with the order in PENDING', async () => {
    const order = await createOrder(p, { price: 12.5, deliveryTime: 90 });
    expect(order).toEqual({
      id: expect.any(String),
      conversationId: p.conversationId,
      agentId: p.agentId,
      clientWallet: p.client.address,
      description: 'Translate the contract into German',
      price: 12.5,
      deliveryTime: 90,
      status: 'PENDING',
      paymentMethod: 'usdc',
      txSignature: null,
      splitSignature: null,
      agentAmount: null,
      commissionAmount: null,
      paidAt: null,
      deliveredAt: null,
      completedAt: null,
      createdAt: ISO,
      updatedAt: ISO,
    });
  });

  it('counts the order in the agent’s totalOrders', async () => {
    const before = (await p.client.rest('GET', `/api/agents/${p.agentId}`)).body.totalOrders as number;
    await createOrder(p);
    expect((await p.client.rest('GET', `/api/agents/${p.agentId}`)).body.totalOrders).toBe(before + 1);
  });

  it('is for the agent only: the consumer gets 403 UNAUTHORIZED_ACCESS', async () => {
    const res = await p.client.rest('POST', '/api/orders', {
      conversationId: p.conversationId,
      agentId: p.agentId,
      clientWallet: p.client.address,
      description: 'x',
      price: 1,
      deliveryTime: 1,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('UNAUTHORIZED_ACCESS');
  });

  it('must be in the agent’s own conversation, with its consumer', async () => {
    const other = await agentAndConsumer(server.url);
    const base = { agentId: p.agentId, clientWallet: p.client.address, description: 'x', price: 1, deliveryTime: 1 };
    const foreign = await p.agent.rest('POST', '/api/orders', { ...base, conversationId: other.conversationId });
    expect([foreign.status, foreign.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    const unknown = await p.agent.rest('POST', '/api/orders', { ...base, conversationId: MISSING });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    const noAgent = await p.agent.rest('POST', '/api/orders', { ...base, agentId: MISSING, conversationId: p.conversationId });
    expect([noAgent.status, noAgent.body.error]).toEqual([404, 'AGENT_NOT_FOUND']);
    const wrongClient = await p.agent.rest('POST', '/api/orders', { ...base, clientWallet: other.client.address, conversationId: p.conversationId });
    expect([wrongClient.status, wrongClient.body.error]).toEqual([422, 'VALIDATION_ERROR']);
    expect(wrongClient.body.details).toHaveProperty('clientWallet');
  });

  it('validates every field (422 names each)', async () => {
    const res = await p.agent.rest('POST', '/api/orders', {
      conversationId: 'nope',
      agentId: p.agentId,
      clientWallet: 'not-a-wallet',
      description: '',
      price: 0,
      deliveryTime: 1.5,
      extra: true,
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.details).sort()).toEqual(['clientWallet', 'conversationId', 'deliveryTime', 'description', 'extra', 'price']);
  });
});

describe('POST /api/orders/:id/accept', () => {
  it('answers 200 with the receipt; agentAmount + commissionAmount = price; the order is PAID', async () => {
    const order = await createOrder(p, { price: 12.5 });
    const res = await acceptOrder(server.url, p, order);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      orderId: order.id,
      status: 'PAID',
      txSignature: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/),
      agentAmount: 11.25,
      commissionAmount: 1.25,
      paidAt: ISO,
    });
    const got = await p.client.rest('GET', `/api/orders/${order.id}`);
    expect(got.body).toMatchObject({ status: 'PAID', txSignature: res.body.txSignature, agentAmount: 11.25, commissionAmount: 1.25, paidAt: res.body.paidAt });
    expect(got.body.splitSignature).toEqual(expect.any(String));
  });

  it('is for the consumer only (403), of an existing order (404), once (409)', async () => {
    const order = await createOrder(p);
    const byAgent = await p.agent.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: p.agent.address, paymentMethod: 'usdc', paymentHeader: 'e30=' });
    expect([byAgent.status, byAgent.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    const unknown = await p.client.rest('POST', `/api/orders/${MISSING}/accept`, { clientWallet: p.client.address, paymentMethod: 'usdc', paymentHeader: 'e30=' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'ORDER_NOT_FOUND']);
    expect((await acceptOrder(server.url, p, order)).status).toBe(200);
    const again = await acceptOrder(server.url, p, order);
    expect([again.status, again.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
  });
});

describe('POST /api/orders/:id/deliver', () => {
  it('moves a PAID order to DELIVERED (200 with deliveredAt); GET then shows the delivery', async () => {
    const order = await paidOrder();
    const res = await p.agent.rest('POST', `/api/orders/${order.id}/deliver`, {
      agentWallet: p.agent.address,
      result: 'Translated contract',
      message: 'Enjoy',
      attachments: ['https://files.example.com/a.pdf'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ orderId: order.id, status: 'DELIVERED', deliveredAt: ISO });
    const got = await p.client.rest('GET', `/api/orders/${order.id}`);
    expect(got.body.delivery).toEqual({ result: 'Translated contract', message: 'Enjoy', attachments: ['https://files.example.com/a.pdf'] });
    expect(got.body.deliveredAt).toBe(res.body.deliveredAt);
  });

  it('is for the agent only, and only from PAID', async () => {
    const pending = await createOrder(p);
    const early = await p.agent.rest('POST', `/api/orders/${pending.id}/deliver`, { agentWallet: p.agent.address, result: 'x' });
    expect([early.status, early.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
    const paid = await paidOrder();
    const byClient = await p.client.rest('POST', `/api/orders/${paid.id}/deliver`, { agentWallet: p.client.address, result: 'x' });
    expect([byClient.status, byClient.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    const otherWallet = await p.agent.rest('POST', `/api/orders/${paid.id}/deliver`, { agentWallet: p.client.address, result: 'x' });
    expect([otherWallet.status, otherWallet.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
  });
});

describe('POST /api/orders/:id/review', () => {
  it('answers 201 with the review, completes the order and updates the agent’s rating', async () => {
    const parties = await agentAndConsumer(server.url);
    await fund(server.url, parties.client.address, 100);
    const first = await deliveredOrder(parties);
    const res = await parties.client.rest('POST', `/api/orders/${first.id}/review`, { clientWallet: parties.client.address, rating: 5, comment: 'Great' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), orderId: first.id, agentId: parties.agentId, clientWallet: parties.client.address, rating: 5, comment: 'Great', createdAt: ISO });
    const order = (await parties.client.rest('GET', `/api/orders/${first.id}`)).body;
    expect(order.status).toBe('COMPLETED');
    expect(order.completedAt).toEqual(ISO);
    expect(order.review).toEqual({ id: res.body.id, rating: 5, comment: 'Great', createdAt: res.body.createdAt });

    const second = await deliveredOrder(parties);
    await parties.client.rest('POST', `/api/orders/${second.id}/review`, { clientWallet: parties.client.address, rating: 2 });
    const agent = (await parties.client.rest('GET', `/api/agents/${parties.agentId}`)).body;
    expect(agent).toMatchObject({ rating: 3.5, completedOrders: 2 });
    expect(agent.reviews.map((r: { rating: number }) => r.rating).sort()).toEqual([2, 5]);
    const stats = (await parties.agent.rest('GET', `/api/agents/${parties.agentId}/stats`)).body;
    expect(stats).toMatchObject({ totalReviews: 2, averageRating: 3.5, completedOrders: 2, totalRevenue: 22.5 });
  });

  it('one review per order (409 DUPLICATE_REVIEW); not before delivery (409); consumer only (403); rating 1-5, comment ≤ 1000 (422)', async () => {
    const order = await deliveredOrder();
    const bad = await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 6, comment: 'x'.repeat(1001) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details).sort()).toEqual(['comment', 'rating']);
    const byAgent = await p.agent.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.agent.address, rating: 5 });
    expect([byAgent.status, byAgent.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    expect((await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 4 })).status).toBe(201);
    const twice = await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 4 });
    expect([twice.status, twice.body.error]).toEqual([409, 'DUPLICATE_REVIEW']);
    const pending = await createOrder(p);
    const early = await p.client.rest('POST', `/api/orders/${pending.id}/review`, { clientWallet: p.client.address, rating: 4 });
    expect([early.status, early.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
  });
});

describe('POST /api/orders/:id/complete and /cancel', () => {
  it('complete: DELIVERED -> COMPLETED without a review; a review may still follow, once', async () => {
    const order = await deliveredOrder();
    const res = await p.client.rest('POST', `/api/orders/${order.id}/complete`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: order.id, status: 'COMPLETED', completedAt: ISO });
    const again = await p.client.rest('POST', `/api/orders/${order.id}/complete`, {});
    expect([again.status, again.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
    expect((await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 3 })).status).toBe(201);
  });

  it('cancel: either party, PENDING only', async () => {
    const byClient = await createOrder(p);
    expect((await p.client.rest('POST', `/api/orders/${byClient.id}/cancel`, {})).body.status).toBe('CANCELLED');
    const byAgent = await createOrder(p);
    expect((await p.agent.rest('POST', `/api/orders/${byAgent.id}/cancel`, { wallet: p.agent.address })).body.status).toBe('CANCELLED');
    const paid = await paidOrder();
    const late = await p.client.rest('POST', `/api/orders/${paid.id}/cancel`, {});
    expect([late.status, late.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
    const cancelled = await acceptOrder(server.url, p, byClient);
    expect([cancelled.status, cancelled.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
    const stranger = walletFor(server.url);
    const res = await stranger.rest('POST', `/api/orders/${byAgent.id}/cancel`, {});
    expect([res.status, res.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
  });
});

describe('GET /api/orders/:id', () => {
  it('participants only (403 for others, 404 for unknown ids)', async () => {
    const order = await createOrder(p);
    expect((await p.agent.rest('GET', `/api/orders/${order.id}`)).status).toBe(200);
    const stranger = walletFor(server.url);
    expect((await stranger.rest('GET', `/api/orders/${order.id}`)).body.error).toBe('UNAUTHORIZED_ACCESS');
    expect((await p.client.rest('GET', `/api/orders/${MISSING}`)).body.error).toBe('ORDER_NOT_FOUND');
  });
});

describe('GET /api/orders', () => {
  it("lists the caller's orders newest first with the agent's name and avatar, filtered and paginated", async () => {
    const parties = await agentAndConsumer(server.url);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createOrder(parties, { description: `order ${i}` }));
    await parties.client.rest('POST', `/api/orders/${made[0]!.id}/cancel`, {});

    const page = await parties.client.rest('GET', '/api/orders?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(page.body.orders.map((o: { description: string }) => o.description)).toEqual(['order 3', 'order 2']);
    expect(page.body.orders[0]).toEqual({
      id: made[3]!.id,
      conversationId: parties.conversationId,
      agentId: parties.agentId,
      agent: { name: expect.any(String), avatarUrl: null },
      clientWallet: parties.client.address,
      description: 'order 3',
      price: 12.5,
      status: 'PENDING',
      createdAt: ISO,
      completedAt: null,
    });
    const cancelled = await parties.agent.rest('GET', '/api/orders?status=CANCELLED');
    expect(cancelled.body.orders.map((o: { id: string }) => o.id)).toEqual([made[0]!.id]);
    const byAgentWallet = await parties.client.rest('GET', `/api/orders?agentWallet=${parties.agent.address}&limit=100`);
    expect(byAgentWallet.body.total).toBe(5);
    // Nobody sees orders they take no part in, whatever the filters say.
    const stranger = walletFor(server.url);
    expect((await stranger.rest('GET', `/api/orders?clientWallet=${parties.client.address}`)).body).toMatchObject({ orders: [], total: 0 });
    expect((await parties.client.rest('GET', '/api/orders?status=LOST')).status).toBe(422);
    expect((await parties.client.rest('GET', '/api/orders?limit=101')).status).toBe(422);
  });
});

describe('GET /api/orders of a wallet that sells and buys', () => {
  it('lists the orders to its agent and the orders it placed as one list, newest first, paged across both', async () => {
    const selling = await agentAndConsumer(server.url);
    const seller = walletFor(server.url);
    await openTokenAccount(server.url, seller);
    const registered = await seller.rest('POST', '/api/agents/register', registration(seller.address));
    const talk = await selling.agent.rest('POST', '/api/conversations', { agentId: registered.body.id, clientWallet: selling.agent.address, initialMessage: 'Hi' });
    const buying: Parties = { agent: seller, client: selling.agent, agentId: registered.body.id as string, conversationId: talk.body.id as string };
    for (let i = 0; i < 7; i++) await createOrder(i % 3 === 1 ? buying : selling, { description: `both ${i}` });
    const newestFirst = [6, 5, 4, 3, 2, 1, 0].map((i) => `both ${i}`);
    const descriptions = (body: { orders: { description: string }[] }) => body.orders.map((o) => o.description);

    for (const [offset, limit] of [[0, 100], [0, 3], [1, 3], [2, 4], [5, 2], [6, 5], [7, 2], [20, 5]] as const) {
      const page = await selling.agent.rest('GET', `/api/orders?limit=${limit}&offset=${offset}`);
      expect([page.status, page.body.total], `offset ${offset}`).toEqual([200, 7]);
      expect(descriptions(page.body), `offset ${offset}, limit ${limit}`).toEqual(newestFirst.slice(offset, offset + limit));
    }
    const bought = await selling.agent.rest('GET', `/api/orders?agentWallet=${seller.address}&limit=2`);
    expect([descriptions(bought.body), bought.body.total]).toEqual([['both 4', 'both 1'], 2]);
    const sold = await selling.agent.rest('GET', `/api/orders?clientWallet=${selling.client.address}&offset=1&limit=2`);
    expect([descriptions(sold.body), sold.body.total]).toEqual([['both 5', 'both 3'], 5]);
    // The seller sees only the orders placed with its own agent.
    expect(descriptions((await seller.rest('GET', '/api/orders')).body)).toEqual(['both 4', 'both 1']);
  });
});

describe('Idempotency-Key on POST', () => {
  const post = (key: string, body: unknown, wallet = p.agent) =>
    createSignedFetch(wallet.signer, server.url)('/api/orders', { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify(body) });
  const body = () => ({ conversationId: p.conversationId, agentId: p.agentId, clientWallet: p.client.address, description: 'Once', price: 3, deliveryTime: 5 });

  it('the same key and body answer the first response again; nothing is created twice', async () => {
    const key = `k-${Math.random()}`;
    const first = await post(key, body());
    const second = await post(key, body());
    expect([first.status, second.status]).toEqual([201, 201]);
    const [a, b] = [(await first.json()) as { id: string }, await second.json()];
    expect(b).toEqual(a);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const list = await p.agent.rest('GET', '/api/orders?limit=100');
    expect(list.body.orders.filter((o: { id: string }) => o.id === a.id)).toHaveLength(1);
  });

  it('the same key with a different body is 409 IDEMPOTENCY_CONFLICT', async () => {
    const key = `k-${Math.random()}`;
    expect((await post(key, body())).status).toBe(201);
    const res = await post(key, { ...body(), price: 4 });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT', details: { reason: 'different-request' } });
  });

  it('replays a documented error too, and keys are per wallet', async () => {
    const key = `k-${Math.random()}`;
    const refused = await post(key, body(), p.client);
    expect(refused.status).toBe(403);
    const replayed = await post(key, body(), p.client);
    expect([replayed.status, ((await replayed.json()) as { error: string }).error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    expect((await post(key, body(), p.agent)).status).toBe(201);
  });
});
