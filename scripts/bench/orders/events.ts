/**
 * Live events over /ws: 1,000 agents, each with a socket opened by the SDK's subscribeToEvents (in the client
 * process). Times a consumer's POST /api/conversations/:id/messages (to a random agent's conversation) to that
 * agent's `message:received` frame, and an accept-and-pay to its `order:paid` frame; reports the server's
 * memory with the 1,000 sockets open.
 */
import { randomUUID } from 'node:crypto';
import { signedHeaders } from '../../../client-sdk/wallet.ts';
import type { RunningServer } from '../../../server/app.ts';
import { decimal, integer, mb } from '../common/format.ts';
import { printTable } from '../common/report.ts';
import { ascending, percentile, statusSummary } from '../common/stats.ts';
import { ACCEPT_CONCURRENCY } from './accept.ts';
import type { BenchClient } from './client.ts';
import { settledMemory } from './memory.ts';
import { acceptRequests, prepareAccepts, type Payments } from './payments.ts';
import type { PreparedRequest, RunResult } from './protocol.ts';
import type { Seeded } from './seed.ts';

const MESSAGE_SAMPLES = 2_000;
const MESSAGE_WARMUP = 100;
const PAID_SAMPLES = 400;
const PAID_WARMUP = 20;
const SOCKET_CONNECT_CONCURRENCY = 50;

interface EventRow {
  cause: string;
  run: RunResult;
}

/** Messages from the payer (the consumer) to random agents' conversations, signed now. */
async function messageRequests(seeded: Seeded): Promise<PreparedRequest[]> {
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
  return messages;
}

function printDelivery(rows: readonly EventRow[], connected: number): void {
  console.log(`  event delivery, ${ACCEPT_CONCURRENCY} causing requests in flight, each to a random one of the ${integer(connected)} connected agents:`);
  printTable(
    ['cause → frame', 'samples', 'frame p50 ms', 'frame p99 ms', 'max ms', 'after response p50/p99', 'HTTP p50 ms', 'req/s', 'failed / missed'],
    rows.map(({ cause, run }) => {
      const frames = ascending(run.frames);
      const afterResponse = ascending(run.frameAfterResponse);
      const http = ascending(run.http);
      return [
        cause,
        integer(frames.length),
        decimal(percentile(frames, 50)),
        decimal(percentile(frames, 99)),
        decimal(frames.at(-1) ?? Number.NaN),
        `${decimal(percentile(afterResponse, 50))} / ${decimal(percentile(afterResponse, 99))}`,
        decimal(percentile(http, 50)),
        integer(http.length / run.elapsedSeconds),
        `${integer(run.sent - http.length)} / ${integer(run.missedFrames)}`,
      ];
    }),
    1,
  );
  console.log("  (frame: from sending the request to the frame arriving at the agent's socket; after response: frame arrival minus the");
  console.log('   end of the HTTP response, negative when the frame came first; both timed in the client process)');
  for (const { cause, run } of rows.filter(({ run }) => run.firstFailure !== undefined)) console.log(`  ! ${cause}: ${statusSummary(run.statuses)}; first: ${run.firstFailure}`);
  for (const { cause, run } of rows.filter(({ run }) => run.socketErrors > 0)) console.log(`  ! ${cause}: ${run.socketErrors} event connections failed or closed during the run`);
}

export async function benchEvents(server: RunningServer, client: BenchClient, seeded: Seeded, payments: Payments, atStart: NodeJS.MemoryUsage): Promise<void> {
  const before = settledMemory();
  const connected = await client.connect({ baseUrl: server.url, seeds: seeded.agents.map((a) => a.wallet.seed), concurrency: SOCKET_CONNECT_CONCURRENCY });
  if (connected.opened !== seeded.agents.length) throw new Error(`only ${connected.opened} of ${seeded.agents.length} sockets opened: ${connected.errors.join('; ')}`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = settledMemory();
  console.log(
    `  live events: ${integer(connected.opened)} agents connected to /ws (SDK subscribeToEvents, ${SOCKET_CONNECT_CONCURRENCY} handshakes at a time) in ` +
      `${decimal(connected.seconds)} s; server-side subscriptions: ${integer(server.events.subscriberCount)}`,
  );
  const perSocket = (a: number, b: number) => `${decimal((a - b) / 1024 / connected.opened)} KB`;
  const live = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
  console.log(
    `  server process memory after a full GC: RSS ${mb(after.rss)} with ${integer(connected.opened)} sockets open, ${mb(before.rss)} just before connecting, ` +
      `${mb(atStart.rss)} right after start-up; per socket: JS heap + external ${perSocket(live(after), live(before))}, RSS ${perSocket(after.rss, before.rss)}`,
  );
  console.log(
    `  (RSS is this whole process: server, embedded database and ledger, prepared requests, and memory earlier parts freed but did not return; ` +
      `the WebSocket clients are in the child process)`,
  );

  const rows: EventRow[] = [];
  rows.push({
    cause: 'POST /api/conversations/:id/messages → message:received',
    run: await client.run({ baseUrl: server.url, requests: await messageRequests(seeded), concurrency: ACCEPT_CONCURRENCY, warmup: MESSAGE_WARMUP }),
  });
  const accepts = await prepareAccepts(server, seeded, payments, PAID_WARMUP + PAID_SAMPLES);
  rows.push({
    cause: 'POST /api/orders/:id/accept → order:paid',
    run: await client.run({ baseUrl: server.url, requests: await acceptRequests(seeded.payer, accepts, true), concurrency: ACCEPT_CONCURRENCY, warmup: PAID_WARMUP }),
  });
  const during = settledMemory();
  printDelivery(rows, connected.opened);
  console.log(`  server RSS after the samples, sockets still open: ${mb(during.rss)}`);
  await client.disconnect();
}
