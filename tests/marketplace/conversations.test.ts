import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '../../client-sdk/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { registration, walletFor, type Wallet, statusAndError } from '../helpers/marketplace.ts';

let server: TestServer;
let provider: Wallet;
let consumer: Wallet;
let agentId: string;

beforeAll(async () => {
  server = await startTestServer();
  provider = walletFor(server.url);
  consumer = walletFor(server.url);
  agentId = (await provider.sdk.agents.register(registration(provider.address))).id;
});
afterAll(() => server?.destroy());

const open = async (text = 'Can you translate a contract?') =>
  consumer.rest('POST', '/api/conversations', { agentId, clientWallet: consumer.address, initialMessage: text });

describe('POST /api/conversations', () => {
  it('answers 201 with the conversation and its initial message', async () => {
    const res = await open();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      agentId,
      clientWallet: consumer.address,
      status: 'ACTIVE',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      messages: [
        {
          id: expect.any(String),
          conversationId: res.body.id,
          senderWallet: consumer.address,
          content: 'Can you translate a contract?',
          messageType: 'TEXT',
          createdAt: res.body.createdAt,
        },
      ],
    });
  });

  it("refuses a clientWallet that is not the caller's (403) and an unknown agent (404)", async () => {
    const other = walletFor(server.url);
    expect(statusAndError(await consumer.rest('POST', '/api/conversations', { agentId, clientWallet: other.address, initialMessage: 'hi' }))).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    const res = await consumer.rest('POST', '/api/conversations', {
      agentId: '00000000-0000-4000-8000-000000000000',
      clientWallet: consumer.address,
      initialMessage: 'hi',
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('AGENT_NOT_FOUND');
  });
});

describe('GET /api/conversations/:id', () => {
  it('answers both participants without messages, and refuses anyone else (403)', async () => {
    const { body: created } = await open();
    const { messages: _messages, ...conversation } = created;
    expect((await consumer.rest('GET', `/api/conversations/${created.id}`)).body).toEqual(conversation);
    expect((await provider.rest('GET', `/api/conversations/${created.id}`)).body).toEqual(conversation);
    const res = await walletFor(server.url).rest('GET', `/api/conversations/${created.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('UNAUTHORIZED_ACCESS');
  });

  it('answers 404 CONVERSATION_NOT_FOUND for an unknown id', async () => {
    const res = await consumer.rest('GET', '/api/conversations/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('CONVERSATION_NOT_FOUND');
  });
});

describe('messages', () => {
  it('POST answers 201 Message; GET pages them with limit, offset and since', async () => {
    const { body: conversation } = await open('first');
    const sent = await provider.rest('POST', `/api/conversations/${conversation.id}/messages`, {
      senderWallet: provider.address,
      content: 'Yes, send it over',
      messageType: 'TEXT',
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      conversationId: conversation.id,
      senderWallet: provider.address,
      content: 'Yes, send it over',
      messageType: 'TEXT',
      createdAt: expect.any(String),
    });
    await consumer.sdk.conversations.send(conversation.id, { senderWallet: consumer.address, content: 'third', messageType: 'TEXT' });

    const all = await consumer.rest('GET', `/api/conversations/${conversation.id}/messages`);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(all.body.messages.map((m: { content: string }) => m.content)).toEqual(['first', 'Yes, send it over', 'third']);

    const page = await consumer.rest('GET', `/api/conversations/${conversation.id}/messages?limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.body.messages.map((m: { content: string }) => m.content)).toEqual(['Yes, send it over']);

    const since = await consumer.rest('GET', `/api/conversations/${conversation.id}/messages?since=${encodeURIComponent(conversation.createdAt)}`);
    expect(since.body.messages.map((m: { content: string }) => m.content)).toEqual(['Yes, send it over', 'third']);
    expect(since.body.total).toBe(2);

    const past = await consumer.rest('GET', `/api/conversations/${conversation.id}/messages?offset=10`);
    expect(past.body).toMatchObject({ messages: [], total: 3 });
    expect((await consumer.rest('GET', `/api/conversations/${conversation.id}/messages?limit=101`)).status).toBe(422);
  });

  it("refuses a senderWallet that is not the caller's, and non-participants (403)", async () => {
    const { body: conversation } = await open();
    const stranger = walletFor(server.url);
    expect(statusAndError(await consumer.rest('POST', `/api/conversations/${conversation.id}/messages`, { senderWallet: provider.address, content: 'x', messageType: 'TEXT' }))).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    expect(statusAndError(await stranger.rest('POST', `/api/conversations/${conversation.id}/messages`, { senderWallet: stranger.address, content: 'x', messageType: 'TEXT' }))).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    expect(statusAndError(await stranger.rest('GET', `/api/conversations/${conversation.id}/messages`))).toEqual([403, 'UNAUTHORIZED_ACCESS']);
  });

  it('counts only one first reply when the agent answers concurrently', async () => {
    const { body: conversation } = await open();
    const before = await server.db.em().getConnection().execute<{ response_count: number }[]>('select response_count from agent where id = ?', [agentId]);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        provider.sdk.conversations.send(conversation.id, { senderWallet: provider.address, content: `reply ${i}`, messageType: 'TEXT' }),
      ),
    );
    const after = await server.db.em().getConnection().execute<{ response_count: number }[]>('select response_count from agent where id = ?', [agentId]);
    expect(Number(after[0]!.response_count)).toBe(Number(before[0]!.response_count) + 1);
  });

  it("the agent's first reply sets its responseTime", async () => {
    const { body: conversation } = await open();
    await provider.sdk.conversations.send(conversation.id, { senderWallet: provider.address, content: 'on it', messageType: 'TEXT' });
    const agent = await consumer.sdk.agents.get(agentId);
    expect(agent.responseTime).toBeGreaterThan(0);
  });
});

describe('wallet signatures', () => {
  const body = () => JSON.stringify({ agentId, clientWallet: consumer.address, initialMessage: 'replay me' });

  it('refuses the same signed POST twice (401, reason replayed) and accepts a fresh signature', async () => {
    const headers = { ...(await signedHeaders(consumer.signer, 'POST', '/api/conversations')), 'content-type': 'application/json' };
    const first = await fetch(`${server.url}/api/conversations`, { method: 'POST', headers, body: body() });
    expect(first.status).toBe(201);
    const again = await fetch(`${server.url}/api/conversations`, { method: 'POST', headers, body: body() });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ error: 'INVALID_SIGNATURE', message: expect.any(String), details: { reason: 'replayed' } });
    expect((await open('fresh')).status).toBe(201);
  });

  it('accepts a signed GET more than once', async () => {
    const { body: conversation } = await open();
    const path = `/api/conversations/${conversation.id}`;
    const headers = await signedHeaders(consumer.signer, 'GET', path);
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.url}${path}`, { headers })).status).toBe(200);
  });

  it.each([
    ['more than 5 minutes old', -5 * 60_000 - 1_000],
    ['more than 30 s ahead', 31_000],
  ])('refuses a timestamp %s (401, reason expired)', async (_when, offset) => {
    const reason = 'expired';
    const headers = { ...(await signedHeaders(consumer.signer, 'POST', '/api/conversations', Date.now() + offset)), 'content-type': 'application/json' };
    const res = await fetch(`${server.url}/api/conversations`, { method: 'POST', headers, body: body() });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { details: object }).details).toEqual({ reason });
  });

  it('refuses a signature over another URL (401, reason wrong)', async () => {
    const headers = { ...(await signedHeaders(consumer.signer, 'POST', '/api/agents/register')), 'content-type': 'application/json' };
    const res = await fetch(`${server.url}/api/conversations`, { method: 'POST', headers, body: body() });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { details: object }).details).toEqual({ reason: 'wrong' });
  });
});
