/**
 * The two ways a bench measures a scenario: over HTTP with autocannon (in a worker thread, so the load
 * generator does not share the server's event loop) and in-process through a direct call, both after a
 * warm-up and both reduced to a Measurement.
 */
import autocannon from 'autocannon';
import { decimal } from './format.ts';
import { runLoops } from './loops.ts';
import { fromLatencies, statusSummary, type Measurement } from './stats.ts';

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST';
  /** Sent unchanged with every request (an API key, or wallet headers signed once for a GET). */
  headers: Record<string, string>;
  /** A JSON body; `[<id>]` is replaced by a unique id in every request. */
  body?: string;
}

export interface AutocannonOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** At most this many requests in a run, whatever the duration. */
  maxRequests?: number;
  /** The status that counts as a success; any 2xx when unset. */
  expectStatus?: number;
}

/** `request` repeated by autocannon: a warm-up run, then the measured one. Only successes count in ops/s. */
export async function measureAutocannon(scenario: string, request: HttpRequest, options: AutocannonOptions): Promise<Measurement> {
  const run = (duration: number) =>
    autocannon({
      url: request.url,
      method: request.method ?? 'GET',
      headers: { ...request.headers, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(request.body === undefined ? {} : { body: request.body, idReplacement: true }),
      connections: options.connections,
      duration,
      ...(options.maxRequests === undefined ? {} : { maxOverallRequests: options.maxRequests }),
      workers: 1,
    });
  await run(options.warmupSeconds);
  const result = await run(options.seconds);
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
  const success = (code: string) => (options.expectStatus === undefined ? code.startsWith('2') : code === String(options.expectStatus));
  // Only successes count: a 429 or an error is fast and would flatter the figure.
  const succeeded = options.expectStatus === undefined ? result['2xx'] : (statuses[String(options.expectStatus)] ?? 0);
  const failed = result['2xx'] + result.non2xx + result.errors - succeeded;
  const failures = `${failed} failed (${statusSummary(statuses, success) || 'codes not recorded'}; ${result.errors} connection errors); latency percentiles include them`;
  return {
    scenario,
    path: 'HTTP (autocannon)',
    opsPerSecond: succeeded / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    succeeded,
    failed,
    rateLimited: statuses['429'] ?? 0,
    ...(failed > 0 ? { note: failures } : {}),
  };
}

export interface DirectOptions {
  concurrency: number;
  /** Unmeasured first: for this many seconds, or this many operations. */
  warmup: { seconds: number } | { operations: number };
  seconds: number;
  /** How many operations there are (prepared items, indexes 0 to count - 1); unlimited when unset. */
  count?: number;
  /** At most this many operations in the warm-up and in the measured run each. */
  maxOperations?: number;
}

/**
 * `operation(index)` from `concurrency` loops: the warm-up, then until `seconds` pass or the `count`
 * operations run out (the note says so). Each call is timed with performance.now().
 */
export async function measureDirect(
  scenario: string,
  path: string,
  options: DirectOptions,
  operation: (index: number) => Promise<unknown>,
): Promise<Measurement> {
  const count = options.count ?? Number.POSITIVE_INFINITY;
  const max = options.maxOperations ?? Number.POSITIVE_INFINITY;
  let next = 0;
  const phase = (seconds: number, until: number) =>
    runLoops(options.concurrency, seconds, (run) => (next < until && run.latencies.length + run.failed < max ? next++ : undefined), operation);
  if ('seconds' in options.warmup) await phase(options.warmup.seconds, count);
  else await phase(Number.POSITIVE_INFINITY, Math.min(options.warmup.operations, count));
  const warmedUp = next;
  const run = await phase(options.seconds, count);
  const exhausted = next >= count && run.elapsedSeconds < options.seconds;
  const notes = [
    ...(exhausted ? [`used up all ${count - warmedUp} prepared items in ${decimal(run.elapsedSeconds)} s`] : []),
    ...(run.failed > 0 ? [`${run.failed} failed; first: ${run.firstFailure}`] : []),
  ];
  return fromLatencies(scenario, path, { ...run, notes });
}
