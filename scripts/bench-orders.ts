/**
 * Orders, payments and live events part of `npm run bench` (`npm run bench -- orders` runs only this
 * part, about 2 minutes). For each database scripts/bench.ts hands over (PGlite in a fresh data dir;
 * PostgreSQL when reachable), it starts the real server in-process with rate limits off and the embedded
 * LiteSVM ledger persisted in a temp dir (journal fdatasync'd per transaction, as `npm start` runs it),
 * seeds 1,000 agents (bulk inserts), and measures:
 *
 *   POST /api/orders/:id/accept   full accept-and-pay: every operation pays a PENDING order with a fresh
 *                                 signed USDC transfer (payment check, replay checks, balance, consumer
 *                                 transfer on the ledger, agent payout, order PAID + `order:paid`).
 *                                 Orders are bulk-inserted, their payment headers built with the SDK
 *                                 (buildPaymentHeader, blockhash from the server's /dev/solana-rpc) and
 *                                 the requests signed before the timed window. Over HTTP and through
 *                                 PaymentService.accept, ACCEPT_CONCURRENCY in flight; then one accept at a
 *                                 time next to its non-database parts (payment check, ledger calls).
 *   GET /api/orders?limit=20      signed once (a GET signature stays valid 5 min), a wallet with 1,000
 *                                 orders, without and with a status filter; autocannon and OrderService.list.
 *   Live events over /ws          1,000 agents, each with a socket opened by the SDK's subscribeToEvents:
 *                                 time from sending a consumer's POST /api/conversations/:id/messages (to a
 *                                 random agent's conversation) to that agent's `message:received` frame, and
 *                                 from sending an accept-and-pay to the agent's `order:paid` frame; the
 *                                 server's memory with the 1,000 sockets open.
 *
 * The HTTP clients (fetch for the accepts and the messages, the 1,000 WebSockets) run in a child process
 * (this file with --bench-client), so the server's memory is its own and the load generator does not
 * share its event loop; autocannon runs in a worker thread, as in scripts/bench.ts. Wallets sign with
 * node:crypto Ed25519 (a WalletSigner of its own, same signatures as the SDK's tweetnacl keypairSigner)
 * so that preparing thousands of requests stays quick.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createPrivateKey, createPublicKey, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import bs58 from 'bs58';
import { subscribeToEvents, type EventFrame, type EventSubscription } from '../client-sdk/events.ts';
import { buildPaymentHeader, buildPaymentTransaction, fetchPaymentBlockhash, type PaymentBlockhash, type PaymentConfig } from '../client-sdk/payment.ts';
import { signedHeaders, type WalletSigner } from '../client-sdk/wallet.ts';
import { startServer, type RunningServer } from '../server/app.ts';
import type { Config, DatabaseConfig } from '../server/platform/config.ts';
import { newAgentRow } from '../server/marketplace/agents.ts';
import { Agent, Conversation, Order } from '../server/marketplace/entities.ts';
import { createLogger } from '../server/platform/logger.ts';
import { usdcToMicro } from '../server/marketplace/money.ts';
import { checkPayment } from '../server/marketplace/payment-check.ts';
import { ORDER_STATUSES, type OrderList } from '../server/marketplace/schemas.ts';

const HOST = '127.0.0.1';
const AGENTS = 1_000;
const LISTED_ORDERS = 1_000;
/** Agents the listing wallet has conversations (and so orders) with. */
const LISTER_AGENTS = 100;
const ORDER_PAGE = 20;
const LIST_STATUS = 'PAID';
/** Every benchmarked order costs this much (USDC). */
const PRICE = 1.5;
const FAUCET_USDC = 100_000;

/** "A few in flight", for the accepts and the event samples. */
const ACCEPT_CONCURRENCY = 4;
/** As scripts/bench.ts, for the order list. */
const LIST_CONCURRENCY = 10;
const WARMUP_SECONDS = 1;
const ACCEPT_SECONDS = 5;
/** Shorter than scripts/bench.ts's 5 s: four list runs per database. */
const LIST_SECONDS = 3;
/** PENDING orders prepared per accept run: the run ends early (and says so) if it uses them all up. */
const ACCEPT_POOL = 1_000;
const ACCEPT_WARMUP = 30;
const BREAKDOWN_ITERATIONS = 200;
const BREAKDOWN_ACCEPTS = 50;

const MESSAGE_SAMPLES = 2_000;
const MESSAGE_WARMUP = 100;
const PAID_SAMPLES = 400;
const PAID_WARMUP = 20;
const SOCKET_CONNECT_CONCURRENCY = 50;
const FRAME_TIMEOUT_MS = 10_000;

const CLIENT_FLAG = '--bench-client';

export interface OrdersBenchDatabase {
  label: string;
  config: DatabaseConfig;
  drop(): Promise<void>;
}

// ---- wallets -----------------------------------------------------------------------------------

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

interface BenchWallet {
  address: string;
  /** The 32-byte Ed25519 seed, hex (what the client process gets). */
  seed: string;
  signer: WalletSigner;
}

/** A WalletSigner on node:crypto (~20x faster than the SDK's tweetnacl keypairSigner; same signatures). */
function walletFromSeed(seed: string): BenchWallet {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.from(seed, 'hex')]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  const address = bs58.encode(publicKey);
  return { address, seed, signer: { address, sign: (message) => new Uint8Array(sign(null, message, privateKey)) } };
}

const newWallet = () => walletFromSeed(randomBytes(32).toString('hex'));

// ---- what the main process asks the client process -----------------------------------------

interface PreparedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The frame this request causes: which agent socket gets it, and its key (message content or order id). */
  expect?: { agent: number; key: string };
}

type ClientCommand =
  | { op: 'run'; baseUrl: string; requests: PreparedRequest[]; concurrency: number; warmup: number; seconds?: number }
  | { op: 'connect'; baseUrl: string; seeds: string[]; concurrency: number }
  | { op: 'disconnect' };

interface RunResult {
  /** Latencies of the measured 2xx answers, ms. */
  http: number[];
  /** Latencies from sending the request to its frame's arrival, ms (requests with `expect`). */
  frames: number[];
  /** Frame arrival minus the end of the HTTP response, ms (negative: the frame came first). */
  frameAfterResponse: number[];
  statuses: Record<string, number>;
  /** Expected frames (of requests answered 2xx) that did not come within FRAME_TIMEOUT_MS, or came to another socket. */
  missedFrames: number;
  /** Event connections that failed or closed during the run (the SDK reconnects them, replaying with `since`). */
  socketErrors: number;
  firstFailure?: string;
  elapsedSeconds: number;
  /** Requests of the measured phase (after the warm-up). */
  sent: number;
  /** True when the requests ran out before the time did. */
  exhausted: boolean;
}

interface ConnectResult {
  opened: number;
  seconds: number;
  errors: string[];
}

type ClientReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** The child process running the HTTP and WebSocket clients. */
class BenchClient {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 0;

  constructor() {
    this.#child = fork(fileURLToPath(import.meta.url), [CLIENT_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (reply: ClientReply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.result);
      else pending?.reject(new Error(`bench client: ${reply.error}`));
    });
    this.#child.on('exit', (code) => {
      for (const { reject } of this.#pending.values()) reject(new Error(`bench client exited (${code})`));
      this.#pending.clear();
    });
  }

  call<T>(command: ClientCommand): Promise<T> {
    const id = ++this.#nextId;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#child.send({ id, command });
    });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.disconnect();
    const timer = setTimeout(() => this.#child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

// ---- the client process ------------------------------------------------------------------------

/** Runs in the child: answers ClientCommands until the parent disconnects. */
function runClientProcess(): void {
  const subscriptions: EventSubscription[] = [];
  const waiters = new Map<string, { agent: number; arrived(at: number | undefined): void }>();
  let misdelivered = 0;
  let socketErrors = 0;

  const onFrame = (agent: number, frame: EventFrame) => {
    const at = performance.now();
    const key = frame.event === 'message:received' ? frame.data.message.content : frame.event === 'order:paid' ? frame.data.orderId : undefined;
    const waiter = key === undefined ? undefined : waiters.get(key);
    if (!waiter || !key) return;
    waiters.delete(key);
    if (waiter.agent !== agent) misdelivered++;
    waiter.arrived(waiter.agent === agent ? at : undefined);
  };

  /** Resolves with the arrival time of the frame; undefined after FRAME_TIMEOUT_MS, or once `cancel` is called. */
  const frameArrival = (expect: { agent: number; key: string }) => {
    let cancel = () => {};
    const arrival = new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => cancel(), FRAME_TIMEOUT_MS);
      cancel = () => {
        clearTimeout(timer);
        waiters.delete(expect.key);
        resolve(undefined);
      };
      waiters.set(expect.key, { agent: expect.agent, arrived: (at) => (clearTimeout(timer), resolve(at)) });
    });
    return { arrival, cancel };
  };

  async function run(command: Extract<ClientCommand, { op: 'run' }>): Promise<RunResult> {
    const { baseUrl, requests, concurrency } = command;
    const result: RunResult = { http: [], frames: [], frameAfterResponse: [], statuses: {}, missedFrames: 0, socketErrors: 0, elapsedSeconds: 0, sent: 0, exhausted: false };
    socketErrors = 0;
    let next = 0;
    const phase = async (until: number, deadline: number, record: boolean) => {
      const loop = async () => {
        while (next < until && performance.now() < deadline) {
          const request = requests[next++]!;
          if (record) result.sent++;
          const frame = request.expect ? frameArrival(request.expect) : undefined;
          const started = performance.now();
          let answered = started;
          let status = 'error';
          let ok = false;
          try {
            const res = await fetch(`${baseUrl}${request.path}`, {
              method: request.method,
              headers: request.headers,
              ...(request.body === undefined ? {} : { body: request.body }),
            });
            const text = await res.text();
            answered = performance.now();
            status = String(res.status);
            ok = res.ok;
            if (res.ok) {
              if (record) result.http.push(answered - started);
            } else {
              result.firstFailure ??= `${res.status} ${text.slice(0, 300)}`;
            }
          } catch (error) {
            result.firstFailure ??= error instanceof Error ? error.message : String(error);
          }
          if (record) result.statuses[status] = (result.statuses[status] ?? 0) + 1;
          if (frame) {
            if (!ok) frame.cancel(); // failed: no event; counted as a failure, not as a missed frame
            const arrived = await frame.arrival;
            if (!record || !ok) continue;
            if (arrived === undefined) result.missedFrames++;
            else {
              result.frames.push(arrived - started);
              result.frameAfterResponse.push(arrived - answered);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, loop));
    };
    await phase(Math.min(command.warmup, requests.length), Number.POSITIVE_INFINITY, false);
    const started = performance.now();
    const deadline = command.seconds === undefined ? Number.POSITIVE_INFINITY : started + command.seconds * 1_000;
    await phase(requests.length, deadline, true);
    result.elapsedSeconds = (performance.now() - started) / 1_000;
    result.exhausted = next >= requests.length && performance.now() < deadline;
    result.missedFrames += misdelivered;
    misdelivered = 0;
    result.socketErrors = socketErrors;
    return result;
  }

  async function connect(command: Extract<ClientCommand, { op: 'connect' }>): Promise<ConnectResult> {
    const started = performance.now();
    const errors: string[] = [];
    let opened = 0;
    let next = 0;
    const open = (agent: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          errors.push(`agent ${agent}: not open after 30 s`);
          resolve();
        }, 30_000);
        let first = true;
        subscriptions[agent] = subscribeToEvents({
          baseUrl: command.baseUrl,
          wallet: walletFromSeed(command.seeds[agent]!).signer,
          onEvent: (frame) => onFrame(agent, frame),
          onOpen: () => {
            if (!first) return;
            first = false;
            opened++;
            clearTimeout(timer);
            resolve();
          },
          onError: (error) => {
            if (!first) socketErrors++;
            else if (errors.length < 10) errors.push(`agent ${agent}: ${error.message}`);
          },
        });
      });
    const loop = async () => {
      while (next < command.seeds.length) await open(next++);
    };
    await Promise.all(Array.from({ length: command.concurrency }, loop));
    return { opened, seconds: (performance.now() - started) / 1_000, errors };
  }

  async function disconnect(): Promise<void> {
    for (const subscription of subscriptions.splice(0)) subscription?.close();
  }

  process.on('message', (message: { id: number; command: ClientCommand }) => {
    const { id, command } = message;
    const work = command.op === 'run' ? run(command) : command.op === 'connect' ? connect(command) : disconnect();
    work.then(
      (result) => process.send?.({ id, ok: true, result } satisfies ClientReply),
      (error: unknown) => process.send?.({ id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ClientReply),
    );
  });
  process.on('disconnect', () => {
    void disconnect();
    process.exit(0);
  });
}

// ---- seeding -----------------------------------------------------------------------------------

interface Seeded {
  agents: { id: string; wallet: BenchWallet }[];
  /** Pays the benchmarked orders and sends the messages; a conversation with every agent. */
  payer: BenchWallet;
  /** payerConversations[i]: the payer's conversation with agents[i]. */
  payerConversations: string[];
  /** Has LISTED_ORDERS orders, with LISTER_AGENTS agents. */
  lister: BenchWallet;
}

const agentRow = (index: number, wallet: string, createdAt: Date) =>
  newAgentRow(
    {
      walletAddress: wallet,
      name: `Bench agent ${index}`,
      tagline: 'Translates contracts overnight',
      description: 'An agent seeded by the orders benchmark.',
      categories: ['Translation'],
      basePrice: 1,
      endpoint: `https://agents.example/${index}`,
    },
    createdAt,
  );

const conversationRow = (agent: string, clientWallet: string, createdAt: Date) => ({
  id: randomUUID(),
  agent,
  clientWallet,
  status: 'ACTIVE',
  firstReplyAt: null,
  createdAt,
  updatedAt: createdAt,
});

/** An order row as OrderService.create writes it, in `status` (the later timestamps set to match). */
function orderRow(conversation: string, agent: string, clientWallet: string, status: string, createdAt: Date): Order {
  const after = (minutes: number) => new Date(createdAt.getTime() + minutes * 60_000);
  const paid = status !== 'PENDING' && status !== 'CANCELLED';
  const delivered = status === 'DELIVERED' || status === 'COMPLETED';
  return {
    id: randomUUID(),
    conversation,
    agent,
    clientWallet,
    description: 'Translate the contract into German',
    priceMicro: usdcToMicro(PRICE)!,
    deliveryTime: 120,
    status,
    commissionBps: 1000,
    agentAmountMicro: paid ? 1_350_000n : null,
    commissionAmountMicro: paid ? 150_000n : null,
    txSignature: null,
    splitSignature: null,
    paidAt: paid ? after(5) : null,
    deliveredAt: delivered ? after(60) : null,
    deliveryResult: delivered ? 'Done' : null,
    deliveryMessage: delivered ? 'See the attachment' : null,
    deliveryAttachments: delivered ? [] : null,
    completedAt: status === 'COMPLETED' ? after(90) : null,
    createdAt,
    updatedAt: createdAt,
  };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

async function seed(server: RunningServer): Promise<Seeded> {
  const em = server.db.em();
  const now = Date.now();
  const agents = Array.from({ length: AGENTS }, (_, i) => {
    const wallet = newWallet();
    return { wallet, row: agentRow(i, wallet.address, new Date(now - (AGENTS - i) * 60_000)) };
  });
  await em.insertMany(Agent, agents.map((a) => a.row));

  const payer = newWallet();
  const lister = newWallet();
  const payerConversations = agents.map((a) => conversationRow(a.row.id, payer.address, new Date(now)));
  const listerConversations = agents.slice(0, LISTER_AGENTS).map((a) => conversationRow(a.row.id, lister.address, new Date(now - 90 * 86_400_000)));
  await em.insertMany(Conversation, [...payerConversations, ...listerConversations]);

  // The lister's orders: spread over 90 days and over the five statuses.
  const listed = Array.from({ length: LISTED_ORDERS }, (_, i) => {
    const conversation = pick(listerConversations);
    return orderRow(conversation.id, conversation.agent, lister.address, pick(ORDER_STATUSES), new Date(now - 90 * 86_400_000 + i * 7_000_000));
  });
  await em.insertMany(Order, listed);

  return {
    agents: agents.map((a) => ({ id: a.row.id, wallet: a.wallet })),
    payer,
    payerConversations: payerConversations.map((c) => c.id),
    lister,
  };
}

// ---- accept-and-pay ----------------------------------------------------------------------------

interface PreparedAccept {
  orderId: string;
  agent: number;
  paymentHeader: string;
}

interface Payments {
  config: PaymentConfig;
  blockhash: PaymentBlockhash;
}

/** Payment config and blockhash as a client gets them: GET /api/payments/config, getLatestBlockhash on its rpcUrl. */
async function paymentsSetUp(server: RunningServer, payer: BenchWallet): Promise<Payments> {
  const configResponse = await fetch(`${server.url}/api/payments/config`);
  if (configResponse.status !== 200) throw new Error(`GET /api/payments/config answered ${configResponse.status}`);
  const config = (await configResponse.json()) as PaymentConfig;
  const blockhash = await fetchPaymentBlockhash(config, server.url);
  const faucet = await fetch(`${server.url}/dev/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: payer.address, amount: FAUCET_USDC }),
  });
  if (faucet.status !== 200) throw new Error(`POST /dev/faucet answered ${faucet.status}: ${await faucet.text()}`);
  return { config, blockhash };
}

/** `count` PENDING orders of the payer (bulk insert), each with its payment header built by the SDK. */
async function prepareAccepts(server: RunningServer, seeded: Seeded, payments: Payments, count: number): Promise<PreparedAccept[]> {
  const now = Date.now();
  const orders = Array.from({ length: count }, (_, i) => {
    const agent = Math.floor(Math.random() * seeded.agents.length);
    const row = orderRow(seeded.payerConversations[agent]!, seeded.agents[agent]!.id, seeded.payer.address, 'PENDING', new Date(now + i));
    return { agent, row };
  });
  for (let start = 0; start < orders.length; start += 1_000) {
    await server.db.em().insertMany(Order, orders.slice(start, start + 1_000).map((o) => o.row));
  }
  const prepared: PreparedAccept[] = [];
  for (const { agent, row } of orders) {
    const paymentHeader = await buildPaymentHeader({
      signer: seeded.payer.signer,
      order: { id: row.id, price: PRICE },
      config: payments.config,
      blockhash: payments.blockhash,
    });
    prepared.push({ orderId: row.id, agent, paymentHeader });
  }
  return prepared;
}

/** The HTTP request of each accept, signed now (a POST signature is single-use and valid for 5 minutes). */
async function acceptRequests(payer: BenchWallet, accepts: readonly PreparedAccept[], withFrames: boolean): Promise<PreparedRequest[]> {
  return Promise.all(
    accepts.map(async ({ orderId, agent, paymentHeader }) => {
      const path = `/api/orders/${orderId}/accept`;
      return {
        method: 'POST' as const,
        path,
        headers: { ...(await signedHeaders(payer.signer, 'POST', path)), 'content-type': 'application/json' },
        body: JSON.stringify({ clientWallet: payer.address, paymentMethod: 'usdc', paymentHeader }),
        ...(withFrames ? { expect: { agent, key: orderId } } : {}),
      };
    }),
  );
}

// ---- measuring ---------------------------------------------------------------------------------

interface Measurement {
  scenario: string;
  path: string;
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  succeeded: number;
  failed: number;
  note?: string;
}

/** Nearest-rank percentile of ascending values; NaN when there are none. */
function percentile(ascending: readonly number[], p: number): number {
  if (ascending.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * ascending.length);
  return ascending[Math.min(ascending.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

const ascending = (values: number[]) => values.sort((a, b) => a - b);

function statusSummary(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${count}× ${code}`)
    .join(', ');
}

function fromRun(scenario: string, path: string, run: RunResult): Measurement {
  const latencies = ascending(run.http);
  const failed = run.sent - latencies.length;
  const notes = [
    ...(run.exhausted ? [`used up all ${run.sent} prepared requests in ${decimal.format(run.elapsedSeconds)} s`] : []),
    ...(failed > 0 ? [`failures: ${statusSummary(run.statuses)}; first: ${run.firstFailure ?? '?'}`] : []),
  ];
  return {
    scenario,
    path,
    opsPerSecond: latencies.length / run.elapsedSeconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    succeeded: latencies.length,
    failed,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/**
 * Runs `operation` on each item (`items`, or an endless repetition of one) from `concurrency` loops:
 * the first `warmup` unmeasured, then until `seconds` pass or the items run out.
 */
async function measureDirect<T>(
  scenario: string,
  path: string,
  source: readonly T[] | { repeat: T },
  options: { concurrency: number; warmup: number; seconds: number },
  operation: (item: T) => Promise<unknown>,
): Promise<Measurement> {
  const items = Array.isArray(source) ? (source as readonly T[]) : undefined;
  const count = items?.length ?? Number.POSITIVE_INFINITY;
  const itemAt = (i: number) => (items ? (items[i] as T) : (source as { repeat: T }).repeat);
  let next = 0;
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const phase = async (until: number, deadline: number, record: boolean) => {
    const loop = async () => {
      while (next < until && performance.now() < deadline) {
        const item = itemAt(next++);
        const before = performance.now();
        try {
          await operation(item);
          if (record) latencies.push(performance.now() - before);
        } catch (error) {
          if (record) failed++;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, loop));
  };
  await phase(Math.min(options.warmup, count), Number.POSITIVE_INFINITY, false);
  const started = performance.now();
  const deadline = started + options.seconds * 1_000;
  await phase(count, deadline, true);
  const elapsed = (performance.now() - started) / 1_000;
  const sorted = ascending(latencies);
  const exhausted = next >= count && performance.now() < deadline;
  const notes = [
    ...(exhausted ? [`used up all ${count - Math.min(options.warmup, count)} prepared items in ${decimal.format(elapsed)} s`] : []),
    ...(failed > 0 ? [`first failure: ${firstFailure}`] : []),
  ];
  return {
    scenario,
    path,
    opsPerSecond: sorted.length / elapsed,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    succeeded: sorted.length,
    failed,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** Like scripts/bench.ts: LIST_CONCURRENCY connections, WARMUP_SECONDS then MEASURE_SECONDS, autocannon in a worker thread. */
async function measureAutocannon(scenario: string, url: string, headers: Record<string, string>): Promise<Measurement> {
  const run = (duration: number) => autocannon({ url, method: 'GET', headers, connections: LIST_CONCURRENCY, duration, workers: 1 });
  await run(WARMUP_SECONDS);
  const result = await run(LIST_SECONDS);
  const failed = result.non2xx + result.errors;
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count ?? 0}× ${code}`)
    .join(', ');
  return {
    scenario,
    path: 'HTTP (autocannon)',
    opsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    succeeded: result['2xx'],
    failed,
    ...(failed > 0 ? { note: `${statuses || 'codes not recorded'}, ${result.errors} connection errors` } : {}),
  };
}

/** Mean µs of `operation` over `iterations` sequential calls with indexes 0..iterations - 1, after a warm-up call with index `iterations`. */
async function microseconds(iterations: number, operation: (i: number) => unknown): Promise<number> {
  await operation(iterations);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await operation(i);
  return ((performance.now() - started) * 1_000) / iterations;
}

// ---- report ------------------------------------------------------------------------------------

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const mb = (bytes: number) => `${integer.format(bytes / 1024 / 1024)} MB`;

function printTable(header: string[], rows: string[][], leftColumns: number): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) => row.map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(`  ${line(header)}`);
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  let previous = '';
  for (const row of rows) {
    const first = row[0] === previous ? '' : (row[0] ?? '');
    previous = row[0] ?? '';
    console.log(`  ${line([first, ...row.slice(1)])}`.trimEnd());
  }
}

function printMeasurements(rows: readonly Measurement[]): void {
  printTable(
    ['scenario', 'path', 'ops/s', 'p50 ms', 'p99 ms', 'ok', 'failed'],
    rows.map((m) => [m.scenario, m.path, integer.format(m.opsPerSecond), decimal.format(m.p50Ms), decimal.format(m.p99Ms), integer.format(m.succeeded), integer.format(m.failed)]),
    2,
  );
  console.log('  (autocannon records latency in whole milliseconds; fetch and direct runs use performance.now())');
  for (const m of rows.filter((row) => row.note)) console.log(`  ! ${m.scenario} via ${m.path}: ${m.note}`);
}

// ---- orchestration -----------------------------------------------------------------------------

const seconds = (since: number) => `${decimal.format((performance.now() - since) / 1_000)} s`;

async function benchAccept(server: RunningServer, client: BenchClient, seeded: Seeded, payments: Payments): Promise<Measurement[]> {
  const scenario = `POST /api/orders/:id/accept (pay ${PRICE} USDC)`;
  const preparing = performance.now();
  const httpAccepts = await prepareAccepts(server, seeded, payments, ACCEPT_POOL + ACCEPT_WARMUP);
  const directAccepts = await prepareAccepts(server, seeded, payments, ACCEPT_POOL + ACCEPT_WARMUP);
  const requests = await acceptRequests(seeded.payer, httpAccepts, false);
  console.log(
    `  accept-and-pay: ${integer.format(httpAccepts.length + directAccepts.length)} PENDING orders inserted and their payment headers built ` +
      `(SDK buildPaymentHeader, blockhash ${payments.blockhash.blockhash.slice(0, 8)}… from ${payments.config.rpcUrl}) in ${seconds(preparing)}; ` +
      `${ACCEPT_WARMUP} warm-up operations, then up to ${ACCEPT_SECONDS} s`,
  );
  const http = await client.call<RunResult>({ op: 'run', baseUrl: server.url, requests, concurrency: ACCEPT_CONCURRENCY, warmup: ACCEPT_WARMUP, seconds: ACCEPT_SECONDS });
  const { payer } = seeded;
  const direct = await measureDirect(
    scenario,
    'service payments.accept',
    directAccepts,
    { concurrency: ACCEPT_CONCURRENCY, warmup: ACCEPT_WARMUP, seconds: ACCEPT_SECONDS },
    ({ orderId, paymentHeader }) => server.services.payments.accept(payer.address, orderId, { clientWallet: payer.address, paymentMethod: 'usdc', paymentHeader }),
  );
  return [fromRun(scenario, `HTTP (fetch, ${ACCEPT_CONCURRENCY} in flight)`, http), direct];
}

/**
 * One accept at a time through the service, then its non-database parts one call at a time through the
 * server's own ledger: what is left of the accept is its SQL.
 */
async function acceptBreakdown(server: RunningServer, seeded: Seeded, payments: Payments): Promise<void> {
  const ledger = server.services.payments.ledger;
  const { payer } = seeded;
  const sequential = await prepareAccepts(server, seeded, payments, BREAKDOWN_ACCEPTS + 1);
  const acceptUs = await microseconds(BREAKDOWN_ACCEPTS, (i) => {
    const { orderId, paymentHeader } = sequential[i]!;
    return server.services.payments.accept(payer.address, orderId, { clientWallet: payer.address, paymentMethod: 'usdc', paymentHeader });
  });

  const orderId = randomUUID();
  const header = await buildPaymentHeader({ signer: payer.signer, order: { id: orderId, price: PRICE }, config: payments.config, blockhash: payments.blockhash });
  const priceMicro = usdcToMicro(PRICE)!;
  const check = await microseconds(BREAKDOWN_ITERATIONS * 5, () =>
    checkPayment({ header, paymentMethod: 'usdc', order: { id: orderId, priceMicro }, payer: payer.address, ledger }),
  );
  const balance = await microseconds(BREAKDOWN_ITERATIONS * 5, () => ledger.usdcBalance(payer.address));
  const transfers = await Promise.all(
    Array.from({ length: BREAKDOWN_ITERATIONS + 1 }, () =>
      buildPaymentTransaction({ signer: payer.signer, order: { id: randomUUID(), price: PRICE }, config: payments.config, blockhash: payments.blockhash }),
    ),
  );
  const submit = await microseconds(BREAKDOWN_ITERATIONS, (i) => ledger.submit(transfers[i]!));
  const payouts: Uint8Array[] = [];
  // An agent that already has a token account (paid above), as most payouts find them.
  const agent = seeded.agents[0]!.wallet.address;
  const signPayout = await microseconds(BREAKDOWN_ITERATIONS, async () => {
    payouts.push((await ledger.signPayout(agent, 1_350_000n, `bench payout ${randomUUID().slice(0, 8)}`)).transaction);
  });
  const payout = await microseconds(BREAKDOWN_ITERATIONS, (i) => ledger.submit(payouts[i]!));
  const parts = [
    ['checkPayment (decode, allow-list, Ed25519)', check],
    ['ledger.usdcBalance', balance],
    ['ledger.submit (consumer transfer)', submit],
    ['ledger.signPayout', signPayout],
    ['ledger.submit (agent payout)', payout],
  ] as const;
  const total = parts.reduce((sum, [, us]) => sum + us, 0);
  const width = Math.max(...parts.map(([label]) => label.length));
  const line = (label: string, us: number, note = '') => console.log(`    ${label.padEnd(width)}  ${integer.format(us).padStart(6)} µs${note}`);
  console.log(`  accept cost breakdown, one call at a time (mean of ${BREAKDOWN_ACCEPTS} accepts, ${BREAKDOWN_ITERATIONS}+ calls of each part; ledger journal fdatasync'd):`);
  line('service payments.accept, whole', acceptUs);
  for (const [label, us] of parts) line(`  ${label}`, us);
  line('  = without the database', total, ` (${integer.format((100 * total) / acceptUs)}%)`);
  line('  the rest: 22 SQL statements', acceptUs - total, ' (two transactions of 6 and 8 statements, 8 single ones)');
}

async function benchList(server: RunningServer, seeded: Seeded): Promise<Measurement[]> {
  const { lister } = seeded;
  const [count] = await server.db.em().execute<{ total: string | number }[]>('select count(*) as total from orders');
  console.log(
    `  order list: the lister wallet has ${integer.format(LISTED_ORDERS)} orders (all statuses, ${LISTER_AGENTS} agents); the orders table holds ` +
      `${integer.format(Number(count?.total ?? 0))} rows; signed once, ${LIST_CONCURRENCY} in flight, ${WARMUP_SECONDS} s warm-up + ${LIST_SECONDS} s`,
  );
  const rows: Measurement[] = [];
  for (const status of [undefined, LIST_STATUS] as const) {
    const path = `/api/orders?${status ? `status=${status}&` : ''}limit=${ORDER_PAGE}`;
    const headers: Record<string, string> = await signedHeaders(lister.signer, 'GET', path, Date.now());
    const check = await fetch(`${server.url}${path}`, { headers });
    const body = (await check.json()) as { orders?: unknown[]; total?: number };
    if (check.status !== 200 || body.orders?.length !== ORDER_PAGE) throw new Error(`GET ${path} answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
    const scenario = `GET ${path} (${integer.format(body.total ?? 0)} match)`;
    rows.push(await measureAutocannon(scenario, `${server.url}${path}`, headers));
    const query: OrderList = { limit: ORDER_PAGE, offset: 0, ...(status ? { status } : {}) };
    rows.push(
      await measureDirect(scenario, 'service orders.list', { repeat: query }, { concurrency: LIST_CONCURRENCY, warmup: 200, seconds: LIST_SECONDS }, (q) =>
        server.services.orders.list(lister.address, q),
      ),
    );
  }
  return rows;
}

interface EventRow {
  cause: string;
  run: RunResult;
}

let gc: (() => void) | undefined;

/**
 * process.memoryUsage() after a full garbage collection, so that a difference is what stays alive
 * (`gc` exposed at run time: the npm script starts Node without --expose-gc).
 */
function settledMemory(): NodeJS.MemoryUsage {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  return process.memoryUsage();
}

async function benchEvents(server: RunningServer, client: BenchClient, seeded: Seeded, payments: Payments, atStart: NodeJS.MemoryUsage): Promise<void> {
  const before = settledMemory();
  const connected = await client.call<ConnectResult>({ op: 'connect', baseUrl: server.url, seeds: seeded.agents.map((a) => a.wallet.seed), concurrency: SOCKET_CONNECT_CONCURRENCY });
  if (connected.opened !== seeded.agents.length) throw new Error(`only ${connected.opened} of ${seeded.agents.length} sockets opened: ${connected.errors.join('; ')}`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = settledMemory();
  console.log(
    `  live events: ${integer.format(connected.opened)} agents connected to /ws (SDK subscribeToEvents, ${SOCKET_CONNECT_CONCURRENCY} handshakes at a time) in ` +
      `${decimal.format(connected.seconds)} s; server-side subscriptions: ${integer.format(server.events.subscriberCount)}`,
  );
  const perSocket = (a: number, b: number) => `${decimal.format((a - b) / 1024 / connected.opened)} KB`;
  const live = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
  console.log(
    `  server process memory after a full GC: RSS ${mb(after.rss)} with ${integer.format(connected.opened)} sockets open, ${mb(before.rss)} just before connecting, ` +
      `${mb(atStart.rss)} right after start-up; per socket: JS heap + external ${perSocket(live(after), live(before))}, RSS ${perSocket(after.rss, before.rss)}`,
  );
  console.log(
    `  (RSS is this whole process: server, embedded database and ledger, prepared requests, and memory earlier parts freed but did not return; ` +
      `the WebSocket clients are in the child process)`,
  );

  // Messages from the payer (the consumer) to random agents' conversations, signed now.
  const messages: PreparedRequest[] = [];
  for (let i = 0; i < MESSAGE_WARMUP + MESSAGE_SAMPLES; i++) {
    const agent = Math.floor(Math.random() * seeded.agents.length);
    const path = `/api/conversations/${seeded.payerConversations[agent]}/messages`;
    const content = `bench sample ${i} ${randomUUID()}`;
    messages.push({
      method: 'POST',
      path,
      headers: { ...(await signedHeaders(seeded.payer.signer, 'POST', path)), 'content-type': 'application/json' },
      body: JSON.stringify({ senderWallet: seeded.payer.address, content, messageType: 'TEXT' }),
      expect: { agent, key: content },
    });
  }
  const rows: EventRow[] = [];
  rows.push({
    cause: 'POST /api/conversations/:id/messages → message:received',
    run: await client.call<RunResult>({ op: 'run', baseUrl: server.url, requests: messages, concurrency: ACCEPT_CONCURRENCY, warmup: MESSAGE_WARMUP }),
  });
  const accepts = await prepareAccepts(server, seeded, payments, PAID_WARMUP + PAID_SAMPLES);
  rows.push({
    cause: 'POST /api/orders/:id/accept → order:paid',
    run: await client.call<RunResult>({
      op: 'run',
      baseUrl: server.url,
      requests: await acceptRequests(seeded.payer, accepts, true),
      concurrency: ACCEPT_CONCURRENCY,
      warmup: PAID_WARMUP,
    }),
  });
  const during = settledMemory();

  console.log(`  event delivery, ${ACCEPT_CONCURRENCY} causing requests in flight, each to a random one of the ${integer.format(connected.opened)} connected agents:`);
  printTable(
    ['cause → frame', 'samples', 'frame p50 ms', 'frame p99 ms', 'max ms', 'after response p50/p99', 'HTTP p50 ms', 'req/s', 'failed / missed'],
    rows.map(({ cause, run }) => {
      const frames = ascending(run.frames);
      const afterResponse = ascending(run.frameAfterResponse);
      const http = ascending(run.http);
      return [
        cause,
        integer.format(frames.length),
        decimal.format(percentile(frames, 50)),
        decimal.format(percentile(frames, 99)),
        decimal.format(frames.at(-1) ?? Number.NaN),
        `${decimal.format(percentile(afterResponse, 50))} / ${decimal.format(percentile(afterResponse, 99))}`,
        decimal.format(percentile(http, 50)),
        integer.format(http.length / run.elapsedSeconds),
        `${integer.format(run.sent - http.length)} / ${integer.format(run.missedFrames)}`,
      ];
    }),
    1,
  );
  console.log("  (frame: from sending the request to the frame arriving at the agent's socket; after response: frame arrival minus the");
  console.log('   end of the HTTP response, negative when the frame came first; both timed in the client process)');
  for (const { cause, run } of rows.filter(({ run }) => run.firstFailure !== undefined)) console.log(`  ! ${cause}: ${statusSummary(run.statuses)}; first: ${run.firstFailure}`);
  for (const { cause, run } of rows.filter(({ run }) => run.socketErrors > 0)) console.log(`  ! ${cause}: ${run.socketErrors} event connections failed or closed during the run`);
  console.log(`  server RSS after the samples, sockets still open: ${mb(during.rss)}`);
  await client.call({ op: 'disconnect' });
}

/** The orders part for one database: its own server (fresh database, own ledger dir), then dropped. */
export async function benchOrders(database: OrdersBenchDatabase): Promise<void> {
  console.log(`\n== Orders, payments and live events: ${database.label}`);
  const ledgerDir = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
  const config: Config = {
    port: 0,
    host: HOST,
    database: database.config,
    rateLimits: 'off',
    logLevel: 'silent',
    shutdownTimeoutMs: 5_000,
    commissionBps: 1000,
    ledger: { kind: 'embedded', dataDir: ledgerDir },
  };
  const startedAt = performance.now();
  let server: RunningServer | undefined;
  let client: BenchClient | undefined;
  try {
    server = await startServer(config, createLogger('silent'));
    const atStart = settledMemory();
    client = new BenchClient();
    console.log(`  server up at ${server.url} in ${seconds(startedAt)}; rate limits off; embedded ledger persisted in ${ledgerDir}`);
    const seedingAt = performance.now();
    const seeded = await seed(server);
    const payments = await paymentsSetUp(server, seeded.payer);
    console.log(
      `  seeded ${integer.format(AGENTS)} agents, ${integer.format(AGENTS + LISTER_AGENTS)} conversations and ${integer.format(LISTED_ORDERS)} orders of one wallet ` +
        `(bulk inserts), funded the payer (POST /dev/faucet) in ${seconds(seedingAt)}\n`,
    );

    const acceptRows = await benchAccept(server, client, seeded, payments);
    const listRows = await benchList(server, seeded);
    console.log('');
    printMeasurements([...acceptRows, ...listRows]);
    console.log('');
    await acceptBreakdown(server, seeded, payments);
    console.log('');
    await benchEvents(server, client, seeded, payments, atStart);
    console.log(`  (${database.label.split(' ')[0]} orders part done in ${seconds(startedAt)})`);
  } finally {
    await client?.close();
    await server?.close();
    await database.drop();
    rmSync(ledgerDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (process.argv.includes(CLIENT_FLAG)) runClientProcess();
  else console.log('Run it through scripts/bench.ts: npm run bench -- orders');
}
