/**
 * Orders, payments and live events part of `npm run bench` (`npm run bench -- orders` runs only this part,
 * about 2 minutes). For each database the entry hands over (PGlite in a fresh data dir; PostgreSQL when
 * reachable), it starts the real server in-process with rate limits off and the embedded LiteSVM ledger
 * persisted in a temp dir (journal fdatasync'd per transaction, as `npm start` runs it), seeds 1,000 agents
 * (seed.ts, bulk inserts), and measures, one module each:
 *
 *   accept.ts, breakdown.ts   POST /api/orders/:id/accept, full accept-and-pay, over HTTP and through the
 *                             service; then one accept at a time next to its non-database parts.
 *   reads.ts, baseline.ts     GET /api/orders?limit=20 for a wallet with 1,000 orders, a conversation's messages,
 *                             an agent; then, our server closed, the same reads from a hand-written node:http
 *                             server on the same database (the floor), and ours as a share of it.
 *   events.ts, memory.ts      frames delivered to 1,000 agents' sockets over /ws; the server's memory.
 *   scale-out.ts              PostgreSQL only: the same reads from one server process, then from two at once.
 *
 * The HTTP clients (fetch for the accepts and the messages, the 1,000 WebSockets) run in a child process
 * (client.ts forks client-process.ts), so the server's memory is its own and the load generator does not
 * share its event loop. Wallets sign with node:crypto Ed25519 (wallet.ts) so that preparing thousands of
 * requests stays quick.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../../server/app.ts';
import type { ThrowawayDatabase } from '../common/databases.ts';
import { integer, secondsSince } from '../common/format.ts';
import { printFloor, printMeasurements } from '../common/report.ts';
import { startBenchServer } from '../common/server.ts';
import { benchAccept } from './accept.ts';
import { acceptBreakdown } from './breakdown.ts';
import { BenchClient } from './client.ts';
import { benchEvents } from './events.ts';
import { floorQuery } from './baseline.ts';
import { benchReads, measureReads } from './reads.ts';
import { benchScaleOut } from './scale-out.ts';
import { settledMemory } from './memory.ts';
import { paymentsSetUp } from './payments.ts';
import { AGENTS, LISTED_ORDERS, LISTER_AGENTS, seed } from './seed.ts';

const FOOTNOTE = ['(autocannon records latency in whole milliseconds; fetch and direct runs use performance.now())'];

/** The orders part for one database: its own server (fresh database, own ledger dir), then dropped. */
export async function benchOrders(database: ThrowawayDatabase): Promise<void> {
  console.log(`\n== Orders, payments and live events: ${database.label}`);
  const ledgerDir = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
  const startedAt = performance.now();
  let server: RunningServer | undefined;
  let client: BenchClient | undefined;
  try {
    server = await startBenchServer(database.config, { ledger: { kind: 'embedded', dataDir: ledgerDir } });
    const atStart = settledMemory();
    client = new BenchClient();
    console.log(`  server up at ${server.url} in ${secondsSince(startedAt)}; rate limits off; embedded ledger persisted in ${ledgerDir}`);
    const seedingAt = performance.now();
    const seeded = await seed(server);
    const payments = await paymentsSetUp(server, seeded.payer);
    console.log(
      `  seeded ${integer(AGENTS)} agents, ${integer(AGENTS + LISTER_AGENTS)} conversations and ${integer(LISTED_ORDERS)} orders of one wallet ` +
        `(bulk inserts), the agents' token accounts, funded the payer (POST /dev/faucet) in ${secondsSince(seedingAt)}\n`,
    );

    const acceptRows = await benchAccept(server, client, seeded, payments);
    const readRows = await benchReads(server, seeded);
    console.log('');
    printMeasurements([...acceptRows, ...readRows], FOOTNOTE);
    console.log('');
    await acceptBreakdown(server, seeded, payments);
    console.log('');
    await benchEvents(server, client, seeded, payments, atStart);
    await server.close();
    console.log(`\n  The same reads from a hand-written node:http server on the same database (baseline.ts), ours closed:`);
    const floor = await floorQuery(database.config);
    try {
      const floorRows = await measureReads(floor.url, 'hand-written', seeded);
      printFloor(readRows, floorRows);
    } finally {
      await floor.close();
    }
    if (database.config.kind === 'postgresql') {
      console.log('');
      await benchScaleOut(database.config.url, seeded);
    }
    console.log(`  (${database.label.split(' ')[0]} orders part done in ${secondsSince(startedAt)})`);
  } finally {
    await client?.close();
    await server?.close();
    await database.drop();
    rmSync(ledgerDir, { recursive: true, force: true });
  }
}
