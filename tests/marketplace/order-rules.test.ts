/**
 * The order rules that mutation testing showed untested (docs/orders-and-payments.md): who may complete an order,
 * the body wallet of complete and cancel, which agent's statistics a completion or a review changes, and the list
 * filters. Each case sets up its own parties on one server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptOrder, agentAndConsumer, createOrder, fund, type Parties } from '../helpers/orders.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let bystander: Parties;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: 'off' });
  bystander = await agentAndConsumer(server.url);
});
afterAll(() => server?.destroy());

/** Parties with a funded consumer and one order of theirs, paid and delivered. */
async function deliveredOrder() {
  const p = await agentAndConsumer(server.url);
  await fund(server.url, p.client.address, 50);
  const order = await createOrder(p, { price: 10 });
  expect((await acceptOrder(server.url, p, order)).status).toBe(200);
  const delivered = await p.agent.rest('POST', `/api/orders/${order.id}/deliver`, { agentWallet: p.agent.address, result: 'Done' });
  expect(delivered.status).toBe(200);
  return { p, order };
}

const stats = async (agentId: string) => (await fetch(`${server.url}/api/agents/${agentId}`)).json() as Promise<{ completedOrders: number; rating: number; reviewCount?: number }>;

describe('complete', () => {
  it("only the consumer completes a delivered order: the agent's own attempt is 403 and changes nothing", async () => {
    const { p, order } = await deliveredOrder();
    const byAgent = await p.agent.rest('POST', `/api/orders/${order.id}/complete`, {});
    expect([byAgent.status, byAgent.body.error, byAgent.body.message]).toEqual([403, 'UNAUTHORIZED_ACCESS', 'Only the consumer can complete this order']);
    expect((await p.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('DELIVERED');
    expect((await p.client.rest('POST', `/api/orders/${order.id}/complete`, {})).body.status).toBe('COMPLETED');
  });

  it('a clientWallet in the body must be the signer', async () => {
    const { p, order } = await deliveredOrder();
    const res = await p.client.rest('POST', `/api/orders/${order.id}/complete`, { clientWallet: p.agent.address });
    expect([res.status, res.body.error, res.body.message]).toEqual([403, 'UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet']);
    expect((await p.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('DELIVERED');
  });

  it("counts the completion for the order's agent only", async () => {
    const { p, order } = await deliveredOrder();
    const [mine, theirs] = [await stats(p.agentId), await stats(bystander.agentId)];
    expect((await p.client.rest('POST', `/api/orders/${order.id}/complete`, { clientWallet: p.client.address })).status).toBe(200);
    expect((await stats(p.agentId)).completedOrders).toBe(mine.completedOrders + 1);
    expect(await stats(bystander.agentId)).toEqual(theirs);
  });
});

describe('create', () => {
  it("counts a new order for the order's agent only", async () => {
    const p = await agentAndConsumer(server.url);
    // Statistics are their provider's to read.
    const stats = async (of: Parties) => (await of.agent.rest('GET', `/api/agents/${of.agentId}/stats`)).body as { totalOrders: number };
    const [mine, theirs] = [await stats(p), await stats(bystander)];
    await createOrder(p, { price: 3 });
    expect((await stats(p)).totalOrders).toBe(mine.totalOrders + 1);
    expect(await stats(bystander)).toEqual(theirs);
  });
});

describe('review', () => {
  it('a clientWallet in the body must be the signer, even when the signer is the consumer', async () => {
    const { p, order } = await deliveredOrder();
    const res = await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.agent.address, rating: 5 });
    expect([res.status, res.body.error, res.body.message]).toEqual([403, 'UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet']);
    expect((await p.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('DELIVERED');
  });

  it("changes the rating of the order's agent only", async () => {
    const { p, order } = await deliveredOrder();
    const theirs = await stats(bystander.agentId);
    const res = await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 2, comment: 'Slow' });
    expect(res.status).toBe(201);
    expect(await stats(p.agentId)).toMatchObject({ rating: 2, completedOrders: 1 });
    expect(await stats(bystander.agentId)).toEqual(theirs);
  });
});

describe('cancel', () => {
  it('a wallet in the body must be the signer; either party may cancel an unpaid order', async () => {
    const p = await agentAndConsumer(server.url);
    const order = await createOrder(p);
    const mismatch = await p.client.rest('POST', `/api/orders/${order.id}/cancel`, { wallet: p.agent.address });
    expect([mismatch.status, mismatch.body.error, mismatch.body.message]).toEqual([403, 'UNAUTHORIZED_ACCESS', 'wallet must be the signing wallet']);
    expect((await p.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('PENDING');
    expect((await p.agent.rest('POST', `/api/orders/${order.id}/cancel`, { wallet: p.agent.address })).body.status).toBe('CANCELLED');
  });
});

describe('list filters', () => {
  it('agentWallet and clientWallet narrow the caller’s orders', async () => {
    // One consumer with orders from two agents.
    const first = await agentAndConsumer(server.url);
    const second = await agentAndConsumer(server.url);
    const sameClient: Parties = { ...second, client: first.client };
    const conversation = await first.client.rest('POST', '/api/conversations', { agentId: second.agentId, clientWallet: first.client.address, initialMessage: 'Hi' });
    sameClient.conversationId = conversation.body.id;
    const a = await createOrder(first);
    const b = await createOrder(sameClient);
    const ids = async (query: string) => ((await first.client.rest('GET', `/api/orders?${query}`)).body.orders as { id: string }[]).map((o) => o.id);
    expect((await ids('limit=100')).sort()).toEqual([a.id, b.id].sort());
    expect(await ids(`agentWallet=${first.agent.address}`)).toEqual([a.id]);
    expect(await ids(`agentWallet=${second.agent.address}`)).toEqual([b.id]);
    expect(await ids(`clientWallet=${first.client.address}&agentWallet=${second.agent.address}`)).toEqual([b.id]);
    // The second agent sees only its own order, and none for another consumer.
    const agentIds = async (query: string) => ((await second.agent.rest('GET', `/api/orders?${query}`)).body.orders as { id: string }[]).map((o) => o.id);
    expect(await agentIds(`clientWallet=${first.client.address}`)).toEqual([b.id]);
    expect(await agentIds(`clientWallet=${second.client.address}`)).toEqual([]);
  });
});

describe('every refusal says why', () => {
  const said = (res: { status: number; body: { error?: string; message?: string } }) => [res.status, res.body.error, res.body.message];
  it('creating: only the agent, in a conversation of its own, for that conversation’s consumer', async () => {
    const p = await agentAndConsumer(server.url);
    const order = (overrides: Record<string, unknown>, as = p.agent) =>
      as.rest('POST', '/api/orders', { conversationId: p.conversationId, agentId: p.agentId, clientWallet: p.client.address, description: 'x', price: 1, deliveryTime: 1, ...overrides });
    expect(said(await order({}, p.client))).toEqual([403, 'UNAUTHORIZED_ACCESS', 'Only the agent can create its orders']);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(said(await order({ conversationId: missing }))).toEqual([404, 'CONVERSATION_NOT_FOUND', `Conversation '${missing}' not found`]);
    expect(said(await order({ conversationId: bystander.conversationId }))).toEqual([403, 'UNAUTHORIZED_ACCESS', 'The conversation is not with this agent']);
    const stranger = await order({ clientWallet: p.agent.address });
    expect(said(stranger)).toEqual([422, 'VALIDATION_ERROR', 'clientWallet must be the consumer of the conversation']);
    expect((stranger.body as { details?: unknown }).details).toEqual({ clientWallet: "Must be the conversation's consumer" });
  });

  it('moving an order: not found, not a party, not its side, not from this state, a review twice', async () => {
    const { p, order } = await deliveredOrder();
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(said(await p.client.rest('POST', `/api/orders/${missing}/complete`, {}))).toEqual([404, 'ORDER_NOT_FOUND', `Order '${missing}' not found`]);
    expect(said(await bystander.client.rest('POST', `/api/orders/${order.id}/complete`, {}))).toEqual([403, 'UNAUTHORIZED_ACCESS', 'Only the consumer and the agent of this order may do this']);
    expect(said(await p.client.rest('POST', `/api/orders/${order.id}/deliver`, { agentWallet: p.client.address, result: 'x' }))).toEqual([403, 'UNAUTHORIZED_ACCESS', 'Only the agent can deliver this order']);
    expect(said(await p.agent.rest('POST', `/api/orders/${order.id}/deliver`, { agentWallet: p.client.address, result: 'x' }))).toEqual([403, 'UNAUTHORIZED_ACCESS', 'agentWallet must be the signing wallet']);
    const cancel = await p.client.rest('POST', `/api/orders/${order.id}/cancel`, {});
    expect(said(cancel)).toEqual([409, 'INVALID_STATUS_TRANSITION', 'Cannot cancel an order that is DELIVERED']);
    expect((cancel.body as { details?: unknown }).details).toEqual({ status: 'DELIVERED', operation: 'cancel', requiredStatus: 'PENDING' });
    expect(said(await p.agent.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.agent.address, rating: 5 }))).toEqual([403, 'UNAUTHORIZED_ACCESS', 'Only the consumer can review an order']);
    expect((await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 5 })).status).toBe(201);
    expect(said(await p.client.rest('POST', `/api/orders/${order.id}/review`, { clientWallet: p.client.address, rating: 4 }))).toEqual([409, 'DUPLICATE_REVIEW', 'This order already has its review']);
  });
});
