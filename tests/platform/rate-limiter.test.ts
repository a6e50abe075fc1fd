/**
 * The rate limiter (server/platform/rate-limiter.ts): the documented table of rules, the memory store, and the
 * PostgreSQL store's fallback when its database fails (the store itself: rate-limiter.postgres.test.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCall, enforceRateLimit, IP_CEILINGS, ipKey, RATE_RULES } from '../../server/marketplace/rate-limits.ts';
import { AppError } from '../../server/platform/errors.ts';
import { createRateLimiter, openRateLimiter, type RateLimiter } from '../../server/platform/rate-limiter.ts';
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
    expect(Object.fromEntries(Object.values(IP_CEILINGS).map((r) => [r.name, [r.points, r.durationSeconds]]))).toEqual({
      'ip.agents.register': [50, 3600],
      'ip.writes': [1200, 60],
    });
  });
});

describe('the headers and the refusal of a counted call (marketplace/rate-limits.ts)', () => {
  /** The headers a call's answer got. */
  const answer = (headersSent = false) => {
    const headers: Record<string, number | string> = {};
    return { headers, headersSent, setHeader: (name: string, value: number | string) => (headers[name] = value) };
  };

  it('an allowed call gets X-RateLimit-Limit, -Remaining and -Reset, and no Retry-After', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    const res = answer();
    await countCall(limiter, res, 'agents.register', uniqueKey());
    expect(Object.keys(res.headers).sort()).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(res.headers).toMatchObject({ 'X-RateLimit-Limit': 5, 'X-RateLimit-Remaining': 4 });
    await limiter.close();
  });

  it('beyond the limit: 429 RATE_LIMIT_EXCEEDED naming the wait, with the limit and Retry-After', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    const key = uniqueKey();
    for (let i = 0; i < 5; i++) await enforceRateLimit(limiter, answer(), 'agents.register', key);
    const res = answer();
    const refusal = await enforceRateLimit(limiter, res, 'agents.register', key).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    const { code, message, details } = refusal as AppError;
    const wait = res.headers['Retry-After'];
    expect(wait).toBeGreaterThan(0);
    expect([code, message, details]).toEqual(['RATE_LIMIT_EXCEEDED', `Too many requests: retry in ${wait} s`, { limit: 5, retryAfterSeconds: wait }]);
    expect(res.headers['X-RateLimit-Remaining']).toBe(0);
    await limiter.close();
  });

  it('sets nothing once the answer has gone out', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    const res = answer(true);
    await countCall(limiter, res, undefined, uniqueKey());
    expect(res.headers).toEqual({});
    await limiter.close();
  });

  it('callers without a wallet are counted per IP address', () => {
    expect([ipKey('203.0.113.7'), ipKey('198.51.100.1')]).toEqual(['ip:203.0.113.7', 'ip:198.51.100.1']);
  });
});

describe('rules', () => {
  it('refuses a rule with a malformed name, fewer than 1 point or a duration under 1 s, before counting anything', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    const bad = [
      [{ name: 'has space', points: 1, durationSeconds: 1 }, /invalid rate rule name/],
      [{ name: '', points: 1, durationSeconds: 1 }, /invalid rate rule name/],
      [{ name: 'x'.repeat(65), points: 1, durationSeconds: 1 }, /invalid rate rule name/],
      [{ name: 'a.b\nc', points: 1, durationSeconds: 1 }, /invalid rate rule name/],
      [{ name: 'zero.points', points: 0, durationSeconds: 1 }, /points must be a positive integer/],
      [{ name: 'half.points', points: 1.5, durationSeconds: 1 }, /points must be a positive integer/],
      [{ name: 'zero.duration', points: 1, durationSeconds: 0 }, /durationSeconds must be a positive integer/],
    ] as const;
    for (const [rule, message] of bad) await expect(limiter.consume(rule, uniqueKey()), rule.name).rejects.toThrow(message);
    expect(await limiter.consume({ name: 'ok.Rule_1-x', points: 1, durationSeconds: 1 }, uniqueKey())).toMatchObject({ allowed: true });
    await limiter.close();
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

  it('reports a failing store as a process warning, at most once a minute, when no reporter is given', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
    pool.on('error', () => {});
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    const limiter = createRateLimiter({ kind: 'postgres', pool });
    try {
      const key = uniqueKey();
      await consumeTimes(limiter, other, key, 2);
      await new Promise((resolve) => setImmediate(resolve));
      const ours = warnings.filter((w) => (w as NodeJS.ErrnoException).code === 'RATE_LIMIT_STORE_DOWN');
      expect(ours).toHaveLength(1);
      expect(ours[0]!.message).toMatch(/^rate limit store failed, using per-process limits: /);
    } finally {
      process.off('warning', listen);
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
      expect(decision).toMatchObject({ allowed: true, limit: 5, remaining: 5, retryAfterSeconds: 0 });
      // The window it would have: an hour from now, in seconds.
      expect(Math.abs(decision.resetAt - (Date.now() / 1000 + 3600))).toBeLessThan(2);
    }
  });
});

describe('the limiter a configuration opens', () => {
  it('with DATABASE_URL: a store that cannot be reached is logged, naming the rule, and counted in memory meanwhile', async () => {
    const { pino } = await import('pino');
    const { Writable } = await import('node:stream');
    let logged = '';
    const sink = new Writable({ write: (chunk, _encoding, done) => ((logged += chunk.toString()), done()) });
    const limiter = openRateLimiter({ rateLimits: 'on', database: { kind: 'postgresql', url: 'postgres://nobody@127.0.0.1:1/none' } }, pino({ level: 'warn' }, sink));
    try {
      const key = uniqueKey();
      expect((await consumeTimes(limiter, other, key, 3)).map((d) => d.allowed)).toEqual([true, true, false]);
      const lines = logged.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; rule: string; err?: unknown });
      expect(lines[0]).toMatchObject({ msg: 'rate-limit store failed; counting in memory', rule: 'test.other', err: expect.anything() });
    } finally {
      await limiter.close();
    }
  });

  it('RATE_LIMITS=off counts nothing; the embedded database counts in memory; a closed limiter refuses to count', async () => {
    const { pino } = await import('pino');
    const { Writable } = await import('node:stream');
    let logged = '';
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _encoding, done) => ((logged += chunk.toString()), done()) }));
    const off = openRateLimiter({ rateLimits: 'off', database: { kind: 'pglite', dataDir: 'memory://' } }, log);
    const key = uniqueKey();
    expect((await consumeTimes(off, other, key, 5)).every((d) => d.allowed && d.remaining === other.points)).toBe(true);
    const memory = openRateLimiter({ rateLimits: 'on', database: { kind: 'pglite', dataDir: 'memory://' } }, log);
    expect((await consumeTimes(memory, other, key, 3)).map((d) => d.allowed)).toEqual([true, true, false]);
    await memory.close();
    await expect(memory.consume(other, key)).rejects.toThrow('rate limiter is closed');
    expect(logged).toBe(''); // in memory: no store to fail, nothing to report
  });
});
