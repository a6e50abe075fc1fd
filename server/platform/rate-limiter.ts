/**
 * Fixed-window rate limiting on rate-limiter-flexible: rules in, allow/refuse decisions out. Which calls
 * count against which rule is the marketplace's (server/marketplace/rate-limits.ts).
 *
 * - memory: one RateLimiterMemory per rule; the embedded single-process default.
 * - postgres: one RateLimiterPostgres per rule, all sharing the table `rate_limits` (rows are told apart
 *   by `keyPrefix` = rule name). Each consume is one atomic INSERT .. ON CONFLICT DO UPDATE, so every
 *   process on the same database shares the counters (scale-out, docs/architecture.md). Window expiry
 *   is computed from each process's Date.now(): server clocks must be NTP-synchronised.
 *
 * Store failure (database down, pool exhausted, query slower than `timeoutMs`): the request is NOT
 * failed and NOT waved through. It is counted by a per-process RateLimiterMemory with the same rule
 * (the library's "insurance limiter" idea, done by hand so the failure can be reported), and
 * `onStoreError` is called. While the store is down limits therefore still hold per process: with N
 * processes a key gets at most N x limit per window. The store is retried on every request; when it
 * comes back its counters take over again.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateRule {
  /** Also the key prefix in the store: two rules must not share a name. */
  name: string;
  points: number;
  durationSeconds: number;
}

const MINUTE = 60;
const HOUR = 3600;

export interface RateDecision {
  allowed: boolean;
  /** X-RateLimit-Limit */
  limit: number;
  /** X-RateLimit-Remaining: requests still allowed in the current window. */
  remaining: number;
  /** X-RateLimit-Reset: end of the current window, Unix seconds. */
  resetAt: number;
  /** Retry-After for a 429; 0 when allowed. */
  retryAfterSeconds: number;
}

export type RateLimitStore =
  /** Nothing is counted: every call is allowed (benchmarks, trusted networks). */
  | { kind: 'off' }
  | { kind: 'memory' }
  | {
      kind: 'postgres';
      /** Owned by the caller: close() does not end it. */
      pool: pg.Pool;
      /** Called whenever the store fails and the per-process fallback decided instead. Default: a throttled process warning. */
      onStoreError?: (error: unknown, rule: RateRule) => void;
      /** A store call slower than this counts as failed (a hung database must not hang requests). Default 1000. */
      timeoutMs?: number;
    };

export interface RateLimiter {
  /** Counts one request of `key` (wallet address or `ip:<address>`) against `rule`. */
  consume(rule: RateRule, key: string): Promise<RateDecision>;
  /** Stops timers; does not end a caller's pool (end it after close). */
  close(): Promise<void>;
}

export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * The limiter the configuration asks for: none with RATE_LIMITS=off, in memory for the single-process embedded
 * database, else counters shared by every process through PostgreSQL (its own small pool, ended by close()).
 */
export function openRateLimiter(config: Pick<Config, 'database' | 'rateLimits'>, log: Logger): RateLimiter {
  if (config.rateLimits === 'off') return unlimited;
  if (config.database.kind !== 'postgresql') return memoryLimiter();
  const pool = new pg.Pool({ connectionString: config.database.url, max: 5 });
  // An idle connection the server drops (a restart, a terminated backend) must not crash the process: the pool
  // replaces it, and a failing store falls back to counting in memory.
  pool.on('error', (err) => log.warn({ err }, 'rate-limit store connection lost'));
  const limiter = postgresLimiter({ kind: 'postgres', pool, onStoreError: (err, rule) => log.warn({ err, rule: rule.name }, 'rate-limit store failed; counting in memory') });
  return { consume: limiter.consume, close: () => limiter.close().then(() => pool.end()) };
}

export function createRateLimiter(store: RateLimitStore): RateLimiter {
  if (store.kind === 'off') return unlimited;
  return store.kind === 'memory' ? memoryLimiter() : postgresLimiter(store);
}

/** Allows everything; the headers still name each rule's limit. */
const unlimited: RateLimiter = {
  consume: async (rule) => ({ allowed: true, limit: rule.points, remaining: rule.points, resetAt: Math.ceil(Date.now() / 1000) + rule.durationSeconds, retryAfterSeconds: 0 }),
  close: async () => {},
};

function memoryLimiter(): RateLimiter {
  const limiters = new RuleCache((rule) => new RateLimiterMemory(limiterOptions(rule)));
  let closed = false;
  return {
    async consume(rule, key) {
      if (closed) throw new Error('rate limiter is closed');
      return decide(rule, () => limiters.get(rule).consume(storeKey(key)));
    },
    async close() {
      closed = true;
    },
  };
}

function postgresLimiter(store: Extract<RateLimitStore, { kind: 'postgres' }>): RateLimiter {
  const { pool } = store;
  const timeoutMs = store.timeoutMs ?? 1000;
  const onStoreError = store.onStoreError ?? defaultStoreErrorReporter();
  // The table is created once per process (see ensureTable), so every limiter starts with
  // tableCreated: true. The library's own 5-minute cleanup timer is per limiter and never stopped;
  // one cleanup of the whole table below, cleared by close(), replaces it.
  const limiters = new RuleCache(
    (rule) =>
      new RateLimiterPostgres({
        ...limiterOptions(rule),
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: false,
        // Once a key is refused it stays refused until its window ends everywhere (fixed window), so
        // this process can answer further requests of that key from memory: floods cost no queries.
        inMemoryBlockOnConsumed: rule.points + 1,
      }),
  );
  const fallback = new RuleCache((rule) => new RateLimiterMemory(limiterOptions(rule)));

  let ready: Promise<void> | undefined;
  const ensureTable = () =>
    (ready ??= createTable(pool).catch((error: unknown) => {
      ready = undefined; // retried by the next request
      throw error;
    }));

  const cleanup = setInterval(() => {
    pool.query(`DELETE FROM "${RATE_LIMIT_TABLE}" WHERE expire < $1`, [Date.now() - HOUR * 1000]).catch(() => {
      // Not critical: expired rows are reset on their next use anyway.
    });
  }, 5 * MINUTE * 1000);
  cleanup.unref();

  let closed = false;
  return {
    async consume(rule, key) {
      if (closed) throw new Error('rate limiter is closed');
      const limiter = limiters.get(rule);
      const k = storeKey(key);
      try {
        return await decide(rule, () =>
          withTimeout(
            ensureTable().then(() => limiter.consume(k)),
            timeoutMs,
          ),
        );
      } catch (error) {
        onStoreError(error, rule);
        return decide(rule, () => fallback.get(rule).consume(k));
      }
    },
    async close() {
      closed = true;
      clearInterval(cleanup);
    },
  };
}

/**
 * CREATE TABLE IF NOT EXISTS is not safe against itself: processes starting at once both miss the
 * table and all but one fail with 23505 (the library swallows that code, but relies on it). Here the
 * library's own creation (ready callback) runs on one connection inside a transaction holding an
 * advisory lock, so processes take turns and the later ones find the table. The DDL stays the
 * library's, so it matches the queries it issues. Awaited before the first consume of every process.
 */
async function createTable(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while checked out is reported on the client, not the pool: unheard, it would crash the process.
  const lost = (error: Error) => void (broken ??= error);
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('rate-limiter-flexible:${RATE_LIMIT_TABLE}'))`);
    await new Promise<void>((resolve, reject) => {
      new RateLimiterPostgres(
        {
          storeClient: client,
          storeType: 'client',
          tableName: RATE_LIMIT_TABLE,
          keyPrefix: 'setup',
          points: 1,
          duration: 1,
          clearExpiredByTimeout: false,
        },
        (error) => (error ? reject(error) : resolve()),
      );
    });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.off('error', lost);
    client.release(broken); // a lost connection, or one that cannot roll back, is discarded
  }
}

/** One library limiter per rule, created on first use. */
class RuleCache<T extends RateLimiterAbstract> {
  readonly #make: (rule: RateRule) => T;
  readonly #entries = new Map<string, { rule: RateRule; limiter: T }>();

  constructor(make: (rule: RateRule) => T) {
    this.#make = make;
  }

  get(rule: RateRule): T {
    const entry = this.#entries.get(rule.name);
    if (entry) {
      // Counters live under the rule's name: a second rule of that name would share (and corrupt) them.
      if (entry.rule.points !== rule.points || entry.rule.durationSeconds !== rule.durationSeconds) {
        throw new Error(`rate rule "${rule.name}" used with two different limits`);
      }
      return entry.limiter;
    }
    validateRule(rule);
    const limiter = this.#make(rule);
    this.#entries.set(rule.name, { rule, limiter });
    return limiter;
  }
}

function validateRule(rule: RateRule): void {
  if (!/^[a-z0-9._-]{1,64}$/i.test(rule.name)) throw new Error(`invalid rate rule name "${rule.name}"`);
  if (!Number.isInteger(rule.points) || rule.points < 1) throw new Error(`rate rule "${rule.name}": points must be a positive integer`);
  if (!Number.isInteger(rule.durationSeconds) || rule.durationSeconds < 1) {
    throw new Error(`rate rule "${rule.name}": durationSeconds must be a positive integer`);
  }
}

function limiterOptions(rule: RateRule) {
  return { keyPrefix: rule.name, points: rule.points, duration: rule.durationSeconds };
}

/**
 * The store's key column is varchar(255) and holds `<rule name>:<key>`; keys come from clients
 * (wallets, IPv6 addresses, forwarded headers) and may be long or odd. Ordinary keys are kept
 * readable; anything else becomes a fixed-length hash. '#' cannot occur in a kept key, so a hashed
 * key never equals a kept one.
 */
function storeKey(key: string): string {
  if (/^[A-Za-z0-9:._-]{1,128}$/.test(key)) return key;
  return `#${createHash('sha256').update(key, 'utf8').digest('base64url')}`;
}

/** Maps the library's outcome (resolve = allowed, reject with RateLimiterRes = refused) to a decision. */
async function decide(rule: RateRule, consume: () => Promise<RateLimiterRes>): Promise<RateDecision> {
  let res: RateLimiterRes;
  let allowed: boolean;
  try {
    res = await consume();
    allowed = true;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error; // a store failure, not a refusal
    res = error;
    allowed = false;
  }
  const now = Date.now();
  // msBeforeNext is -1 only for keys without expiry, which these rules never create.
  const msBeforeNext = Math.max(res.msBeforeNext, 0);
  return {
    allowed,
    limit: rule.points,
    remaining: allowed ? Math.max(res.remainingPoints, 0) : 0,
    resetAt: Math.ceil((now + msBeforeNext) / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`rate limit store did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Never silent, never a flood: at most one process warning a minute. */
function defaultStoreErrorReporter(): (error: unknown, rule: RateRule) => void {
  let last = 0;
  return (error) => {
    if (Date.now() - last < MINUTE * 1000) return;
    last = Date.now();
    process.emitWarning(
      `rate limit store failed, using per-process limits: ${error instanceof Error ? error.message : String(error)}`,
      { code: 'RATE_LIMIT_STORE_DOWN' },
    );
  };
}
