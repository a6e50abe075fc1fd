/**
 * Property-based, behind authentication: validly signed writes with random bodies (a valid body, or one with a
 * field or two replaced, removed or added) reach the validators and the services of every marketplace write.
 * Each answer is a success that made exactly the documented change, or the documented error body that changed
 * nothing; never a 500. The counters show that a substantial share of the writes is accepted.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeypair } from '../../client-sdk/index.ts';
import { registration, walletFor, type Wallet } from '../helpers/marketplace.ts';
import { openTokenAccount } from '../helpers/orders.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let provider: Wallet;
let consumer: Wallet;
let agentId: string;
let conversationId: string;

beforeAll(async () => {
  // Rate limits off: hundreds of writes from two wallets are the point here (the limits have their own tests).
  server = await startTestServer({ rateLimits: 'off' });
  provider = walletFor(server.url);
  consumer = walletFor(server.url);
  await openTokenAccount(server.url, provider); // the account its orders' shares are paid into, needed to create them
  agentId = (await provider.sdk.agents.register(registration(provider.address))).id;
  conversationId = (await consumer.sdk.conversations.create({ agentId, clientWallet: consumer.address, initialMessage: 'hello' })).id;
});
afterAll(() => server?.destroy());

interface Counts {
  agents: number;
  conversations: number;
  messages: number;
  orders: number;
}

async function counts(): Promise<Counts> {
  const [row] = await server.db.em().execute<Record<keyof Counts, string>[]>(
    `select (select count(*) from agent where deleted_at is null) as agents, (select count(*) from conversation) as conversations,
            (select count(*) from message) as messages, (select count(*) from orders) as orders`,
  );
  return { agents: Number(row!.agents), conversations: Number(row!.conversations), messages: Number(row!.messages), orders: Number(row!.orders) };
}

/** One signed write: who signs it, its valid body, and what a success adds to the counts. */
interface Write {
  name: string;
  method: 'POST' | 'PATCH';
  path: () => string;
  signer: () => Wallet;
  body: (signer: Wallet) => Record<string, unknown>;
  adds: Partial<Counts>;
}

const WRITES: Write[] = [
  {
    name: 'register an agent',
    method: 'POST',
    path: () => '/api/agents/register',
    signer: () => walletFor(server.url, generateKeypair().secretKey),
    body: (signer) => ({ ...registration(signer.address) }),
    adds: { agents: 1 },
  },
  {
    name: 'update the agent',
    method: 'PATCH',
    path: () => `/api/agents/${agentId}`,
    signer: () => provider,
    body: () => ({ name: 'Renamed agent', tagline: 'New tagline', basePrice: 30 }),
    adds: {},
  },
  {
    name: 'open a conversation',
    method: 'POST',
    path: () => '/api/conversations',
    signer: () => consumer,
    body: () => ({ agentId, clientWallet: consumer.address, initialMessage: 'Can you translate a contract?' }),
    adds: { conversations: 1, messages: 1 },
  },
  {
    name: 'send a message',
    method: 'POST',
    path: () => `/api/conversations/${conversationId}/messages`,
    signer: () => consumer,
    body: () => ({ senderWallet: consumer.address, content: 'Any update?', messageType: 'TEXT' }),
    adds: { messages: 1 },
  },
  {
    name: 'create an order',
    method: 'POST',
    path: () => '/api/orders',
    // The agent's provider proposes an order in the conversation.
    signer: () => provider,
    body: () => ({ conversationId, agentId, clientWallet: consumer.address, description: 'Translate the attached contract', price: 12.5, deliveryTime: 60 }),
    adds: { orders: 1 },
  },
];

const REMOVE = Symbol('remove');
const value = fc.oneof(
  fc.constant(REMOVE),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 300 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom('', ' ', 'TEXT', 'FILE', 'Translation', '00000000-0000-4000-8000-000000000000', '11111111111111111111111111111111', -1, 0, 1e21, null),
);

/** No change half of the time (so that many writes are valid), else one or two fields replaced, removed or added. */
const changes = fc.oneof(
  fc.constant([]),
  fc.array(fc.record({ field: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('name', 'basePrice', 'price', 'content', 'agentId', 'clientWallet', 'senderWallet', 'categories', 'deliveryTime', 'messageType', 'initialMessage')), value }), {
    minLength: 1,
    maxLength: 2,
  }),
);

function applied(body: Record<string, unknown>, edits: readonly { field: string; value: unknown }[]): Record<string, unknown> {
  const result = { ...body };
  for (const { field, value: next } of edits) {
    if (next === REMOVE) delete result[field];
    else result[field] = next;
  }
  return result;
}

describe('validly signed random writes to the marketplace', () => {
  it('answer a success that made exactly the documented change, or the error body and no change; never 500', async () => {
    const accepted = new Map<string, number>(WRITES.map((w) => [w.name, 0]));
    const sent = new Map<string, number>(WRITES.map((w) => [w.name, 0]));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WRITES), changes, async (write, edits) => {
        const signer = write.signer();
        const body = applied(write.body(signer), edits);
        const before = await counts();
        const res = await signer.rest(write.method, write.path(), body);
        const after = await counts();
        sent.set(write.name, sent.get(write.name)! + 1);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status < 300) {
          accepted.set(write.name, accepted.get(write.name)! + 1);
          const expected = { ...before };
          for (const [key, added] of Object.entries(write.adds) as [keyof Counts, number][]) expected[key] += added;
          expect(after, `${write.name} ${JSON.stringify(body)}`).toEqual(expected);
        } else {
          expect(Object.keys(res.body).filter((k) => !['error', 'message', 'details'].includes(k))).toEqual([]);
          expect(res.body).toMatchObject({ error: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) });
          expect(after, `${write.name} ${res.status} changed something`).toEqual(before);
        }
      }),
      { numRuns: 250 },
    );
    console.log(`[signed writes] accepted/sent: ${WRITES.map((w) => `${w.name} ${accepted.get(w.name)}/${sent.get(w.name)}`).join(', ')}`);
    // The validators and the services behind the signature were reached, and often passed.
    for (const write of WRITES) expect(accepted.get(write.name)!, write.name).toBeGreaterThanOrEqual(Math.floor(sent.get(write.name)! / 5));
  }, 240_000);
});
