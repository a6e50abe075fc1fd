import pg from 'pg';
import type { Database } from '../../platform/db/orm.ts';
import { Agent, ProviderEvent } from '../entities.ts';
import { AppError } from '../../platform/errors.ts';
import { EVENT_CHANNEL, type EventFrame } from './outbox.ts';

/**
 * The live side of the provider-event outbox, one per server process (docs/events.md).
 *
 * The outbox table is the truth; this bus only decides when to read it. A wake-up reads
 * `provider_event where id > last seen order by id` once for the whole process (however many
 * connections) and fans the rows out to the subscribers of each wallet. Wake-ups coalesce: while a read
 * runs, any number of further wake-ups cause exactly one more read. They come from
 *  - `poke()`: services call it after committing a transaction that recorded events (same process);
 *  - PostgreSQL `LISTEN provider_events` on a dedicated connection (other processes; `recordEvent`
 *    NOTIFYs at commit), reconnected with backoff when lost, then caught up. On PGlite, its own
 *    in-process `listen` (so events recorded by code that forgets to poke still arrive at once);
 *  - a slow safety poll (default 3 s), should a NOTIFY or a poke ever be missed.
 * Outbox ids commit in increasing order (`recordEvent` serializes event-writing transactions), so
 * "id > last seen" never skips a later-committing lower id.
 *
 * Retention: rows older than `retentionMs` (default 7 days) are deleted in the background (hourly, by
 * every process; the deletes are idempotent). A reconnect with a `since` older than that gets what is left.
 */

export type EventListener = (frame: EventFrame) => void;

/** A run of frames for one wallet, in id order: replayed from the outbox, or live. */
export interface EventBatch {
  frames: EventFrame[];
  live: boolean;
}

export interface EventBusOptions {
  /** PostgreSQL URL for the LISTEN connection. Without it, PGlite's in-process `listen` is used when the database is PGlite. */
  listenUrl?: string;
  /** Safety poll interval. Default 3,000 ms. */
  pollMs?: number;
  /** Rows per outbox read (fan-out and replay). Default 500. */
  pageSize?: number;
  /** Events older than this are deleted. Default 7 days. */
  retentionMs?: number;
  /** How often old events are deleted. Default 1 hour. */
  retentionSweepMs?: number;
  /** Live frames a stream holds while its consumer lags (during a replay); beyond it, it re-reads the outbox. Default 10,000. */
  maxQueuedFrames?: number;
  /** Background failures (reads, LISTEN connection, retention). */
  onError?: (error: unknown, during: string) => void;
}

const DAY_MS = 86_400_000;

/** `application_name` of the LISTEN connections (visible in pg_stat_activity). */
export const LISTENER_NAME = 'typed-platform events';

/** PGlite's in-process LISTEN (NOTIFYs of its own single connection). */
interface EmbeddedListener {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

const frameOf = (row: { id: number | string; event: string; data: unknown }) => ({ id: Number(row.id), event: row.event, data: row.data }) as EventFrame;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class EventBus {
  readonly #db: Database;
  readonly #listenUrl: string | undefined;
  readonly #pollMs: number;
  readonly #pageSize: number;
  readonly #retentionMs: number;
  readonly #retentionSweepMs: number;
  readonly #maxQueuedFrames: number;
  readonly #onError: (error: unknown, during: string) => void;

  readonly #subscribers = new Map<string, Set<EventListener>>();
  /** Bumped by every subscribe: a read that began with no subscribers must not skip rows for a new one. */
  #generation = 0;
  #lastSeen = 0;
  #state: 'new' | 'running' | 'closed' = 'new';
  #reading: Promise<void> | undefined;
  #pending = false;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #stop = new AbortController();
  #listener: Promise<void> | undefined;
  #listening: pg.Client | undefined;
  #unlistenEmbedded: (() => Promise<void>) | undefined;
  /** Wakes every open stream (on close, so they end). */
  readonly #wakers = new Set<() => void>();

  constructor(db: Database, options: EventBusOptions = {}) {
    this.#db = db;
    this.#listenUrl = options.listenUrl;
    this.#pollMs = options.pollMs ?? 3_000;
    this.#pageSize = options.pageSize ?? 500;
    this.#retentionMs = options.retentionMs ?? 7 * DAY_MS;
    this.#retentionSweepMs = options.retentionSweepMs ?? 3_600_000;
    this.#maxQueuedFrames = options.maxQueuedFrames ?? 10_000;
    this.#onError = options.onError ?? (() => {});
  }

  /** The id of the newest event this process has read (0 before any). */
  get lastEventId(): number {
    return this.#lastSeen;
  }

  /** Whether NOTIFYs reach this bus (the LISTEN connection is up, or PGlite's listener is registered). */
  get listening(): boolean {
    return this.#listening !== undefined || this.#unlistenEmbedded !== undefined;
  }

  /**
   * Starts from the newest event already in the outbox (history is for `since` replays, not for
   * whoever connects first), opens the LISTEN connection (waiting for its first attempt) and starts
   * the poll and the retention sweep.
   */
  async start(): Promise<void> {
    if (this.#state !== 'new') return;
    const [row] = await this.#db.em().execute<{ max: string | number }[]>('select coalesce(max(id), 0) as max from provider_event');
    this.#lastSeen = Number(row?.max ?? 0);
    this.#state = 'running';
    if (this.#listenUrl) {
      const firstAttempt = Promise.withResolvers<void>();
      this.#listener = this.#listen(this.#listenUrl, firstAttempt.resolve);
      await firstAttempt.promise;
    } else {
      const { pglite } = (this.#db.orm.config.get('driverOptions') ?? {}) as { pglite?: EmbeddedListener };
      if (typeof pglite?.listen === 'function') this.#unlistenEmbedded = await pglite.listen(EVENT_CHANNEL, () => this.poke());
    }
    this.#timers.push(setInterval(() => this.poke(), this.#pollMs).unref());
    const sweep = () => void this.sweep().catch((error: unknown) => this.#onError(error, 'retention'));
    this.#timers.push(setInterval(sweep, this.#retentionSweepMs).unref());
    sweep();
  }

  /**
   * Wakes the bus: call it after committing a transaction that recorded events. Cheap: it sets a flag
   * and, unless a read is already running (which then reads once more), starts one.
   */
  poke(): void {
    if (this.#state !== 'running') return;
    this.#pending = true;
    this.#reading ??= this.#drain();
  }

  /** Live frames of one wallet, from the next read on, until the returned function is called. */
  subscribe(wallet: string, listener: EventListener): () => void {
    this.#generation++;
    let listeners = this.#subscribers.get(wallet);
    if (!listeners) this.#subscribers.set(wallet, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#subscribers.get(wallet) === listeners) this.#subscribers.delete(wallet);
    };
  }

  /** Connections (streams or listeners) per this process, all wallets. */
  get subscriberCount(): number {
    let n = 0;
    for (const listeners of this.#subscribers.values()) n += listeners.size;
    return n;
  }

  /** The wallet's events after `sinceId`, from the outbox, in pages of at most `pageSize`, until caught up. */
  async *replay(wallet: string, sinceId: number, pageSize = this.#pageSize): AsyncGenerator<EventFrame[]> {
    let cursor = sinceId;
    for (;;) {
      const rows = await this.#db
        .em()
        .find(ProviderEvent, { wallet, id: { $gt: cursor } }, { orderBy: { id: 'asc' }, limit: pageSize, fields: ['id', 'event', 'data'] });
      if (rows.length === 0) return;
      const frames = rows.map(frameOf);
      cursor = frames.at(-1)!.id;
      yield frames;
      if (rows.length < pageSize) return;
    }
  }

  /**
   * One wallet's events in id order, without gap or duplicate: with `since`, first what came after it
   * (replayed from the outbox), then live. It subscribes before replaying and holds live frames
   * meanwhile, then skips those the replay already gave. Should the consumer lag so far that more than
   * `maxQueuedFrames` live frames wait, it drops them and reads the outbox again from its position.
   * Ends when `signal` aborts or the bus closes.
   */
  async *stream(wallet: string, { since, signal }: { since?: number; signal?: AbortSignal } = {}): AsyncGenerator<EventBatch> {
    const queue: EventFrame[] = [];
    let overflowed = false;
    let wake: (() => void) | undefined;
    const waker = () => wake?.();
    const unsubscribe = this.subscribe(wallet, (frame) => {
      if (queue.length < this.#maxQueuedFrames) queue.push(frame);
      else overflowed = true;
      wake?.();
    });
    this.#wakers.add(waker);
    signal?.addEventListener('abort', waker);
    const ended = () => signal?.aborted || this.#state === 'closed';
    try {
      // Every live frame delivered from now on is newer than what this process has read so far.
      let last = since ?? this.#lastSeen;
      let replaying = since !== undefined;
      for (;;) {
        if (replaying) {
          replaying = false;
          for await (const frames of this.replay(wallet, last)) {
            if (ended()) return;
            last = frames.at(-1)!.id;
            yield { frames, live: false };
          }
        }
        if (ended()) return;
        if (overflowed) {
          queue.length = 0;
          overflowed = false;
          replaying = true;
          continue;
        }
        const frames = queue.splice(0).filter((frame) => frame.id > last);
        if (frames.length > 0) {
          last = frames.at(-1)!.id;
          yield { frames, live: true };
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      unsubscribe();
      this.#wakers.delete(waker);
      signal?.removeEventListener('abort', waker);
    }
  }

  /** Throws 403 UNAUTHORIZED_ACCESS unless the wallet owns a (not deleted) agent: events are for providers only. */
  async assertProvider(wallet: string): Promise<void> {
    const owned = await this.#db.em().count(Agent, { walletAddress: wallet, deletedAt: null });
    if (owned === 0) throw new AppError('UNAUTHORIZED_ACCESS', 'Only the wallet of a registered agent may receive its events');
  }

  /** Deletes events past the retention period; returns how many. */
  async sweep(): Promise<number> {
    return this.#db.em().nativeDelete(ProviderEvent, { createdAt: { $lt: new Date(Date.now() - this.#retentionMs) } });
  }

  /** Stops reading, ends every stream and the LISTEN connection. Call before closing the database. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    for (const timer of this.#timers) clearInterval(timer);
    this.#stop.abort();
    for (const wake of this.#wakers) wake();
    await this.#listening?.end().catch(() => {});
    await this.#unlistenEmbedded?.().catch(() => {});
    this.#unlistenEmbedded = undefined;
    await this.#listener;
    await this.#reading;
  }

  /** Reads until no wake-up is pending. Failures are reported; the next wake-up (at worst the poll) retries. */
  async #drain(): Promise<void> {
    try {
      while (this.#pending && this.#state === 'running') {
        this.#pending = false;
        while ((await this.#readPage()) && this.#state === 'running');
      }
    } catch (error) {
      this.#onError(error, 'reading the event outbox');
    } finally {
      this.#reading = undefined;
    }
  }

  /**
   * Runs a read on the LISTEN connection when it is up (otherwise idle: the bus's reads then never queue
   * behind requests for a pool connection), else through the ORM.
   */
  async #query<T>(sql: string, params: unknown[]): Promise<T[]> {
    const client = this.#listening;
    if (client) {
      let n = 0;
      return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
    }
    return this.#db.em().execute<T[]>(sql, params);
  }

  /** One outbox read for the whole process; true when the page was full (more may follow at once). */
  async #readPage(): Promise<boolean> {
    if (this.#subscribers.size === 0) {
      // Nobody to deliver to: only move the cursor, unless someone subscribed meanwhile.
      const generation = this.#generation;
      const [row] = await this.#query<{ max: string | number }>('select coalesce(max(id), 0) as max from provider_event', []);
      if (this.#generation === generation) {
        this.#lastSeen = Math.max(this.#lastSeen, Number(row?.max ?? 0));
        return false;
      }
    }
    const rows = await this.#query<{ id: string | number; wallet: string; event: string; data: Record<string, unknown> }>(
      'select id, wallet, event, data from provider_event where id > ? order by id limit ?',
      [this.#lastSeen, this.#pageSize],
    );
    for (const row of rows) {
      const frame = frameOf(row);
      this.#lastSeen = frame.id;
      for (const listener of this.#subscribers.get(row.wallet) ?? []) {
        try {
          listener(frame);
        } catch (error) {
          this.#onError(error, 'delivering an event');
        }
      }
    }
    return rows.length === this.#pageSize;
  }

  /**
   * Keeps a LISTEN connection open for as long as the bus runs: on loss, reconnects with exponential
   * backoff (250 ms doubling to 30 s, with jitter), then reads at once to catch up on what it missed.
   */
  async #listen(url: string, attempted: () => void): Promise<void> {
    const signal = this.#stop.signal;
    for (let failures = 0; !signal.aborted; ) {
      const client = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_NAME });
      const lost = Promise.withResolvers<void>();
      client.on('error', (error) => {
        if (!signal.aborted) this.#onError(error, 'event LISTEN connection');
        lost.resolve();
      });
      client.on('end', () => lost.resolve());
      client.on('notification', () => this.poke());
      try {
        await client.connect();
        await client.query(`LISTEN ${EVENT_CHANNEL}`);
        this.#listening = client;
        failures = 0;
        attempted();
        this.poke();
        await lost.promise;
      } catch (error) {
        if (!signal.aborted) this.#onError(error, 'event LISTEN connection');
        attempted();
      } finally {
        this.#listening = undefined;
        await client.end().catch(() => {});
      }
      if (signal.aborted) return;
      const delay = Math.min(30_000, 250 * 2 ** failures++);
      await sleep(delay / 2 + Math.random() * (delay / 2), signal);
    }
  }
}
