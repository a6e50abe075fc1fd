import { createTRPCClient, createWSClient, wsLink, type TRPCClient, type TRPCWebSocketClient } from '@trpc/client';
import type { AppRouter } from '../routers/index.ts';
import type { EventFrame, ProviderEventName, ProviderEvents } from '../server/marketplace/events/outbox.ts';
import { ApiError } from './errors.ts';
import { keypairSigner, signedHeaders, type WalletSigner } from './wallet.ts';

/**
 * Live provider events (docs/events.md). Browser-safe: the global WebSocket and fetch, no node:
 * imports. Two ways in:
 *  - `subscribeToEvents` / `eventStream`: the plain `/ws` channel, reconnecting by itself (exponential
 *    backoff with jitter, a fresh signature each time) and resuming with `since` = the last id seen.
 *  - `createEventsClient`: typed tRPC subscriptions over `/trpc`, resumed through tracked ids.
 */

export type { EventFrame, ProviderEventName, ProviderEvents };

/** Close codes the server uses on `/ws`; the subscription reconnects (with `since`) after either. */
export const EVENT_CLOSE_CODES = {
  /** Server shutting down. */
  goingAway: 1001,
  /** The client read too slowly. */
  lagging: 4000,
} as const;

export interface ReconnectOptions {
  /** First retry delay (before jitter). Default 500 ms. */
  minDelayMs?: number;
  /** Longest retry delay. Default 30,000 ms. */
  maxDelayMs?: number;
}

export interface EventSubscriptionOptions {
  /** Server origin, e.g. "https://marketplace.example" (http(s); the WebSocket URL is derived). */
  baseUrl: string;
  /** The agent's wallet: a signer, or a 64-byte secret key. */
  wallet: WalletSigner | Uint8Array;
  /** Replay the events after this id first (the `id` of the last frame you handled). */
  since?: number;
  onEvent(frame: EventFrame): void;
  /**
   * Connection problems (the subscription keeps retrying), or a refusal: an ApiError with the server's
   * code (`INVALID_SIGNATURE`, `UNAUTHORIZED_ACCESS`, ...), after which the subscription is closed.
   */
  onError?(error: Error): void;
  /** Each time a connection opens (the first and every reconnect). */
  onOpen?(): void;
  reconnect?: ReconnectOptions;
  /** For runtimes without a global WebSocket. */
  WebSocket?: typeof WebSocket;
  fetch?: typeof fetch;
}

export interface EventSubscription {
  /** The id of the last frame delivered (what a later `since` resumes after). */
  readonly lastEventId: number | undefined;
  /** True once closed: by `close()` or after a refusal. */
  readonly closed: boolean;
  close(): void;
}

/** Exponential backoff with jitter: a random delay between half and all of min(max, min * 2^attempt). */
export function backoffDelay(attempt: number, { minDelayMs = 500, maxDelayMs = 30_000 }: ReconnectOptions = {}): number {
  const ceiling = Math.min(maxDelayMs, minDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

const signerOf = (wallet: WalletSigner | Uint8Array) => (wallet instanceof Uint8Array ? keypairSigner(wallet) : wallet);
/** "http://host/prefix/" -> "ws://host/prefix" */
const socketBase = (baseUrl: string) => baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws');
/** A connection that lasted this long counts as a success: the next failure starts the backoff over. */
const STABLE_MS = 5_000;

/**
 * A `/ws` URL that carries its own proof, good for one connection (or one plain GET): signed is the v2 message of
 * the URL with `wallet` and `since` (when given) at the server's host; `timestamp`, `signature` and `body_sha256`
 * carry the proof (docs/events.md). For WebSocket clients of your own; `subscribeToEvents` makes one per attempt.
 */
export async function signedEventsUrl(signer: WalletSigner, baseUrl: string, { since, now }: { since?: number; now?: number } = {}): Promise<string> {
  const query = new URLSearchParams({ wallet: signer.address });
  if (since !== undefined) query.set('since', String(since));
  const path = `/ws?${query}`;
  const headers = await signedHeaders(signer, 'GET', path, { host: new URL(baseUrl).host, ...(now === undefined ? {} : { now }) });
  const proof = new URLSearchParams({ timestamp: headers['X-Timestamp'], signature: headers['X-Signature'] });
  if (headers['X-Body-SHA256'] !== undefined) proof.set('body_sha256', headers['X-Body-SHA256']);
  return `${socketBase(baseUrl)}${path}&${proof}`;
}

const isFrame = (value: unknown): value is EventFrame =>
  typeof value === 'object' && value !== null && typeof (value as EventFrame).id === 'number' && typeof (value as EventFrame).event === 'string';

/**
 * Receives the wallet's events over `/ws` until `close()`. Every (re)connection is signed afresh
 * (`signedEventsUrl`: one URL per request, `since` signed too) and asks for `since` = the last id delivered,
 * so nothing is missed or repeated across reconnects. Without `since`, it starts from the server's position at
 * the first connection (asked over plain HTTP first), so a drop before the first event loses nothing either. A refusal (401/403/422) ends it with an ApiError;
 * anything else (network, server restart, heartbeat timeout, close code 1001 or 4000) is retried.
 */
export function subscribeToEvents(options: EventSubscriptionOptions): EventSubscription {
  const signer = signerOf(options.wallet);
  const WebSocketImpl = options.WebSocket ?? globalThis.WebSocket;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let lastEventId = options.since;
  let closed = false;
  let socket: WebSocket | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;

  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // the caller's handler failing must not stop the subscription
    }
  };
  const schedule = () => {
    if (closed) return;
    retry = setTimeout(connect, backoffDelay(attempt++, options.reconnect));
  };

  /** A fresh URL for one request: the server takes each signed URL once. */
  const signedUrl = () => signedEventsUrl(signer, options.baseUrl, lastEventId === undefined ? {} : { since: lastEventId });

  /**
   * What the channel would answer, asked over plain HTTP: an ApiError for a refusal; else undefined (retry), and
   * when it would accept (426), the server's position, so a subscription without `since` starts there and a drop
   * before its first event still resumes without loss.
   */
  async function probe(): Promise<ApiError | undefined> {
    try {
      const res = await fetchImpl((await signedUrl()).replace(/^ws/, 'http'));
      const body = (await res.json()) as { error?: string; message?: string; details?: Record<string, string>; lastEventId?: unknown };
      if (res.status === 426 && lastEventId === undefined && typeof body.lastEventId === 'number') lastEventId = body.lastEventId;
      if (res.status !== 401 && res.status !== 403 && res.status !== 422) return undefined;
      return new ApiError(body.message ?? `HTTP ${res.status}`, res.status, body.error ?? 'UNKNOWN', body.details);
    } catch {
      return undefined;
    }
  }

  async function connect() {
    retry = undefined;
    if (closed) return;
    if (lastEventId === undefined) {
      const refused = await probe();
      if (closed) return;
      if (refused) {
        closed = true;
        return report(refused);
      }
    }
    let url: string;
    try {
      url = await signedUrl();
    } catch (error) {
      report(error);
      return schedule();
    }
    if (closed) return;
    const ws = new WebSocketImpl(url);
    socket = ws;
    let openedAt: number | undefined;
    ws.onopen = () => {
      openedAt = Date.now();
      try {
        options.onOpen?.();
      } catch (error) {
        report(error);
      }
    };
    ws.onmessage = (message: MessageEvent) => {
      if (typeof message.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (!isFrame(frame) || (lastEventId !== undefined && frame.id <= lastEventId)) return;
      lastEventId = frame.id;
      attempt = 0; // progress: the next failure starts the backoff over
      try {
        options.onEvent(frame);
      } catch (error) {
        report(error);
      }
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket === ws) socket = undefined;
      if (closed) return;
      if (openedAt !== undefined) {
        if (Date.now() - openedAt >= STABLE_MS) attempt = 0;
        if (event.code !== EVENT_CLOSE_CODES.goingAway) report(new Error(`Event connection closed (${event.code}${event.reason ? `: ${event.reason}` : ''}); reconnecting`));
        return schedule();
      }
      // Never opened: refused, or the server is unreachable.
      void probe().then((refused) => {
        if (closed) return;
        if (refused) {
          closed = true;
          return report(refused);
        }
        report(new Error('Could not open the event connection; retrying'));
        schedule();
      });
    };
  }

  void connect();
  return {
    get lastEventId() {
      return lastEventId;
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      clearTimeout(retry);
      socket?.close(1000, 'Client closed');
      socket = undefined;
    },
  };
}

/**
 * The same subscription as an async iterator: `for await (const frame of eventStream({ baseUrl, wallet }))`.
 * Leaving the loop (or `close()`, or `signal`) closes it; a refusal throws its ApiError from the loop.
 * Frames wait in memory until the loop takes them.
 */
export function eventStream(
  options: Omit<EventSubscriptionOptions, 'onEvent'> & { signal?: AbortSignal },
): AsyncIterableIterator<EventFrame> & EventSubscription {
  const queue: EventFrame[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const subscription = subscribeToEvents({
    ...options,
    onEvent(frame) {
      queue.push(frame);
      wake?.();
    },
    onError(error) {
      if (error instanceof ApiError) failure = error;
      options.onError?.(error);
      wake?.();
    },
  });
  const close = () => {
    subscription.close();
    wake?.();
  };
  options.signal?.addEventListener('abort', close, { once: true });
  const iterator: AsyncIterableIterator<EventFrame> & EventSubscription = {
    get lastEventId() {
      return subscription.lastEventId;
    },
    get closed() {
      return subscription.closed;
    },
    close,
    async next(): Promise<IteratorResult<EventFrame>> {
      for (;;) {
        const frame = queue.shift();
        if (frame) return { value: frame, done: false };
        if (failure) {
          const error = failure;
          failure = undefined;
          throw error;
        }
        if (subscription.closed) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
    async return(): Promise<IteratorResult<EventFrame>> {
      close();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

export interface EventsClientOptions {
  /** Server origin, e.g. "https://marketplace.example". */
  baseUrl: string;
  wallet: WalletSigner | Uint8Array;
  reconnect?: ReconnectOptions;
  WebSocket?: typeof WebSocket;
  onOpen?: () => void;
  onClose?: (cause?: { code?: number }) => void;
}

/**
 * Typed tRPC subscriptions over `/trpc` (WebSocket). The wallet proof goes in `connectionParams`,
 * signed afresh on every (re)connect (`GET:/trpc` with the server's host, v2); a resubscription after a reconnect
 * carries the last tracked id, so the server replays what was missed.
 *
 *     const client = createEventsClient({ baseUrl, wallet });
 *     client.events.subscribe.subscribe({}, { onData: ({ id, data }) => console.log(id, data.event, data.data) });
 *
 * Pass `{ lastEventId: '42' }` to start after a known id. Only subscriptions are served over WebSocket.
 */
export function createEventsClient({ baseUrl, wallet, reconnect, WebSocket: WebSocketImpl, onOpen, onClose }: EventsClientOptions): EventsClient {
  const signer = signerOf(wallet);
  const connection = createWSClient({
    url: `${socketBase(baseUrl)}/trpc`,
    connectionParams: async () => {
      const headers = await signedHeaders(signer, 'GET', '/trpc', { host: new URL(baseUrl).host });
      return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    },
    retryDelayMs: (attempt) => backoffDelay(attempt, reconnect),
    ...(WebSocketImpl ? { WebSocket: WebSocketImpl } : {}),
    ...(onOpen ? { onOpen } : {}),
    ...(onClose ? { onClose } : {}),
  });
  const trpc = createTRPCClient<AppRouter>({ links: [wsLink({ client: connection })] });
  return { events: trpc.events, connection, close: () => connection.close() };
}

/**
 * What createEventsClient returns, spelled out: the inferred type names classes in private chunks of
 * @trpc/client, which a published declaration file cannot refer to.
 */
export interface EventsClient {
  events: TRPCClient<AppRouter>['events'];
  /** The underlying tRPC WebSocket client (connection state, `close()`). */
  connection: TRPCWebSocketClient;
  close(): void;
}
