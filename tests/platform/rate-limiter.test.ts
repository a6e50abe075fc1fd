import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RATE_RULES } from '../../server/marketplace/rate-limits.ts';
import { createRateLimiter, type RateDecision, type RateLimiter, type RateRule } from '../../server/platform/rate-limiter.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createTestDatabase, onPostgres } from '../helpers/server.ts';

const small: RateRule = { name: 'test.small', points: 5, durationSeconds: 60 };
const other: RateRule = { name: 'test.other', points: 2, durationSeconds: 60 };
const short: RateRule = { name: 'test.short', points: 2, durationSeconds: 1 };

const uniqueKey = () => `wallet-${randomUUID()}`;
const nowSeconds = () => Date.now() / 1000;

async function consumeTimes(limiter: RateLimiter, rule: RateRule, key: string, times: number): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.consume(rule, key));
  return decisions;
}

function expectRefused(decision: RateDecision | undefined, rule: RateRule) {
  expect(decision).toMatchObject({ allowed: false, limit: rule.points, remaining: 0 });
  expect(decision!.retryAfterSeconds).toBeGreaterThan(0);
  expect(decision!.retryAfterSeconds).toBeLessThanOrEqual(rule.durationSeconds);
  expect(decision!.resetAt).toBeGreaterThan(nowSeconds());
  expect(decision!.resetAt).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + rule.durationSeconds);
}

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

/** The behaviour every store must have; `limiter()` is read when the tests run. */
function commonBehaviour(limiter: () => RateLimiter) {
  it('allows `points` requests with remaining counting down to 0, then refuses with Retry-After', async () => {
    const key = uniqueKey();
    const decisions = await consumeTimes(limiter(), small, key, small.points + 1);
    const allowed = decisions.slice(0, small.points);
    expect(allowed.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
    expect(allowed.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    for (const d of allowed) {
      expect(d).toMatchObject({ limit: 5, retryAfterSeconds: 0 });
      expect(d.resetAt).toBeGreaterThan(nowSeconds());
      expect(d.resetAt).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + small.durationSeconds);
    }
    expectRefused(decisions[small.points], small);
  });

  it('keeps keys independent', async () => {
    const a = uniqueKey();
    await consumeTimes(limiter(), other, a, other.points);
    expect((await limiter().consume(other, a)).allowed).toBe(false);
    expect(await limiter().consume(other, `ip:${randomUUID()}`)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps rules independent', async () => {
    const key = uniqueKey();
    await consumeTimes(limiter(), other, key, other.points + 1);
    expect(await limiter().consume(small, key)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('accepts long and odd keys without mixing them up', async () => {
    const long = 'x'.repeat(5000);
    const odd = 'ip:fe80::1%eth0 \u{1F600}\'";--';
    await consumeTimes(limiter(), other, long, other.points);
    expect((await limiter().consume(other, long)).allowed).toBe(false);
    expect(await limiter().consume(other, odd)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter().consume(other, 'x'.repeat(4999))).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('rejects a rule name reused with other limits', async () => {
    await limiter().consume(other, uniqueKey());
    await expect(limiter().consume({ ...other, points: 3 }, uniqueKey())).rejects.toThrow(/two different limits/);
  });

  it('lets requests through again once the window has passed', async () => {
    const key = uniqueKey();
    const decisions = await consumeTimes(limiter(), short, key, short.points + 1);
    expectRefused(decisions[short.points], short);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await limiter().consume(short, key)).toMatchObject({ allowed: true, remaining: 1 });
  });
}

describe('memory store', () => {
  let limiter: RateLimiter;
  beforeAll(() => {
    limiter = createRateLimiter({ kind: 'memory' });
  });
  afterAll(() => limiter.close());
  commonBehaviour(() => limiter);
});

function urlOf(config: DatabaseConfig): string {
  if (config.kind !== 'postgresql') throw new Error('expected a PostgreSQL database');
  return config.url;
}

describe.runIf(onPostgres)('postgres store', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const pools: pg.Pool[] = [];
  const limiters: RateLimiter[] = [];
  const storeErrors: unknown[] = [];

  /** One "process": its own pool and limiter on the test database. */
  function openProcess(url: string): RateLimiter {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
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
