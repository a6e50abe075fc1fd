/**
 * Several server processes on one PostgreSQL: a signed request is accepted once by any of them, and
 * rate-limit counters are shared. (PGlite is single-process: collected only with DATABASE_URL.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '../../client-sdk/index.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { createTestDatabase, testConfig } from '../helpers/server.ts';
import { registration, walletFor } from '../helpers/marketplace.ts';

describe('two servers on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    [a, b] = [await startServer(testConfig(database.config), createLogger('silent')), await startServer(testConfig(database.config), createLogger('silent'))];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('refuse on one a signed request the other already accepted (401, reason replayed)', async () => {
    const wallet = walletFor(a.url);
    const body = JSON.stringify(registration(wallet.address));
    const headers = { ...(await signedHeaders(wallet.signer, 'POST', '/api/agents/register')), 'content-type': 'application/json' };
    expect((await fetch(`${a.url}/api/agents/register`, { method: 'POST', headers, body })).status).toBe(201);
    const replayed = await fetch(`${b.url}/api/agents/register`, { method: 'POST', headers, body });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { details: object }).details).toEqual({ reason: 'replayed' });
  });

  it('share rate-limit counters: the 6th registration of a wallet within the hour is refused whichever server gets it', async () => {
    const wallet = walletFor(a.url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 ? b : a;
      const headers = { ...(await signedHeaders(wallet.signer, 'POST', '/api/agents/register')), 'content-type': 'application/json' };
      const res = await fetch(`${server.url}/api/agents/register`, { method: 'POST', headers, body: JSON.stringify(registration(wallet.address)) });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
  });
});
