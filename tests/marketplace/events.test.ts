/**
 * Live provider events (docs/events.md): the `/ws` channel, its replay, the
 * heartbeat, the SDK's reconnecting subscription and the tRPC subscription, against the real server,
 * real WebSockets and a real database (PGlite, or PostgreSQL with DATABASE_URL). Several server processes
 * on one PostgreSQL: events-scale-out.postgres.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createEventsClient,
  eventStream,
  signedHeaders,
  subscribeToEvents,
  type EventFrame,
} from '../../client-sdk/index.ts';
import type { AppRouter } from '../../routers/index.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { recordEvent } from '../../server/marketplace/events/outbox.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { registration, walletFor, type Wallet } from '../helpers/marketplace.ts';
import { createTestDatabase, testConfig } from '../helpers/server.ts';
import { eventsUrl, increasing, Listener, newProvider, openConversation, refusal, sendMessage, sleep, v1EventsUrl, wsBase } from '../helpers/events.ts';

const HEARTBEAT_MS = 500;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: RunningServer;
let provider: Wallet;
let consumer: Wallet;
let agentId: string;

const start = (config: DatabaseConfig, port = 0) =>
  startServer({ ...testConfig(config), port, rateLimits: 'off', events: { heartbeatMs: HEARTBEAT_MS } }, createLogger('silent'));

beforeAll(async () => {
  database = await createTestDatabase();
  server = await start(database.config);
  provider = walletFor(server.url);
  consumer = walletFor(server.url);
  agentId = (await provider.sdk.agents.register(registration(provider.address))).id;
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

// ---- the channel ------------------------------------------------------------------------------

describe('/ws: what providers receive', () => {
  it("delivers conversation:new and message:received to the agent's wallet with exactly the documented fields, plus id", async () => {
    const listener = await Listener.for(server.url, provider.signer);
    const conversation = await openConversation(consumer, agentId, 'Hello there');
    const [opened] = await listener.take(1);
    expect(opened).toEqual({
      id: expect.any(Number),
      event: 'conversation:new',
      data: { conversationId: conversation.id, clientWallet: consumer.address, initialMessage: 'Hello there', createdAt: conversation.createdAt },
    });

    const message = await sendMessage(consumer, conversation.id, 'Here is the contract');
    const [received] = await listener.take(1);
    expect(received).toEqual({
      id: expect.any(Number),
      event: 'message:received',
      data: {
        conversationId: conversation.id,
        message: { id: message.id, senderWallet: consumer.address, content: 'Here is the contract', messageType: 'TEXT', createdAt: message.createdAt },
      },
    });
    expect(received!.id).toBeGreaterThan(opened!.id);
    await listener.close();
  });

  it("does not tell a provider about its own messages, and tells other providers nothing (ownership filtering)", async () => {
    const other = await newProvider(server.url);
    const mine = await Listener.for(server.url, provider.signer);
    const theirs = await Listener.for(server.url, other.wallet.signer);
    const conversation = await openConversation(consumer, agentId);
    await sendMessage(provider, conversation.id, 'The agent replies');
    await sendMessage(consumer, conversation.id, 'The consumer answers');
    const frames = await mine.take(2);
    expect(frames.map((f) => f.event)).toEqual(['conversation:new', 'message:received']);
    expect((frames[1]!.data as any).message.content).toBe('The consumer answers');
    await sleep(200);
    expect(mine.frames).toEqual([]);
    expect(theirs.frames).toEqual([]);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('delivers an event recorded without a poke at once, through NOTIFY (not the 3 s poll)', async () => {
    const listener = await Listener.for(server.url, provider.signer);
    const data = { orderId: randomUUID(), conversationId: randomUUID(), amount: 22.5, txSignature: 'tx', splitSignature: 'split', paidAt: new Date().toISOString() };
    const t0 = performance.now();
    await server.db.em().transactional((em) => recordEvent(em, provider.address, 'order:paid', data));
    const [frame] = await listener.take(1);
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(frame).toEqual({ id: expect.any(Number), event: 'order:paid', data });
    await listener.close();
  });

  it('accepts the three X- headers signing the URL as sent instead of query parameters', async () => {
    const path = `/ws?wallet=${provider.address}`;
    const listener = await Listener.open(wsBase(server.url) + path, { headers: await signedHeaders(provider.signer, 'GET', path) });
    await openConversation(consumer, agentId);
    expect((await listener.take(1))[0]!.event).toBe('conversation:new');
    await listener.close();
  });
});

describe('/ws: who may connect', () => {
  const query = (params: Record<string, string>) => `${wsBase(server.url)}/ws?${new URLSearchParams(params)}`;

  it('refuses a missing, malformed, wrong or expired signature with 401 INVALID_SIGNATURE and a reason', async () => {
    const missing = await refusal(query({ wallet: provider.address }));
    expect(missing).toEqual({ status: 401, body: { error: 'INVALID_SIGNATURE', message: expect.stringMatching(/signature|timestamp/), details: { reason: 'missing' } } });

    const good = new URL(await eventsUrl(server.url, provider.signer));
    const malformed = new URL(good);
    malformed.searchParams.set('signature', 'not-base58!');
    expect((await refusal(malformed.href)).body.details).toEqual({ reason: 'malformed' });

    // Signed for another wallet parameter: the signature does not cover this URL.
    const someoneElse = walletFor(server.url);
    const wrong = new URL(good);
    wrong.searchParams.set('wallet', someoneElse.address);
    expect(await refusal(wrong.href)).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'wrong' } } });

    const expired = await refusal(await eventsUrl(server.url, provider.signer, { now: Date.now() - 10 * 60_000 }));
    expect(expired).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'expired' } } });
  });

  it('refuses a wallet that owns no agent (403 UNAUTHORIZED_ACCESS), and one whose agent is deleted', async () => {
    const stranger = walletFor(server.url);
    expect(await refusal(await eventsUrl(server.url, stranger.signer))).toEqual({
      status: 403,
      body: { error: 'UNAUTHORIZED_ACCESS', message: expect.any(String) },
    });
    const gone = await newProvider(server.url);
    await gone.wallet.sdk.agents.remove(gone.agentId);
    expect((await refusal(await eventsUrl(server.url, gone.wallet.signer))).status).toBe(403);
  });

  it('refuses headers signed by a wallet other than the wallet parameter (403)', async () => {
    const other = await newProvider(server.url);
    const path = `/ws?wallet=${provider.address}`;
    const res = await refusal(wsBase(server.url) + path, await signedHeaders(other.wallet.signer, 'GET', path));
    expect(res).toMatchObject({ status: 403, body: { error: 'UNAUTHORIZED_ACCESS' } });
  });

  it('answers 422 for a since that is not an event id, and 404 for an unknown path', async () => {
    const url = new URL(await eventsUrl(server.url, provider.signer));
    url.searchParams.set('since', '-1');
    expect(await refusal(url.href)).toMatchObject({ status: 422, body: { error: 'VALIDATION_ERROR', details: { since: expect.any(String) } } });
    expect(await refusal(`${wsBase(server.url)}/nope`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });

  it('answers a plain GET /ws as the upgrade would be refused, else 426', async () => {
    const stranger = walletFor(server.url);
    expect((await fetch((await eventsUrl(server.url, stranger.signer)).replace(/^ws/, 'http'))).status).toBe(403);
    expect((await fetch((await eventsUrl(server.url, provider.signer)).replace(/^ws/, 'http'))).status).toBe(426);
  });
});

describe('/ws: each signature opens one connection, with the since it signed', () => {
  it('the same URL again is refused as replayed; so is the URL a plain GET used', async () => {
    for (const url of [await v1EventsUrl(server.url, provider.signer), await eventsUrl(server.url, provider.signer)]) {
      const listener = await Listener.open(url);
      expect(await refusal(url)).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'replayed' } } });
      await listener.close();
      expect((await refusal(url)).body.details).toEqual({ reason: 'replayed' });
    }

    const asked = await eventsUrl(server.url, provider.signer);
    expect((await fetch(asked.replace(/^ws/, 'http'))).status).toBe(426);
    expect((await refusal(asked)).body.details).toEqual({ reason: 'replayed' });
  });

  it('headers signing the URL as sent are used up too', async () => {
    const path = `/ws?wallet=${provider.address}&since=0`;
    const headers = await signedHeaders(provider.signer, 'GET', path);
    const listener = await Listener.open(wsBase(server.url) + path, { headers });
    expect(await refusal(wsBase(server.url) + path, headers)).toMatchObject({ status: 401, body: { details: { reason: 'replayed' } } });
    await listener.close();
  });

  it('a since changed or added after signing is refused as wrong: nobody replays the history with a URL seen in a log', async () => {
    const url = new URL(await eventsUrl(server.url, provider.signer, { since: 5 }));
    url.searchParams.set('since', '0');
    expect(await refusal(url.href)).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'wrong' } } });
    // What SDKs sent before `since` was signed: the signature of `GET:/ws?wallet=<address>:<ts>`, since appended.
    expect((await refusal(await v1EventsUrl(server.url, provider.signer, { unsignedSince: 0 }))).body.details).toEqual({ reason: 'wrong' });
  });

  it('v1 query signatures still open: the old form without since, and since signed', async () => {
    const asked = await fetch((await eventsUrl(server.url, provider.signer)).replace(/^ws/, 'http'));
    const position = ((await asked.json()) as { lastEventId: number }).lastEventId;
    const conversation = await openConversation(consumer, agentId);
    const old = await Listener.open(await v1EventsUrl(server.url, provider.signer));
    const resumed = await Listener.open(await v1EventsUrl(server.url, provider.signer, { since: position }));
    const [first] = await resumed.take(1);
    expect([first!.event, (first!.data as { conversationId: string }).conversationId]).toEqual(['conversation:new', conversation.id]);
    await sendMessage(consumer, conversation.id, 'to both');
    expect((await old.take(1))[0]!.event).toBe('message:received');
    await Promise.all([old.close(), resumed.close()]);
  });

  it('a URL the SDK signed for this host opens; one signed for another host is refused (wrong)', async () => {
    await (await Listener.open(await eventsUrl(server.url, provider.signer))).close();
    const forStaging = await eventsUrl('http://staging.market.example', provider.signer);
    const url = forStaging.replace('ws://staging.market.example', wsBase(server.url));
    expect(await refusal(url)).toMatchObject({ status: 401, body: { error: 'INVALID_SIGNATURE', details: { reason: 'wrong' } } });
  });
});

describe('/ws: replay, heartbeat', () => {
  it('replays with ?since what happened while disconnected, in order and without duplicates, then goes on live', async () => {
    const first = await Listener.for(server.url, provider.signer);
    const conversation = await openConversation(consumer, agentId);
    const [seen] = await first.take(1);
    await first.close();

    for (const n of [1, 2, 3]) await sendMessage(consumer, conversation.id, `missed ${n}`);
    const again = await Listener.for(server.url, provider.signer, { since: seen!.id });
    const replayed = await again.take(3);
    expect(replayed.map((f) => (f.data as any).message.content)).toEqual(['missed 1', 'missed 2', 'missed 3']);
    await sendMessage(consumer, conversation.id, 'live');
    const [live] = await again.take(1);
    expect((live!.data as any).message.content).toBe('live');
    const ids = [seen!.id, ...replayed.map((f) => f.id), live!.id];
    expect(increasing(ids)).toBe(true);
    await sleep(100);
    expect(again.frames).toEqual([]);
    await again.close();
  });

  it('replays and streams without gap or duplicate while events keep coming during the replay', async () => {
    const listener = await Listener.for(server.url, provider.signer);
    const conversation = await openConversation(consumer, agentId);
    const [base] = await listener.take(1);
    await listener.close();
    for (let n = 0; n < 30; n++) await sendMessage(consumer, conversation.id, `before ${n}`);
    const during = Promise.all(Array.from({ length: 30 }, (_, n) => sendMessage(consumer, conversation.id, `during ${n}`)));
    const resumed = await Listener.for(server.url, provider.signer, { since: base!.id });
    await during;
    const frames = await resumed.take(60);
    expect(increasing(frames.map((f) => f.id))).toBe(true);
    expect(new Set(frames.map((f) => (f.data as any).message.content)).size).toBe(60);
    await sleep(100);
    expect(resumed.frames).toEqual([]);
    await resumed.close();
  });

  it('closes a client that reads too slowly with 4000; reconnecting with since loses nothing', async () => {
    // A server of its own: a small backlog limit, and a heartbeat that does not end the paused client first.
    const own = await createTestDatabase();
    const small = await startServer({ ...testConfig(own.config), rateLimits: 'off', events: { maxBufferedBytes: 64 * 1024 } }, createLogger('silent'));
    try {
      const { wallet: agentWallet, agentId: agent } = await newProvider(small.url);
      const client = walletFor(small.url);
      const slow = await Listener.for(small.url, agentWallet.signer);
      const conversation = await openConversation(client, agent);
      const [opened] = await slow.take(1);
      slow.ws.pause(); // stops reading: the server's unsent data grows
      const big = 'x'.repeat(10_000);
      const sent: string[] = [];
      // Loopback kernel buffers take ~4 MB before the server's own backlog grows: send until the server
      // gives up on this client (its stream unsubscribes).
      for (let batch = 0; small.events.subscriberCount > 0; batch++) {
        expect(batch).toBeLessThan(100);
        const messages = await Promise.all(Array.from({ length: 20 }, () => sendMessage(client, conversation.id, big)));
        sent.push(...messages.map((m) => m.id));
      }
      slow.ws.resume();
      expect((await slow.closed).code).toBe(4000);
      const got = slow.frames.splice(0);
      expect(got.length).toBeLessThan(sent.length);
      const resumed = await Listener.for(small.url, agentWallet.signer, { since: got.at(-1)?.id ?? opened!.id });
      const rest = await resumed.take(sent.length - got.length);
      const all = [...got, ...rest];
      expect(new Set(all.map((f) => (f.data as any).message.id))).toEqual(new Set(sent));
      expect(increasing([opened!.id, ...all.map((f) => f.id)])).toBe(true);
      await sleep(100);
      expect(resumed.frames).toEqual([]);
      await resumed.close();
    } finally {
      await small.close();
      await own.drop();
    }
  }, 60_000);

  it('terminates a client that stops answering pings', async () => {
    const url = await eventsUrl(server.url, provider.signer);
    const dead = await Listener.open(url, { autoPong: false });
    const alive = await Listener.open(await eventsUrl(server.url, provider.signer));
    const started = Date.now();
    const { code } = await dead.closed;
    expect(code).toBe(1006); // no close frame: terminated
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_MS * 3 + 500);
    await sleep(HEARTBEAT_MS * 2);
    expect(alive.ws.readyState).toBe(WebSocket.OPEN); // answering pings keeps it open
    await alive.close();
  });
});

// ---- the SDK ----------------------------------------------------------------------------------

describe('SDK', () => {
  it('eventStream delivers typed frames and refuses a non-provider with an ApiError', async () => {
    const stream = eventStream({ baseUrl: server.url, wallet: provider.signer });
    const opened = new Promise<void>((resolve) => {
      const timer = setInterval(() => server.events.subscriberCount > 0 && (clearInterval(timer), resolve()), 20);
    });
    await opened;
    const conversation = await openConversation(consumer, agentId, 'via the iterator');
    for await (const frame of stream) {
      expect(frame.event).toBe('conversation:new');
      if (frame.event === 'conversation:new') expect(frame.data.conversationId).toBe(conversation.id);
      break;
    }
    expect(stream.closed).toBe(true);

    const refused = eventStream({ baseUrl: server.url, wallet: walletFor(server.url).signer });
    await expect(refused.next()).rejects.toMatchObject({ name: 'ApiError', status: 403, code: 'UNAUTHORIZED_ACCESS' });
  });
});

describe('tRPC subscription events.subscribe', () => {
  it('receives typed, tracked frames; resumes from lastEventId; refuses non-providers', async () => {
    const client = createEventsClient({ baseUrl: server.url, wallet: provider.signer });
    const received: { id: string; data: EventFrame }[] = [];
    const started = Promise.withResolvers<void>();
    const sub = client.events.subscribe.subscribe(
      {},
      {
        onStarted: () => started.resolve(),
        onData: (tracked) => received.push(tracked),
        onError: (error) => started.reject(error),
      },
    );
    await started.promise;
    const conversation = await openConversation(consumer, agentId, 'over tRPC');
    await expect.poll(() => received.length).toBe(1);
    const [first] = received;
    expect(first).toEqual({
      id: String(first!.data.id),
      data: {
        id: expect.any(Number),
        event: 'conversation:new',
        data: { conversationId: conversation.id, clientWallet: consumer.address, initialMessage: 'over tRPC', createdAt: conversation.createdAt },
      },
    });
    sub.unsubscribe();

    // Events after a known id are replayed first.
    await sendMessage(consumer, conversation.id, 'missed over tRPC');
    const replayed: EventFrame[] = [];
    const resumed = client.events.subscribe.subscribe({ lastEventId: first!.id }, { onData: ({ data }) => replayed.push(data) });
    await expect.poll(() => replayed.map((f) => f.event)).toEqual(['message:received']);
    resumed.unsubscribe();
    await client.close();

    const stranger = createEventsClient({ baseUrl: server.url, wallet: walletFor(server.url).signer });
    const error = await new Promise<any>((resolve) => stranger.events.subscribe.subscribe({}, { onError: resolve }));
    expect(error.data).toMatchObject({ appCode: 'UNAUTHORIZED_ACCESS', httpStatus: 403 });
    await stranger.close();
  });

  it("a connection's signature opens that connection only: another with the same connectionParams is refused as replayed", async () => {
    // What the SDK sends when it connects; a second connection with the same proof could ask for the whole history.
    const headers = await signedHeaders(provider.signer, 'GET', '/trpc', { host: new URL(server.url).host });
    const connectionParams = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const open = () => {
      const connection = createWSClient({ url: `${wsBase(server.url)}/trpc`, connectionParams, retryDelayMs: () => 60_000 });
      return { connection, trpc: createTRPCClient<AppRouter>({ links: [wsLink({ client: connection })] }) };
    };
    const first = open();
    const started = Promise.withResolvers<void>();
    const live = first.trpc.events.subscribe.subscribe({}, { onStarted: () => started.resolve(), onError: (error) => started.reject(error) });
    await started.promise;
    // Calls of the proven connection go on: a second subscription on it is proven already.
    const again = Promise.withResolvers<void>();
    const second = first.trpc.events.subscribe.subscribe({}, { onStarted: () => again.resolve(), onError: (error) => again.reject(error) });
    await again.promise;
    const replay = open();
    const error = await new Promise<any>((resolve) => replay.trpc.events.subscribe.subscribe({ lastEventId: '0' }, { onError: resolve }));
    expect(error.data).toMatchObject({ appCode: 'INVALID_SIGNATURE', httpStatus: 401 });
    for (const sub of [live, second]) sub.unsubscribe();
    await Promise.all([first.connection.close(), replay.connection.close()]);
  });

  it('resumes by itself after the server drops the connection (tRPC reconnect with the last tracked id)', async () => {
    const client = createEventsClient({ baseUrl: server.url, wallet: provider.signer, reconnect: { minDelayMs: 50, maxDelayMs: 200 } });
    const received: EventFrame[] = [];
    const started = Promise.withResolvers<void>();
    const sub = client.events.subscribe.subscribe({}, { onStarted: () => started.resolve(), onData: ({ data }) => received.push(data) });
    await started.promise;
    const conversation = await openConversation(consumer, agentId);
    await expect.poll(() => received.length).toBe(1);
    // The connection is dropped (as a lost network would), then events happen before the reconnect.
    (client.connection.connection?.ws as unknown as { close(): void } | undefined)?.close();
    for (const n of [1, 2]) await sendMessage(consumer, conversation.id, `gap ${n}`);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(3);
    expect(received.slice(1).map((f) => (f.data as any).message.content)).toEqual(['gap 1', 'gap 2']);
    expect(increasing(received.map((f) => f.id))).toBe(true);
    sub.unsubscribe();
    await client.close();
  });
});

// ---- server restart: the SDK's reconnect -------------------------------------------------------

describe('SDK subscribeToEvents across a server restart', () => {
  it('reconnects by itself when the server closes the socket, and replays what it missed', async () => {
    const frames: EventFrame[] = [];
    const errors: Error[] = [];
    let opens = 0;
    const subscription = subscribeToEvents({
      baseUrl: server.url,
      wallet: provider.signer,
      reconnect: { minDelayMs: 100, maxDelayMs: 500 },
      onEvent: (frame) => frames.push(frame),
      onError: (error) => errors.push(error),
      onOpen: () => opens++,
    });
    await expect.poll(() => opens).toBe(1);
    const conversation = await openConversation(consumer, agentId);
    await expect.poll(() => frames.length).toBe(1);

    // Shutdown closes the socket (1001); events happen while no server runs this socket; a new server
    // on the same port and database takes over.
    const port = Number(new URL(server.url).port);
    await server.close();
    server = await start(database.config, port);
    for (const n of [1, 2, 3]) await sendMessage(consumer, conversation.id, `while away ${n}`);
    await expect.poll(() => frames.length, { timeout: 15_000 }).toBe(4);
    expect(opens).toBeGreaterThanOrEqual(2);
    expect(frames.slice(1).map((f) => (f.data as any).message.content)).toEqual(['while away 1', 'while away 2', 'while away 3']);
    expect(increasing(frames.map((f) => f.id))).toBe(true);
    expect(subscription.lastEventId).toBe(frames.at(-1)!.id);
    expect(errors.every((e) => e.name !== 'ApiError')).toBe(true);

    await sendMessage(consumer, conversation.id, 'live again');
    await expect.poll(() => frames.length).toBe(5);
    subscription.close();
  });
});

describe('SDK subscribeToEvents without since', () => {
  it('starts from the position the server gives it: a drop before its first event still loses nothing', async () => {
    // A WebSocket whose connections can be made to fail, standing in for a network that is away for a while.
    let away = false;
    const sockets: WebSocket[] = [];
    class FlakyWebSocket extends globalThis.WebSocket {
      constructor(url: string | URL) {
        super(away ? 'ws://127.0.0.1:9/' : url);
        sockets.push(this as unknown as WebSocket);
      }
    }
    const frames: EventFrame[] = [];
    let opens = 0;
    const subscription = subscribeToEvents({
      baseUrl: server.url,
      wallet: provider.signer,
      WebSocket: FlakyWebSocket as unknown as typeof globalThis.WebSocket,
      reconnect: { minDelayMs: 50, maxDelayMs: 100 },
      onEvent: (frame) => frames.push(frame),
      onOpen: () => opens++,
    });
    await expect.poll(() => opens).toBe(1);
    away = true;
    sockets.at(-1)!.close();
    const conversation = await openConversation(consumer, agentId); // while it cannot connect
    away = false;
    await expect.poll(() => frames.length, { timeout: 10_000 }).toBe(1);
    expect([frames[0]!.event, (frames[0]!.data as any).conversationId]).toEqual(['conversation:new', conversation.id]);
    subscription.close();
  });
});

// ---- fan-out -------------------------------------------------------------------------------------
// Latency figures are `npm run bench -- orders` (1,000 sockets); this pins who gets what under a burst.

describe('fan-out under a burst', () => {
  it('gives each of 100 connected providers exactly its own events, once, when 100 messages arrive at once', async () => {
    // The production heartbeat: a loaded 2-core machine may not answer a 500 ms ping in time.
    const own = await createTestDatabase();
    const busy = await startServer({ ...testConfig(own.config), rateLimits: 'off' }, createLogger('silent'));
    try {
      const providers = await Promise.all(Array.from({ length: 100 }, () => newProvider(busy.url)));
      const listeners = await Promise.all(providers.map((p) => Listener.for(busy.url, p.wallet.signer)));
      const client = walletFor(busy.url);
      const conversations = await Promise.all(providers.map((p) => openConversation(client, p.agentId)));
      const opened = await Promise.all(listeners.map((l) => l.take(1, 30_000)));
      expect(opened.map(([f]) => (f!.data as any).conversationId)).toEqual(conversations.map((c) => c.id));
      await Promise.all(conversations.map((c, i) => sendMessage(client, c.id, `ping ${i}`)));
      const got = await Promise.all(listeners.map((l) => l.take(1, 30_000)));
      expect(got.map(([f]) => (f!.data as any).message.content)).toEqual(conversations.map((_, i) => `ping ${i}`));
      await sleep(200);
      expect(listeners.every((l) => l.frames.length === 0)).toBe(true);
      await Promise.all(listeners.map((l) => l.close()));
    } finally {
      await busy.close();
      await own.drop();
    }
  }, 120_000);
});
