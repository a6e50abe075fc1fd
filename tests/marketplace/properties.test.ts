/**
 * Property-based: random, malformed and unauthenticated requests to every marketplace endpoint get the
 * documented error body, never a 500, and change nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { registration, walletFor } from '../helpers/marketplace.ts';

let server: TestServer;
let agentId: string;
let conversationId: string;

beforeAll(async () => {
  server = await startTestServer();
  const provider = walletFor(server.url);
  const consumer = walletFor(server.url);
  agentId = (await provider.sdk.agents.register(registration(provider.address))).id;
  conversationId = (await consumer.sdk.conversations.create({ agentId, clientWallet: consumer.address, initialMessage: 'hello' })).id;
});
afterAll(() => server?.destroy());

const ENDPOINTS: [method: string, path: string][] = [
  ['GET', '/api/agents/search'],
  ['GET', '/api/agents/{agent}'],
  ['POST', '/api/agents/register'],
  ['PATCH', '/api/agents/{agent}'],
  ['DELETE', '/api/agents/{agent}'],
  ['GET', '/api/agents/{agent}/stats'],
  ['POST', '/api/conversations'],
  ['GET', '/api/conversations/{conversation}'],
  ['GET', '/api/conversations/{conversation}/messages'],
  ['POST', '/api/conversations/{conversation}/messages'],
];

/** Row counts of everything the marketplace stores. */
async function snapshot() {
  const rows = await server.db
    .em()
    .getConnection()
    .execute<{ agents: string; conversations: string; messages: string; updated: string }[]>(
      `select (select count(*) from agent where deleted_at is null) as agents, (select count(*) from conversation) as conversations,
              (select count(*) from message) as messages, (select max(updated_at)::text from agent) as updated`,
    );
  return rows[0];
}

const header = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 60 }), fc.constantFrom('', '1', '9'.repeat(20), '11111111111111111111111111111111'));

const request = fc.record({
  endpoint: fc.constantFrom(...ENDPOINTS),
  id: fc.oneof(fc.constant('known'), fc.uuid(), fc.string({ minLength: 1, maxLength: 40 })),
  body: fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string(),
    fc.record({ agentId: fc.uuid(), clientWallet: fc.string(), initialMessage: fc.string(), name: fc.string(), basePrice: fc.double() }).map((v) => JSON.stringify(v)),
  ),
  query: fc.dictionary(
    fc.constantFrom('limit', 'offset', 'query', 'category', 'maxPrice', 'minRating', 'since', 'x'),
    fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('1e30', '-1', '0000-01-01T00:00:00Z', '%', '_', '\u0000', '')),
    { maxKeys: 3 },
  ),
  wallet: header,
  signature: header,
  timestamp: fc.oneof(header, fc.constant(String(Date.now()))),
});

describe('random, malformed and unauthenticated requests to every marketplace endpoint', () => {
  it('always answer the documented { error, message, details? } body, never 500, and change nothing', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(request, async ({ endpoint: [method, template], id, body, query, wallet, signature, timestamp }) => {
        const path = template
          .replace('{agent}', id === 'known' ? agentId : encodeURIComponent(id))
          .replace('{conversation}', id === 'known' ? conversationId : encodeURIComponent(id));
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (wallet !== undefined) headers['x-wallet-address'] = wallet;
        if (signature !== undefined) headers['x-signature'] = signature;
        if (timestamp !== undefined) headers['x-timestamp'] = timestamp;
        const res = await fetch(`${server.url}${path}?${new URLSearchParams(query)}`, {
          method,
          headers,
          ...(method === 'GET' ? {} : { body }),
        });
        const text = await res.text();
        expect(res.status, text).toBeLessThan(500);
        expect(res.headers.get('x-ratelimit-limit'), `${method} ${path} ${res.status}`).not.toBeNull();
        if (res.status >= 400) {
          const parsed = JSON.parse(text);
          expect(Object.keys(parsed).filter((k) => !['error', 'message', 'details'].includes(k))).toEqual([]);
          expect(parsed).toMatchObject({ error: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) });
        }
      }),
      { numRuns: 300 },
    );
    expect(await snapshot()).toEqual(before);
  }, 180_000); // hundreds of real HTTP calls: room for a loaded machine
});
