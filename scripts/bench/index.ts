/**
 * `npm run bench`: what the HTTP stack costs on top of the database work, the orders and payments path, wallet
 * signatures and documentation sites. Each part prints its own table:
 *
 *   API (api.ts), on each database (common/databases.ts: embedded PGlite in a fresh temp data dir, and
 *   PostgreSQL when it can be reached), the real server in-process with rate limits off, each scenario with
 *   10 operations in flight for 5 s after a 1 s warm-up, over HTTP (autocannon, in a worker thread) and
 *   through the services:
 *     Resource API (resources.ts), 1,000 employees seeded into one organization:
 *       GET  /employee-resources   over HTTP, via ResourceService.listEmployees, via a raw em.find
 *       POST /employee-resources   over HTTP, via ResourceService.createEmployee
 *     Marketplace API (marketplace/), 10,000 agents and a 200-message conversation:
 *       GET  /api/conversations/:id/messages   wallet-signed, over HTTP and via ConversationService.history
 *       GET  /api/agents/search?query=…        over HTTP and via AgentService.search
 *   Orders, payments and live events on each database, each on a server of its own (orders/): accept-and-pay,
 *   the order list, event delivery to 1,000 connected agents.
 *   Durable commits on the embedded database: commits/s with PGLITE_FSYNC on and off (durability.ts).
 *   Ed25519 verifications per second, node:crypto vs tweetnacl (signatures.ts).
 *   The client SDK's browser bundle: minified and gzipped size (sdk-bundle.ts).
 *   Documentation sites (docs/): cold builds of 100 and 1,000 generated MDX pages by our renderer
 *   (sites/builder) and by Astro Starlight, each in a child process (wall seconds, peak RSS), and the gzipped
 *   HTML/CSS/JS weight of one page of each site; about 2-3 minutes.
 *
 *   npm run bench             everything
 *   npm run bench -- api      only the API part (api.ts; with the resource API's hand-written floor,
 *                             resources-baseline.ts)
 *   npm run bench -- orders   only the orders part (orders/)
 *   npm run bench -- docs     only the documentation-sites part (docs/)
 *   npm run bench -- durability  only durable commits on PGlite (durability.ts)
 *   npm run bench -- hosting  only documentation hosting: push to served, cached page and redirect req/s, MCP
 *                             search (hosting.ts)
 */
import { benchApi } from './api.ts';
import { benchDocs } from './docs/index.ts';
import { benchDurability, benchLedgerJournal } from './durability.ts';
import { benchHosting } from './hosting.ts';
import { SEEDED_AGENTS } from './marketplace/seed.ts';
import { benchOrders } from './orders/index.ts';
import { SEEDED_EMPLOYEES } from './resources.ts';
import { benchSdkBundle } from './sdk-bundle.ts';
import { createPgliteDatabase, onPostgresIfReachable } from './common/databases.ts';
import { integer, machineLoad, secondsSince } from './common/format.ts';
import { benchSignatures } from './signatures.ts';

/** A failure in one part (or on one database) is reported and the next one still runs; the exit code tells. */
async function reportingFailure(bench: () => Promise<void>): Promise<void> {
  try {
    await bench();
  } catch (error) {
    console.error('  bench failed:', error);
    process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const parts = process.argv.slice(2);
  const onlyOrders = parts.includes('orders');
  const onlyDocs = parts.includes('docs');
  const onlyHosting = parts.includes('hosting');
  const onlyDurability = parts.includes('durability');
  const onlyApi = parts.includes('api');
  const everything = !onlyOrders && !onlyDocs && !onlyHosting && !onlyDurability && !onlyApi;
  console.log(
    onlyDocs || onlyHosting
      ? `Documentation-sites benchmark, Node ${process.version}; ${machineLoad()}`
      : `API benchmark: ${integer(SEEDED_EMPLOYEES)} employees, ${integer(SEEDED_AGENTS)} agents, Node ${process.version}; ${machineLoad()}`,
  );
  if (everything || onlyApi) {
    await reportingFailure(() => benchApi(createPgliteDatabase()));
    await reportingFailure(() => onPostgresIfReachable(benchApi));
  }
  if (everything || onlyOrders) {
    await reportingFailure(() => benchOrders(createPgliteDatabase()));
    await reportingFailure(() => onPostgresIfReachable(benchOrders));
  }
  if (everything || onlyDurability) {
    console.log('\n== Durable commits on the embedded database (PGlite, a fresh data dir)');
    await reportingFailure(benchDurability);
    console.log('\n== The embedded ledger\'s journal (LiteSVM, a fresh dir): group commit');
    await reportingFailure(benchLedgerJournal);
  }
  if (everything) {
    console.log('\n== Wallet signatures (no database)');
    await reportingFailure(benchSignatures);
    console.log('\n== Client SDK in a browser (no server)');
    await reportingFailure(benchSdkBundle);
  }
  if (everything || onlyDocs) await reportingFailure(benchDocs);
  if (everything || onlyHosting) await reportingFailure(benchHosting);
  console.log(`\nDone in ${secondsSince(startedAt)}; ${machineLoad()}.`);
}

await main();
