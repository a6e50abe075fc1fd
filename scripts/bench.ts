/**
 * Benchmark of the employee-resource and marketplace APIs: what the HTTP stack costs on top of the
 * database work.
 *
 * For each database — embedded PGlite in a fresh temp data dir, and PostgreSQL when it can be reached
 * (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; a throwaway bench_<random> database) —
 * it starts the real server in-process on 127.0.0.1 with rate limits off (config `rateLimits: 'off'`,
 * as RATE_LIMITS=off: one wallet would otherwise get 120 requests a minute, and the bench would measure
 * 429s), and measures, each with 10 operations in flight for 5 s after a 1 s warm-up:
 *   Resource API, 1,000 employees seeded into one organization:
 *     GET  /employee-resources   over HTTP (autocannon), via ResourceService.listEmployees, via a raw em.find
 *     POST /employee-resources   over HTTP (autocannon), via ResourceService.createEmployee
 *   Marketplace API, 10,000 agents and a 200-message conversation (scripts/bench-marketplace.ts):
 *     GET  /api/conversations/:id/messages   wallet-signed, over HTTP and via ConversationService.history
 *     GET  /api/agents/search?query=…        over HTTP and via AgentService.search
 * The direct runs keep the HTTP runs' concurrency, so HTTP/direct shows the price of routing,
 * authentication (API key, cached after the first request; or an Ed25519 signature, verified on every
 * request), validation and JSON serialization. autocannon runs in a worker thread so the load
 * generator does not share the server's event loop. 429 answers are counted in a column of their own.
 * Then orders, payments and live events on each database, each on a server of its own
 * (scripts/bench-orders.ts): accept-and-pay, the order list, event delivery to 1,000 connected agents.
 * Then Ed25519 verifications per second, node:crypto vs tweetnacl (scripts/bench-signatures.ts).
 * Last, documentation sites (scripts/bench-docs.ts): cold builds of 100 and 1,000 generated MDX pages by our
 * renderer (sites/builder) and by Astro Starlight, each in a child process (wall seconds, peak RSS), and the
 * gzipped HTML/CSS/JS weight of one page of each site; about 2-3 minutes.
 *
 *   npm run bench             everything
 *   npm run bench -- orders   only the orders part (scripts/bench-orders.ts)
 *   npm run bench -- docs     only the documentation-sites part (scripts/bench-docs.ts)
 *   npm run bench -- hosting  only documentation hosting: push to served, cached page and redirect req/s, MCP search
 *                             (scripts/bench-hosting.ts)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startServer, type RunningServer } from '../server/app.ts';
import type { Config, DatabaseConfig } from '../server/platform/config.ts';
import { EmployeeResource } from '../server/resources/entities.ts';
import { createLogger } from '../server/platform/logger.ts';
import type { EmployeeCreate } from '../server/resources/schemas.ts';
import { SEEDED_AGENTS, setUpMarketplace, type MarketplaceScenario } from './bench-marketplace.ts';
import { benchDocs } from './bench-docs.ts';
import { benchHosting } from './bench-hosting.ts';
import { benchOrders } from './bench-orders.ts';
import { benchSignatures } from './bench-signatures.ts';

const HOST = '127.0.0.1';
const SEEDED_EMPLOYEES = 1_000;
const CONCURRENCY = 10;
const MEASURE_SECONDS = 5;
const WARMUP_SECONDS = 1;
/** Upper bound on operations in one run, whatever the duration. */
const MAX_OPERATIONS_PER_RUN = 200_000;
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

interface Measurement {
  scenario: string;
  path: string;
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  succeeded: number;
  /** Every non-2xx answer or error, 429s included. */
  failed: number;
  /** HTTP runs only: how many of the failures were 429 Too Many Requests. */
  rateLimited?: number;
  firstFailure?: string;
}

interface ThrowawayDatabase {
  label: string;
  config: DatabaseConfig;
  drop(): Promise<void>;
}

interface BenchTarget {
  server: RunningServer;
  orgId: string;
  apiKey: string;
}

type Operation = () => Promise<unknown>;

// ---- databases ---------------------------------------------------------------------------------

function createPgliteDatabase(): ThrowawayDatabase {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
  return {
    label: `PGlite (embedded, fresh data dir ${dataDir})`,
    config: { kind: 'pglite', dataDir },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A new bench_<random> database on the server at `adminUrl`; throws when PostgreSQL can't be reached. */
async function createPostgresDatabase(adminUrl: string): Promise<ThrowawayDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await withPgClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    label: `PostgreSQL (${redactPassword(url.href)})`,
    config: { kind: 'postgresql', url: url.href },
    drop: async () => {
      await withPgClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function withPgClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

// ---- server and data ---------------------------------------------------------------------------

function benchConfig(database: DatabaseConfig): Config {
  // Rate limits off: the bench sends thousands of requests a second from one wallet / one IP.
  return { port: 0, host: HOST, database, rateLimits: 'off', logLevel: 'silent', shutdownTimeoutMs: 5_000, commissionBps: 1000, ledger: { kind: 'embedded' } };
}

function employeeBody(resourceId: string): EmployeeCreate {
  return {
    resourceId,
    resourceName: 'Ada Lovelace',
    timezone: 'Europe/London',
    createdAt: '2026-01-15T09:30:00.000Z',
    isActive: true,
    userId: `user-${resourceId}`,
    email: 'ada@example.com',
    role: 'Engineer',
  };
}

/** Seeds through the service, CONCURRENCY inserts at a time. */
async function seedEmployees(target: BenchTarget): Promise<void> {
  let next = 0;
  const insertUntilDone = async () => {
    while (next < SEEDED_EMPLOYEES) {
      const id = `seed-${next++}`;
      await target.server.services.resources.createEmployee(target.orgId, employeeBody(id));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, insertUntilDone));
}

/** One request of each kind, so that a broken scenario fails loudly instead of benchmarking errors. */
async function checkScenariosWork(target: BenchTarget): Promise<void> {
  const headers = { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' };
  const list = await fetch(`${target.server.url}/employee-resources`, { headers });
  const listed: unknown = await list.json();
  if (list.status !== 200 || !Array.isArray(listed) || listed.length !== SEEDED_EMPLOYEES) {
    throw new Error(`GET /employee-resources answered ${list.status} with ${Array.isArray(listed) ? listed.length : 'no'} items`);
  }
  const body = JSON.stringify(employeeBody('check-1'));
  const created = await fetch(`${target.server.url}/employee-resources`, { method: 'POST', headers, body });
  if (created.status !== 201) throw new Error(`POST /employee-resources answered ${created.status}: ${await created.text()}`);
}

// ---- measuring ---------------------------------------------------------------------------------

interface HttpScenario {
  scenario: string;
  method: 'GET' | 'POST';
  path: string;
  /** Sent unchanged with every request (an API key, or wallet headers signed once for a GET). */
  headers: Record<string, string>;
  /** Request body; `[<id>]` is replaced by a unique id in every request. */
  body?: string;
}

const apiKeyHeaders = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

async function runAutocannon(baseUrl: string, scenario: HttpScenario, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${baseUrl}${scenario.path}`,
    method: scenario.method,
    headers: {
      ...scenario.headers,
      ...(scenario.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(scenario.body === undefined ? {} : { body: scenario.body, idReplacement: true }),
    connections: CONCURRENCY,
    duration: seconds,
    maxOverallRequests: MAX_OPERATIONS_PER_RUN,
    workers: 1,
  });
}

async function measureHttp(baseUrl: string, scenario: HttpScenario): Promise<Measurement> {
  await runAutocannon(baseUrl, scenario, WARMUP_SECONDS);
  const result = await runAutocannon(baseUrl, scenario, MEASURE_SECONDS);
  const succeeded = result['2xx'];
  const failed = result.non2xx + result.errors;
  const rateLimited = result.statusCodeStats?.['429']?.count ?? 0;
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count ?? 0}× ${code}`)
    .join(', ');
  return {
    scenario: scenario.scenario,
    path: 'HTTP (autocannon)',
    // Only 2xx answers count: a 429 or an error is fast and would flatter the figure.
    opsPerSecond: succeeded / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    succeeded,
    failed,
    rateLimited,
    ...(failed > 0
      ? { firstFailure: `${result.non2xx} non-2xx responses (${statuses || 'codes not recorded'}), ${result.errors} connection errors; latency percentiles include them` }
      : {}),
  };
}

/** Runs `operation` from CONCURRENCY loops until the time or the operation budget runs out. */
async function runLoops(operation: Operation, seconds: number) {
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1_000;
  const loop = async () => {
    while (performance.now() < deadline && latencies.length + failed < MAX_OPERATIONS_PER_RUN) {
      const before = performance.now();
      try {
        await operation();
        latencies.push(performance.now() - before);
      } catch (error) {
        failed++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return { latencies, failed, firstFailure, elapsedSeconds: (performance.now() - started) / 1_000 };
}

async function measureDirect(scenario: string, path: string, operation: Operation): Promise<Measurement> {
  await runLoops(operation, WARMUP_SECONDS);
  const run = await runLoops(operation, MEASURE_SECONDS);
  const sorted = run.latencies.sort((a, b) => a - b);
  return {
    scenario,
    path,
    opsPerSecond: sorted.length / run.elapsedSeconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    succeeded: sorted.length,
    failed: run.failed,
    ...(run.firstFailure === undefined ? {} : { firstFailure: run.firstFailure }),
  };
}

/** Nearest-rank percentile of ascending values; NaN when there are none. */
function percentile(ascending: readonly number[], p: number): number {
  if (ascending.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * ascending.length);
  return ascending[Math.min(ascending.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** A counter per run, so every created resource gets an id of its own. */
function uniqueIds(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

async function measureListing(target: BenchTarget): Promise<Measurement[]> {
  const { server, orgId, apiKey } = target;
  const scenario = 'GET /employee-resources';
  return [
    await measureHttp(server.url, { scenario, method: 'GET', path: '/employee-resources', headers: apiKeyHeaders(apiKey) }),
    await measureDirect(scenario, 'service listEmployees', () => server.services.resources.listEmployees(orgId)),
    await measureDirect(scenario, 'MikroORM em.fork().find (ref.)', () =>
      server.db.orm.em.fork().find(EmployeeResource, { organization: orgId }),
    ),
  ];
}

async function measureCreation(target: BenchTarget): Promise<Measurement[]> {
  const { server, orgId, apiKey } = target;
  const scenario = 'POST /employee-resources';
  const body = JSON.stringify(employeeBody('http-[<id>]'));
  const nextId = uniqueIds('direct');
  return [
    await measureHttp(server.url, { scenario, method: 'POST', path: '/employee-resources', headers: apiKeyHeaders(apiKey), body }),
    await measureDirect(scenario, 'service createEmployee', () =>
      server.services.resources.createEmployee(orgId, employeeBody(nextId())),
    ),
  ];
}

/** Each marketplace scenario over HTTP, then through each of its direct paths. */
async function measureMarketplace(baseUrl: string, scenarios: readonly MarketplaceScenario[]): Promise<Measurement[]> {
  const rows: Measurement[] = [];
  for (const { scenario, http, direct } of scenarios) {
    rows.push(await measureHttp(baseUrl, { scenario, method: 'GET', path: http.path, headers: http.headers }));
    for (const { path, operation } of direct) rows.push(await measureDirect(scenario, path, operation));
  }
  return rows;
}

// ---- report ------------------------------------------------------------------------------------

/** Below this many operations a p99 is little more than the maximum. */
const FEW_SAMPLES = 100;

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function printTable(rows: readonly Measurement[]): void {
  const header = ['scenario', 'path', 'ops/s', 'p50 ms', 'p99 ms', 'ok', 'failed', 'of which 429'];
  const cells = rows.map((m) => [
    m.scenario,
    m.path,
    integer.format(m.opsPerSecond),
    decimal.format(m.p50Ms),
    decimal.format(m.p99Ms),
    integer.format(m.succeeded),
    integer.format(m.failed),
    m.rateLimited === undefined ? '-' : integer.format(m.rateLimited),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(`  ${line(header)}`);
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  let previousScenario = '';
  for (const row of cells) {
    const scenario = row[0] === previousScenario ? '' : (row[0] ?? '');
    previousScenario = row[0] ?? '';
    console.log(`  ${line([scenario, ...row.slice(1)])}`);
  }
  console.log('  (ops/s counts successful operations only; autocannon records latency in whole milliseconds,');
  console.log('   the direct runs time each call with performance.now())');
  for (const m of rows.filter((row) => row.firstFailure !== undefined)) {
    console.log(`  ! ${m.scenario} via ${m.path}: ${m.failed} failed; first: ${m.firstFailure}`);
  }
  for (const m of rows.filter((row) => row.succeeded < FEW_SAMPLES)) {
    console.log(`  note: ${m.scenario} via ${m.path}: only ${m.succeeded} operations, so p99 is about the slowest of them`);
  }
}

const times = (x: number) => (Number.isFinite(x) ? `${decimal.format(x)}×` : 'n/a');

/** Each HTTP run paired with every direct run of the same scenario. */
function httpDirectPairs(rows: readonly Measurement[]) {
  return rows
    .filter((m) => m.path.startsWith('HTTP'))
    .flatMap((http) => rows.filter((m) => m.scenario === http.scenario && m !== http).map((direct) => ({ http, direct })));
}

/** HTTP divided by direct: throughput below 1× and latency above 1× is what the HTTP stack costs. */
function printRatios(rows: readonly Measurement[]): void {
  console.log("  HTTP/direct (throughput < 1× and latency > 1× = the HTTP stack's overhead):");
  const pairs = httpDirectPairs(rows).map(({ http, direct }) => ({ label: `${http.scenario} vs ${direct.path}`, http, direct }));
  const labelWidth = Math.max(...pairs.map((pair) => pair.label.length));
  for (const { label, http, direct } of pairs) {
    const throughput = times(http.opsPerSecond / direct.opsPerSecond).padStart(7);
    const p50 = times(http.p50Ms / direct.p50Ms).padStart(7);
    const p99 = times(http.p99Ms / direct.p99Ms).padStart(7);
    console.log(`    ${label.padEnd(labelWidth)}  throughput ${throughput}   p50 ${p50}   p99 ${p99}`);
  }
}

// ---- orchestration -----------------------------------------------------------------------------

async function benchDatabase(database: ThrowawayDatabase): Promise<void> {
  console.log(`\n== ${database.label}`);
  const startedAt = performance.now();
  const server = await startServer(benchConfig(database.config), createLogger('silent'));
  try {
    console.log(`  server up at ${server.url} in ${seconds(startedAt)}; rate limits off (rateLimits: 'off')`);
    console.log(`  each run: ${CONCURRENCY} in flight, ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s measured`);

    console.log('\n  -- Resource API');
    const { orgId, apiKey } = await server.services.organizations.create('Bench');
    const target = { server, orgId, apiKey };
    const seedingAt = performance.now();
    await seedEmployees(target);
    console.log(`  seeded ${integer.format(SEEDED_EMPLOYEES)} employees in ${seconds(seedingAt)}\n`);
    await checkScenariosWork(target);
    const resourceRows = [...(await measureListing(target)), ...(await measureCreation(target))];
    printTable(resourceRows);
    console.log('');
    printRatios(resourceRows);

    console.log('\n  -- Marketplace API');
    const marketplace = await setUpMarketplace(server);
    for (const note of marketplace.notes) console.log(`  ${note}`);
    console.log('');
    const marketplaceRows = await measureMarketplace(server.url, marketplace.scenarios);
    printTable(marketplaceRows);
    console.log('');
    printRatios(marketplaceRows);
  } finally {
    await server.close();
    await database.drop();
  }
}

function seconds(since: number): string {
  return `${decimal.format((performance.now() - since) / 1_000)} s`;
}

/** Other work on the machine lowers every figure: printed so a slow run can be told from a slow server. */
function machineLoad(): string {
  const [oneMinute = 0] = loadavg();
  return `load average ${decimal.format(oneMinute)} (1 min) on ${availableParallelism()} cores`;
}

async function benchPostgresIfReachable(bench: (database: ThrowawayDatabase) => Promise<void> = benchDatabase): Promise<void> {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL;
  let database: ThrowawayDatabase;
  try {
    database = await createPostgresDatabase(adminUrl);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`\n== PostgreSQL (${redactPassword(adminUrl)}): skipped, cannot create a database there: ${reason}`);
    return;
  }
  await bench(database);
}

/** A failure on one database is reported and the next one still runs; the exit code tells. */
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
  const everything = !onlyOrders && !onlyDocs && !onlyHosting;
  console.log(
    onlyDocs || onlyHosting
      ? `Documentation-sites benchmark, Node ${process.version}; ${machineLoad()}`
      : `API benchmark: ${integer.format(SEEDED_EMPLOYEES)} employees, ${integer.format(SEEDED_AGENTS)} agents, Node ${process.version}; ${machineLoad()}`,
  );
  if (everything) {
    await reportingFailure(() => benchDatabase(createPgliteDatabase()));
    await reportingFailure(() => benchPostgresIfReachable());
  }
  if (everything || onlyOrders) {
    await reportingFailure(() => benchOrders(createPgliteDatabase()));
    await reportingFailure(() => benchPostgresIfReachable(benchOrders));
  }
  if (everything) {
    console.log('\n== Wallet signatures (no database)');
    await reportingFailure(benchSignatures);
  }
  if (everything || onlyDocs) await reportingFailure(benchDocs);
  if (everything || onlyHosting) await reportingFailure(benchHosting);
  console.log(`\nDone in ${seconds(startedAt)}; ${machineLoad()}.`);
}

await main();
