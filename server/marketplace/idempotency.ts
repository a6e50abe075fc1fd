import type { Database } from '../platform/db/orm.ts';
import { sha256Hex as sha256 } from '../platform/hash.ts';
import { IdempotencyRecord } from './entities.ts';
import { AppError, type AppErrorCode } from '../platform/errors.ts';

/** A call's first outcome, replayed for the same key: its result, or the documented error it ended with. */
export type Outcome = { ok: true; data: unknown } | { ok: false; code: AppErrorCode; message: string; details?: Record<string, unknown> };

/**
 * How long a key is remembered, and how long a call holding it may run before a retry may take it over: longer
 * than the slowest call (an accept on a real cluster waits up to SOLANA_CONFIRM_TIMEOUT_MS, 60 s by default, for
 * each of two transactions).
 */
const REMEMBER_MS = 24 * 60 * 60 * 1000;
const LOCK_MS = 5 * 60_000;
/** An Idempotency-Key: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[!-~]{1,255}$/;


/**
 * `Idempotency-Key` on POST calls (docs/orders-and-payments.md "Idempotency-Key"): the same key with the same request gets the first
 * outcome again; with a different request, 409 IDEMPOTENCY_CONFLICT. Keys are per caller (wallet), so
 * two callers cannot collide or read each other's results. A call still running holds its key: a
 * concurrent retry gets IDEMPOTENCY_CONFLICT (reason `in-progress`) rather than running twice.
 */
export class IdempotencyService {
  readonly #db: Database;
  #lastSweep = 0;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Runs `call` once per (caller, key, request); replays its outcome afterwards. */
  async run(caller: string, key: string, request: unknown, call: () => Promise<Outcome>): Promise<{ outcome: Outcome; replayed: boolean }> {
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new AppError('INVALID_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters', { 'Idempotency-Key': 'Invalid' });
    }
    const keyHash = sha256(`${caller}\n${key}`);
    const requestHash = sha256(JSON.stringify(request) ?? '');
    const claim = await this.#claim(keyHash, requestHash);
    if (!claim) return { outcome: await this.#existing(keyHash, requestHash), replayed: true };

    // Only while the key is still this call's (`lockedUntil` is its claim): a call that outlived its lock and was
    // taken over neither frees nor overwrites the key of the call that took it.
    const mine = { keyHash, outcome: null, lockedUntil: claim };
    let outcome: Outcome;
    try {
      outcome = await call();
    } catch (error) {
      // Outcomes that may differ next time (outages, rate limits, crashes) are not remembered: the key is free again.
      await this.#db.em().nativeDelete(IdempotencyRecord, mine);
      throw error;
    }
    await this.#db.em().nativeUpdate(IdempotencyRecord, mine, { outcome: outcome as Record<string, unknown> });
    this.#sweep();
    return { outcome, replayed: false };
  }

  /** Takes the key (a new row, an expired one, or one whose call died holding it); answers the claim's lock time. */
  async #claim(keyHash: string, requestHash: string): Promise<Date | undefined> {
    const now = new Date();
    const row = { keyHash, requestHash, outcome: null, lockedUntil: new Date(now.getTime() + LOCK_MS), expiresAt: new Date(now.getTime() + REMEMBER_MS) };
    const qb = this.#db.em().createQueryBuilder(IdempotencyRecord).insert(row).onConflict('keyHash').ignore();
    if ((await qb.execute('run')).affectedRows === 1) return row.lockedUntil;
    const takenOver = await this.#db.em().nativeUpdate(
      IdempotencyRecord,
      { keyHash, $or: [{ expiresAt: { $lt: now } }, { outcome: null, lockedUntil: { $lt: now }, requestHash }] },
      row,
    );
    return takenOver === 1 ? row.lockedUntil : undefined;
  }

  async #existing(keyHash: string, requestHash: string): Promise<Outcome> {
    const record = await this.#db.em().findOne(IdempotencyRecord, { keyHash });
    if (record && record.requestHash !== requestHash) {
      throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with a different request', { reason: 'different-request' });
    }
    if (!record?.outcome) {
      throw new AppError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still in progress; retry later', { reason: 'in-progress' });
    }
    return record.outcome as Outcome;
  }

  /** Forgets expired keys, at most once a minute per process, off the request's path. */
  #sweep() {
    const now = Date.now();
    if (now - this.#lastSweep < 60_000) return;
    this.#lastSweep = now;
    this.#db.em().nativeDelete(IdempotencyRecord, { expiresAt: { $lt: new Date(now) } }).catch(() => {});
  }
}
