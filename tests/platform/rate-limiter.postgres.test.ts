/**
 * The rate limiter's PostgreSQL store (collected only when DATABASE_URL is set): the common behaviour, counters
 * shared by processes, and its table created without races.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/platform/logger.ts';
import { createRateLimiter, openRateLimiter, type RateDecision, type RateLimiter } from '../../server/platform/rate-limiter.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createTestDatabase } from '../helpers/server.ts';
import { commonBehaviour, small, uniqueKey } from './rate-limiter-behaviour.ts';

function urlOf(config: DatabaseConfig): string {
  if (config.kind !== 'postgresql') throw new Error('expected a PostgreSQL database');
  return config.url;
}

describe('postgres store', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const pools: pg.Pool[] = [];
  const limiters: RateLimiter[] = [];
  const storeErrors: unknown[] = [];

  /** One "process": its own pool and limiter on the test database. */
  function openProcess(url: string): RateLimiter {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // As the server's pool does: an idle connection PostgreSQL terminates (a database dropped) is not a crash.
    pool.on('error', () => {});
    pools.push(pool);
    const limiter = createRateLimiter({ kind: 'postgres', pool, onStoreError: (error) => storeErrors.push(error) });
    limiters.push(limiter);
    return limiter;
  }

  let url: string;
  let limiter: RateLimiter;
  beforeAll(async () => {
    database = await createTestDatabase();
    url = urlOf(database.config);
    limiter = openProcess(url);
  });
  afterEach(() => {
    // Every decision here must come from PostgreSQL, never from the per-process fallback.
    expect(storeErrors).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(limiters.map((l) => l.close()));
    await Promise.all(pools.map((p) => p.end()));
    await database?.drop();
  });

  commonBehaviour(() => limiter);

  it('shares counters between processes', async () => {
    const second = openProcess(url);
    const key = uniqueKey();
    const decisions: RateDecision[] = [];
    for (let i = 0; i <= small.points; i++) decisions.push(await (i % 2 ? second : limiter).consume(small, key));
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
  });

  it('a server configured with DATABASE_URL opens this store (its own pool, ended by close())', async () => {
    const opened = [0, 1].map(() => openRateLimiter({ rateLimits: 'on', database: { kind: 'postgresql', url } }, createLogger('silent')));
    const key = uniqueKey();
    const decisions = [];
    for (let i = 0; i <= small.points; i++) decisions.push(await opened[i % 2]!.consume(small, key));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    for (const one of opened) await one.close();
    await expect(opened[0]!.consume(small, key)).rejects.toThrow('rate limiter is closed');
  });

  it('creates its table without races when processes start at once, and counts concurrent requests exactly', async () => {
    const fresh = await createTestDatabase();
    try {
      const freshUrl = urlOf(fresh.config);
      const processes = Array.from({ length: 4 }, () => openProcess(freshUrl));
      const key = uniqueKey();
      const decisions = await Promise.all(Array.from({ length: 12 }, (_, i) => processes[i % 4]!.consume(small, key)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(small.points);
      expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await Promise.all(limiters.splice(-4).map((l) => l.close()));
      await Promise.all(pools.splice(-4).map((p) => p.end()));
      await fresh.drop();
    }
  });
});
