/**
 * The rate limiter (server/platform/rate-limiter.ts): the documented table of rules, the memory store, and the
 * PostgreSQL store's fallback when its database fails (the store itself: rate-limiter.postgres.test.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_RULES } from '../../server/marketplace/rate-limits.ts';
import { createRateLimiter, type RateLimiter } from '../../server/platform/rate-limiter.ts';
import { commonBehaviour, consumeTimes, expectRefused, other, uniqueKey } from './rate-limiter-behaviour.ts';

describe('RATE_RULES', () => {
  it('is the documented table (docs/marketplace.md "Rate limits") plus the default of 120 per minute', () => {
    const table = Object.fromEntries(Object.values(RATE_RULES).map((r) => [r.name, [r.points, r.durationSeconds]]));
    expect(table).toEqual({
      'agents.search': [100, 60],
      'agents.get': [200, 60],
      'agents.register': [5, 3600],
      'conversations.create': [20, 60],
      'messages.send': [60, 60],
      'orders.create': [10, 60],
      'orders.accept': [10, 60],
      default: [120, 60],
    });
  });
});

describe('memory store', () => {
  let limiter: RateLimiter;
  beforeAll(() => {
    limiter = createRateLimiter({ kind: 'memory' });
  });
  afterAll(() => limiter.close());
  commonBehaviour(() => limiter);
});

describe('postgres store failure', () => {
  it('falls back to per-process limits and reports the error when the database is unreachable', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
    pool.on('error', () => {});
    const errors: unknown[] = [];
    const limiter = createRateLimiter({ kind: 'postgres', pool, onStoreError: (error) => errors.push(error) });
    try {
      const key = uniqueKey();
      const decisions = await consumeTimes(limiter, other, key, other.points + 1);
      expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([[true, 1], [true, 0], [false, 0]]);
      expectRefused(decisions[2], other);
      expect(errors).toHaveLength(3);
    } finally {
      await limiter.close();
      await pool.end();
    }
  });

  it('does not let a hung database hang requests', async () => {
    const hung = { connect: () => new Promise(() => {}), query: () => new Promise(() => {}) } as unknown as pg.Pool;
    const errors: unknown[] = [];
    const limiter = createRateLimiter({ kind: 'postgres', pool: hung, timeoutMs: 50, onStoreError: (error) => errors.push(error) });
    const started = Date.now();
    expect(await limiter.consume(other, uniqueKey())).toMatchObject({ allowed: true, remaining: 1 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(String(errors[0])).toMatch(/did not answer within 50 ms/);
    await limiter.close();
  });
});

describe('RATE_LIMITS=off', () => {
  it('allows every call and still names the rule', async () => {
    const limiter = createRateLimiter({ kind: 'off' });
    for (let i = 0; i < 500; i++) {
      const decision = await limiter.consume(RATE_RULES['agents.register'], 'ip:127.0.0.1');
      expect(decision).toMatchObject({ allowed: true, limit: 5, retryAfterSeconds: 0 });
    }
  });
});
