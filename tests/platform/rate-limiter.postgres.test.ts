/**
 * The rate limiter's PostgreSQL store (collected only when DATABASE_URL is set): the common behaviour, counters
 * shared by processes, its table created without races, and the store's faults on a real PostgreSQL: a table it
 * may not create yet, a connection killed while creating it, the periodic clean-up, an idle connection dropped.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../server/platform/logger.ts';
import { createRateLimiter, openRateLimiter, RATE_LIMIT_TABLE, type RateDecision, type RateLimiter } from '../../server/platform/rate-limiter.ts';
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

describe('postgres store faults', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let url: string;
  let admin: pg.Client;
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    url = urlOf(database.config);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await admin?.end();
    await database?.drop();
  });

  /** A pool and a limiter on `connectionString` whose store failures are collected. */
  function open(connectionString: string, timeoutMs = 5_000) {
    const pool = new pg.Pool({ connectionString, max: 2 });
    pool.on('error', () => {});
    const errors: unknown[] = [];
    const limiter = createRateLimiter({ kind: 'postgres', pool, timeoutMs, onStoreError: (error) => errors.push(error) });
    cleanups.push(() => limiter.close().then(() => pool.end()));
    return { pool, limiter, errors };
  }

  const tableExists = async () => (await admin.query('SELECT to_regclass($1) AS t', [RATE_LIMIT_TABLE])).rows[0].t !== null;

  it('a table it may not create yet: counted in memory and reported, the connection returned; created by a later request once it may', async () => {
    const role = `rl_${randomUUID().slice(0, 8)}`;
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    cleanups.push(() => admin.query(`DROP OWNED BY ${role}`).then(() => admin.query(`DROP ROLE ${role}`)));
    await admin.query(`DROP TABLE IF EXISTS ${RATE_LIMIT_TABLE}`);
    await admin.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    const asRole = new URL(url);
    asRole.username = role;
    const { pool, limiter, errors } = open(asRole.href);
    const key = uniqueKey();

    const first = await limiter.consume(small, key);
    expect([first.allowed, first.remaining]).toEqual([true, 4]); // from the per-process fallback
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/permission denied for schema public/);
    expect([pool.totalCount, pool.idleCount]).toEqual([1, 1]); // rolled back and returned, not leaked
    expect(await tableExists()).toBe(false);

    await admin.query(`GRANT CREATE ON SCHEMA public TO ${role}`);
    const second = await limiter.consume(small, key);
    expect(errors).toHaveLength(1); // the creation was tried again, and the store answered
    expect([second.allowed, second.remaining]).toEqual([true, 4]); // the store's own count starts here
    expect(await tableExists()).toBe(true);
  });

  it('a connection killed while creating the table is discarded, and the next request creates it', async () => {
    await admin.query(`DROP TABLE IF EXISTS ${RATE_LIMIT_TABLE}`);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT pg_advisory_xact_lock(hashtext('rate-limiter-flexible:${RATE_LIMIT_TABLE}'))`);
    const { pool, limiter, errors } = open(url);
    const key = uniqueKey();
    const decision = limiter.consume(small, key);
    // The limiter's connection waits for the lock the holder has: kill it there.
    const waiting = async () =>
      (await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`)).rows;
    await vi.waitFor(async () => expect(await waiting()).toHaveLength(1), { timeout: 5_000, interval: 50 });
    await admin.query('SELECT pg_terminate_backend($1)', [(await waiting())[0].pid]);
    expect((await decision).allowed).toBe(true);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/terminat/i);
    expect(pool.totalCount).toBe(0); // a connection that cannot roll back never goes back to the pool
    await holder.query('COMMIT');
    await holder.end();

    expect((await limiter.consume(small, key)).remaining).toBe(4);
    expect(errors).toHaveLength(1);
    expect(await tableExists()).toBe(true);
  });

  it('every 5 minutes rows expired over an hour ago are deleted; none once closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { limiter } = open(url);
      await limiter.consume(small, uniqueKey()); // the table exists
      const now = Date.now();
      const insert = (key: string, expire: number) => admin.query(`INSERT INTO ${RATE_LIMIT_TABLE} (key, points, expire) VALUES ($1, 1, $2)`, [key, expire]);
      await insert('test.old:a', now - 2 * 3600_000);
      await insert('test.recent:a', now - 30 * 60_000);
      const keys = async () => (await admin.query(`SELECT key FROM ${RATE_LIMIT_TABLE} WHERE key LIKE 'test.old:%' OR key LIKE 'test.recent:%' ORDER BY key`)).rows.map((r) => r.key);

      vi.advanceTimersByTime(5 * 60_000 - 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await keys()).toEqual(['test.old:a', 'test.recent:a']);
      vi.advanceTimersByTime(1);
      await vi.waitFor(async () => expect(await keys()).toEqual(['test.recent:a']), { timeout: 5_000, interval: 50 });

      await limiter.close();
      await insert('test.old:b', now - 2 * 3600_000);
      vi.advanceTimersByTime(10 * 60_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await keys()).toEqual(['test.old:b', 'test.recent:a']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a server whose idle store connection is dropped logs it and keeps counting through the store', async () => {
    let logged = '';
    const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _encoding, done) => ((logged += chunk.toString()), done()) }));
    const limiter = openRateLimiter({ rateLimits: 'on', database: { kind: 'postgresql', url } }, log);
    cleanups.push(() => limiter.close());
    const key = uniqueKey();
    expect((await limiter.consume(small, key)).remaining).toBe(4);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = $1', ['idle']);
    await vi.waitFor(() => expect(logged).toContain('rate-limit store connection lost'), { timeout: 5_000, interval: 50 });
    expect((await limiter.consume(small, key)).remaining).toBe(3);
    expect(logged).not.toContain('counting in memory');
  });
});
