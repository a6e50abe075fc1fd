/**
 * Whom a request counts against (server/platform/http/client-address.ts): the socket's peer, or behind a proxy the
 * operator trusts (TRUST_PROXY) the client it forwards for, read from X-Forwarded-For as Express reads it. Seen
 * through the marketplace's per-address rate limit of unauthenticated calls (X-RateLimit-Remaining).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let trusting: TestServer;
let plain: TestServer;

beforeAll(async () => {
  [trusting, plain] = await Promise.all([startTestServer({ rateLimits: 'on', trustProxy: ['loopback'] }), startTestServer({ rateLimits: 'on' })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([trusting?.destroy(), plain?.destroy()]);
});

/** What is left of the caller's budget after one unauthenticated search. */
const remaining = async (server: TestServer, forwardedFor?: string) => {
  const res = await fetch(`${server.url}/api/agents/search`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  expect(res.status).toBe(200);
  return Number(res.headers.get('x-ratelimit-remaining'));
};

describe('the client address', () => {
  it('behind a trusted proxy: each forwarded client has a budget of its own, the proxy one for its own calls', async () => {
    const first = await remaining(trusting, '203.0.113.1');
    expect(await remaining(trusting, '203.0.113.1')).toBe(first - 1);
    expect(await remaining(trusting, '203.0.113.2')).toBe(first);
    expect(await remaining(trusting)).toBe(first);
    // The right-most address that is not a trusted proxy: what a client wrote in front of it counts for nothing.
    expect(await remaining(trusting, '198.51.100.7, 203.0.113.2')).toBe(first - 1);
    expect(await remaining(trusting, '203.0.113.2, 127.0.0.1')).toBe(first - 2);
  });

  it('without TRUST_PROXY, X-Forwarded-For is whatever a client says: ignored, the peer is the client', async () => {
    const first = await remaining(plain, '203.0.113.1');
    expect(await remaining(plain, '203.0.113.2')).toBe(first - 1);
    expect(await remaining(plain)).toBe(first - 2);
  });
});
