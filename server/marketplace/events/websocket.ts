import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AnyRouter } from '@trpc/server';
import { AppError } from '../../platform/errors.ts';
import { MAX_BODY_BYTES } from '../../platform/http/body.ts';
import type { Context } from '../../platform/http/context.ts';
import type { Logger } from '../../platform/logger.ts';
import { RATE_RULES } from '../rate-limits.ts';
import { proofFromQuery, WALLET_HEADERS } from '../wallet-signature.ts';
import type { Services } from '../../services.ts';
import type { EventBus } from './bus.ts';
import { clientAddress } from '../../platform/http/client-address.ts';

/**
 * The WebSocket side of the server (docs/events.md), on the node:http server's `upgrade` event:
 *
 * - `/ws?wallet=<address>`: the provider event channel. Proof of the wallet: `timestamp`, `signature` (and
 *   optionally `body_sha256`) query parameters signing the URL without them, `since` included, or the X- headers
 *   signing the URL as sent. Either signature opens one connection (or answers one plain GET), once, in any
 *   process. Refusals are HTTP answers to the upgrade with the
 *   marketplace's error body (401 INVALID_SIGNATURE, 403 UNAUTHORIZED_ACCESS for a wallet owning no agent,
 *   422 for a bad `since`, 429, 503 while shutting down). Text frames `{ id, event, data }` in outbox
 *   order; `?since=<id>` first replays what came after that id.
 * - `/trpc`: tRPC over WebSocket (subscriptions only: `events.subscribe`), proof in `connectionParams`.
 *
 * Both: protocol-level ping every `heartbeatMs` (browsers answer by themselves); a connection that has
 * not answered the previous ping is terminated. A client whose unsent data exceeds `maxBufferedBytes`
 * is closed with code 4000 (reconnect with `since` = the last id it got). Shutdown closes every
 * connection with 1001 (reconnect, elsewhere or later, with `since`).
 */

export const EVENT_CLOSE_CODES = {
  /** Server shutting down: reconnect with `since`. */
  goingAway: 1001,
  /** The client reads too slowly (too much unsent data): reconnect with `since`. */
  lagging: 4000,
} as const;

export interface EventChannelOptions {
  /** Ping interval; a connection that misses one pong is terminated. Default 30,000 ms. */
  heartbeatMs?: number;
  /** Unsent bytes a client may accumulate before it is closed with 4000. Default 1 MiB. */
  maxBufferedBytes?: number;
}

export interface EventChannels {
  /** The node:http server's `upgrade` listener. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * A plain (not upgrading) request for `/ws`: the answer the upgrade would get if refused, else 426.
   * Browsers' WebSocket hides why an upgrade failed; the SDK asks here to tell a refusal from an outage.
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Open WebSocket connections: event channel and tRPC. */
  readonly connections: { events: number; trpc: number };
  /** Refuses new upgrades and closes every connection (1001); terminates those that do not close within `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

type Refusal = { status: number; body: object; headers?: Record<string, string | number> };

const refusal = (error: AppError, status: number, headers?: Refusal['headers']): Refusal => ({
  status,
  body: { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  ...(headers ? { headers } : {}),
});

/** Answers an upgrade request with a plain HTTP response (the connection is not upgraded) and closes it. */
function refuse(socket: Duplex, { status, body, headers = {} }: Refusal) {
  if (!socket.writable) return void socket.destroy();
  const text = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
}

const SIGNATURE_HEADERS = Object.values(WALLET_HEADERS);
/** The query parameters named in refusals instead of the headers they stand for. */
const QUERY_NAMES: [string, string][] = [
  ['X-Wallet-Address', 'wallet'],
  ['X-Signature', 'signature'],
  ['X-Timestamp', 'timestamp'],
  ['X-Body-SHA256', 'body_sha256'],
];
const EVENT_ID = /^[0-9]{1,15}$/;

/** The tRPC context of a WebSocket connection: the proof comes from `connectionParams` (else the upgrade's headers). */
function socketContext(services: Services, req: IncomingMessage, connectionParams: Record<string, string | undefined> | null): Context {
  const headers: IncomingHttpHeaders = {};
  if (connectionParams) for (const [name, value] of Object.entries(connectionParams)) headers[name.toLowerCase()] = value;
  let proof: Promise<unknown> | undefined;
  return {
    services,
    headers: connectionParams ? headers : req.headers,
    method: 'GET',
    // What is signed: the path only (`GET:/trpc:<ts>`), whatever query the client library adds.
    url: (req.url ?? '/trpc').split('?', 1)[0]!,
    ip: clientAddress(req),
    host: req.headers.host,
    // No HTTP response to put headers on.
    res: { headersSent: true, setHeader: () => undefined },
    // A failure to reach the store is not kept: the next call proves the connection again.
    proveConnection: <T>(prove: () => Promise<T>) => (proof ??= prove().catch((error: unknown) => ((proof = undefined), Promise.reject(error)))) as Promise<T>,
  };
}

/** `subscriptions`: the router served as tRPC over WebSocket at `/trpc` (subscriptions only). */
export function createEventChannels(services: Services, bus: EventBus, subscriptions: AnyRouter, log: Logger, options: EventChannelOptions = {}): EventChannels {
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  let closing = false;

  // Clients send nothing on the event channel; a small cap keeps them from trying.
  const eventsWss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const trpcWss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  const trpcHandler = applyWSSHandler({
    wss: trpcWss,
    router: subscriptions,
    createContext: ({ req, info }) => socketContext(services, req, info.connectionParams),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, path }, 'tRPC WebSocket call failed');
    },
  });

  // ---- heartbeat and backpressure ----
  const alive = new WeakSet<WebSocket>();
  const watch = (ws: WebSocket) => {
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
    ws.on('error', () => ws.terminate());
  };
  for (const wss of [eventsWss, trpcWss]) wss.on('connection', watch);
  const lagging = (ws: WebSocket) => {
    if (ws.bufferedAmount <= maxBufferedBytes || ws.readyState !== ws.OPEN) return false;
    ws.close(EVENT_CLOSE_CODES.lagging, 'Too far behind: reconnect with since = the last id received');
    return true;
  };
  let lastBeat = Date.now();
  const heartbeat = setInterval(() => {
    // A late tick means this process was busy: pongs may be waiting unread, so judge nobody this time.
    const stalled = Date.now() - lastBeat > heartbeatMs * 1.5;
    lastBeat = Date.now();
    for (const ws of [...eventsWss.clients, ...trpcWss.clients]) {
      if (!alive.has(ws) && !stalled) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, heartbeatMs).unref();
  // tRPC sends without waiting: look at its connections' backlog every second.
  const backpressure = setInterval(() => trpcWss.clients.forEach(lagging), Math.min(1000, heartbeatMs)).unref();

  // ---- the event channel ----
  /** Who may open `/ws` and from which id, or why not. */
  async function authorize(req: IncomingMessage): Promise<{ wallet: string; since?: number } | Refusal> {
    const target = req.url ?? '/';
    const query = new URL(target, 'http://localhost').searchParams;
    const walletParam = query.get('wallet');
    const sinceParam = query.get('since');
    if (sinceParam !== null && !EVENT_ID.test(sinceParam)) {
      const error = new AppError('VALIDATION_ERROR', 'Invalid request', { since: 'Must be an event id (a non-negative integer)' });
      return refusal(error, 422);
    }
    const headerProof = SIGNATURE_HEADERS.some((name) => req.headers[name] !== undefined);
    // A signature in a URL is soon in logs and histories: each opens one connection, whichever way it is sent.
    const proof = await services.walletAuth.authenticate(
      { method: 'GET', ...(headerProof ? { url: target, headers: req.headers } : proofFromQuery(target)), host: req.headers.host },
      { singleUse: true },
    );
    if ('failure' in proof) {
      const { failure } = proof;
      if (headerProof) return refusal(failure, 401);
      // Name the query parameters, not the headers they stand in for.
      const message = QUERY_NAMES.reduce((text, [name, parameter]) => text.replaceAll(name, parameter), failure.message).replace(/ header\b/, ' query parameter');
      return refusal(new AppError(failure.code, `${message} (sign GET:<this URL without timestamp, signature and body_sha256>:<timestamp>)`, failure.details), 401);
    }
    const { wallet } = proof;
    if (walletParam !== null && walletParam !== wallet) {
      return refusal(new AppError('UNAUTHORIZED_ACCESS', 'The wallet query parameter must be the signing wallet'), 403);
    }
    const decision = await services.rateLimiter.consume(RATE_RULES.default, wallet);
    if (!decision.allowed) {
      const error = new AppError('RATE_LIMIT_EXCEEDED', `Too many requests: retry in ${decision.retryAfterSeconds} s`, {
        limit: decision.limit,
        retryAfterSeconds: decision.retryAfterSeconds,
      });
      return refusal(error, 429, {
        'X-RateLimit-Limit': decision.limit,
        'X-RateLimit-Remaining': decision.remaining,
        'X-RateLimit-Reset': decision.resetAt,
        'Retry-After': decision.retryAfterSeconds,
      });
    }
    try {
      await bus.assertProvider(wallet);
    } catch (error) {
      if (error instanceof AppError) return refusal(error, 403);
      throw error;
    }
    return sinceParam === null ? { wallet } : { wallet, since: Number(sinceParam) };
  }

  /** Sends the wallet's frames until the connection closes: replayed pages wait for the socket to drain, live ones do not. */
  async function serve(ws: WebSocket, wallet: string, since: number | undefined) {
    const stop = new AbortController();
    const closed = new Promise<void>((resolve) => ws.once('close', () => (stop.abort(), resolve())));
    for await (const { frames, live } of bus.stream(wallet, { since, signal: stop.signal })) {
      if (ws.readyState !== ws.OPEN) return;
      const last = frames.length - 1;
      const flushed = new Promise<void>((resolve) => frames.forEach((frame, i) => ws.send(JSON.stringify(frame), i === last ? () => resolve() : undefined)));
      if (!live) await Promise.race([flushed, closed]);
      else if (lagging(ws)) return;
    }
  }

  const unavailable = () => refusal(new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down: reconnect'), 503, { 'Retry-After': 1 });

  async function upgradeEvents(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const decision = await authorize(req);
    if ('status' in decision) return refuse(socket, decision);
    if (closing) return refuse(socket, unavailable());
    eventsWss.handleUpgrade(req, socket, head, (ws) => {
      eventsWss.emit('connection', ws, req);
      serve(ws, decision.wallet, decision.since).catch((err: unknown) => {
        log.error({ err, wallet: decision.wallet }, 'event channel failed');
        ws.close(1011, 'Internal error: reconnect with since');
      });
    });
  }

  return {
    handleUpgrade(req, socket, head) {
      // A client that goes away mid-handshake must not crash the process.
      socket.on('error', () => socket.destroy());
      const path = (req.url ?? '/').split('?', 1)[0];
      if (closing) return refuse(socket, unavailable());
      if (path === '/trpc') return trpcWss.handleUpgrade(req, socket, head, (ws) => trpcWss.emit('connection', ws, req));
      if (path === '/ws') {
        return void upgradeEvents(req, socket, head).catch((err: unknown) => {
          log.error({ err }, 'event channel upgrade failed');
          refuse(socket, refusal(new AppError('INTERNAL_ERROR', 'Internal server error'), 500));
        });
      }
      refuse(socket, refusal(new AppError('NOT_FOUND', `No WebSocket endpoint at ${path}`), 404));
    },
    async handleRequest(req, res) {
      const decision = await authorize(req).catch((err: unknown) => {
        log.error({ err }, 'event channel check failed');
        return refusal(new AppError('INTERNAL_ERROR', 'Internal server error'), 500);
      });
      const answer: Refusal =
        'status' in decision
          ? decision
          : // The position of "now": a client that connects with since=lastEventId misses nothing from here on, even if
            // its first connection drops before any event arrives (the SDK asks here before connecting without since).
            { status: 426, body: { error: 'INVALID_REQUEST', message: 'Open this URL as a WebSocket', lastEventId: bus.lastEventId }, headers: { Upgrade: 'websocket' } };
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
    },
    get connections() {
      return { events: eventsWss.clients.size, trpc: trpcWss.clients.size };
    },
    async close(graceMs = 1000) {
      if (closing) return;
      closing = true;
      clearInterval(heartbeat);
      clearInterval(backpressure);
      trpcHandler.broadcastReconnectNotification();
      const clients = [...eventsWss.clients, ...trpcWss.clients];
      await Promise.all(
        clients.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              const timer = setTimeout(() => ws.terminate(), graceMs);
              ws.once('close', () => (clearTimeout(timer), resolve()));
              ws.close(EVENT_CLOSE_CODES.goingAway, 'Server shutting down: reconnect with since');
            }),
        ),
      );
      await Promise.all([eventsWss, trpcWss].map((wss) => new Promise<void>((resolve) => wss.close(() => resolve()))));
    },
  };
}
