/**
 * The API part of `npm run bench` for one database: the real server in-process with rate limits off, then
 * the resource API's scenarios (resources.ts) and the marketplace's (marketplace/), each measured over HTTP
 * (autocannon) and through each of its direct paths with the same concurrency, so HTTP/direct shows the price
 * of routing, authentication (API key, cached after the first request; or an Ed25519 signature, verified on
 * every request), validation and JSON serialization.
 */
import type { RunningServer } from '../../server/app.ts';
import type { ThrowawayDatabase } from './common/databases.ts';
import { secondsSince } from './common/format.ts';
import { measureAutocannon, measureDirect } from './common/measure.ts';
import { printFloor, printMeasurements, printRatios } from './common/report.ts';
import { startBenchServer } from './common/server.ts';
import type { Measurement } from './common/stats.ts';
import { setUpMarketplace } from './marketplace/index.ts';
import { setUpResources } from './resources.ts';
import { resourcesFloorOn } from './resources-baseline.ts';

const CONCURRENCY = 10;
const MEASURE_SECONDS = 5;
const WARMUP_SECONDS = 1;
/** Upper bound on operations in one run, whatever the duration. */
const MAX_OPERATIONS_PER_RUN = 200_000;

/** One scenario: the HTTP request autocannon repeats, and the same work without HTTP. */
export interface ApiScenario {
  scenario: string;
  http: { method?: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
  direct: { path: string; operation: () => Promise<unknown> }[];
}

export interface ApiSetup {
  /** What was seeded and how long it took, one line each, for the report. */
  notes: string[];
  scenarios: ApiScenario[];
}

const FOOTNOTE = [
  '(ops/s counts successful operations only; autocannon records latency in whole milliseconds,',
  ' the direct runs time each call with performance.now())',
];

/** A scenario's HTTP request, repeated by autocannon against `baseUrl` (ours, or a floor). */
function measureHttp(baseUrl: string, { scenario, http }: ApiScenario): Promise<Measurement> {
  const { path, ...request } = http;
  return measureAutocannon(scenario, { url: `${baseUrl}${path}`, ...request }, {
    connections: CONCURRENCY,
    warmupSeconds: WARMUP_SECONDS,
    seconds: MEASURE_SECONDS,
    maxRequests: MAX_OPERATIONS_PER_RUN,
  });
}

/** Each scenario over HTTP, then through each of its direct paths. */
async function measureScenarios(baseUrl: string, scenarios: readonly ApiScenario[]): Promise<Measurement[]> {
  const rows: Measurement[] = [];
  for (const scenario of scenarios) {
    rows.push(await measureHttp(baseUrl, scenario));
    for (const { path, operation } of scenario.direct) {
      const options = { concurrency: CONCURRENCY, warmup: { seconds: WARMUP_SECONDS }, seconds: MEASURE_SECONDS, maxOperations: MAX_OPERATIONS_PER_RUN };
      rows.push(await measureDirect(scenario.scenario, path, options, operation));
    }
  }
  return rows;
}

async function section(server: RunningServer, title: string, setUp: (server: RunningServer) => Promise<ApiSetup>) {
  console.log(`\n  -- ${title}`);
  const { notes, scenarios } = await setUp(server);
  for (const note of notes) console.log(`  ${note}`);
  console.log('');
  const rows = await measureScenarios(server.url, scenarios);
  printMeasurements(rows, FOOTNOTE, true);
  console.log('');
  printRatios(rows);
  return { scenarios, rows };
}

export async function benchApi(database: ThrowawayDatabase): Promise<void> {
  console.log(`\n== ${database.label}`);
  const startedAt = performance.now();
  const server = await startBenchServer(database.config);
  try {
    console.log(`  server up at ${server.url} in ${secondsSince(startedAt)}; rate limits off (rateLimits: 'off')`);
    console.log(`  each run: ${CONCURRENCY} in flight, ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s measured`);
    const resources = await section(server, 'Resource API', setUpResources);
    await section(server, 'Marketplace API', setUpMarketplace);
    await server.close();
    // Only the writes: by now the POSTs have grown the organization's list far past the 1,000 our GET read.
    console.log('\n  The resource API\'s writes from a hand-written node:http server on the same database (resources-baseline.ts), ours closed:');
    const floor = await resourcesFloorOn(database.config);
    try {
      const floorRows: Measurement[] = [];
      for (const scenario of resources.scenarios.filter((s) => s.http.method === 'POST')) floorRows.push(await measureHttp(floor.url, scenario));
      printFloor(resources.rows, floorRows);
    } finally {
      await floor.close();
    }
  } finally {
    await server.close();
    await database.drop();
  }
}
