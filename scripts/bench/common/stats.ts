/** What a measured run is reduced to: throughput and latency percentiles. */

/** One row of a bench table: a scenario measured through one path (HTTP, a service call, …). */
export interface Measurement {
  scenario: string;
  path: string;
  /** Successful operations per second. */
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  succeeded: number;
  /** Every failed operation: non-2xx answers (429s included) and errors. */
  failed: number;
  /** HTTP runs only: how many of the failures were 429 Too Many Requests. */
  rateLimited?: number;
  /** What went wrong or ran out, printed under the table. */
  note?: string;
}

/** Sorts `values` in place, ascending, and returns them. */
export const ascending = (values: number[]) => values.sort((a, b) => a - b);

/** Nearest-rank percentile of ascending values; NaN when there are none. */
export function percentile(ascendingValues: readonly number[], p: number): number {
  if (ascendingValues.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * ascendingValues.length);
  return ascendingValues[Math.min(ascendingValues.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** A Measurement from the latencies (ms) of the successful operations of a run that lasted `elapsedSeconds`. */
export function fromLatencies(
  scenario: string,
  path: string,
  run: { latencies: number[]; elapsedSeconds: number; failed: number; notes: readonly string[] },
): Measurement {
  const sorted = ascending(run.latencies);
  return {
    scenario,
    path,
    opsPerSecond: sorted.length / run.elapsedSeconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    succeeded: sorted.length,
    failed: run.failed,
    ...(run.notes.length ? { note: run.notes.join('; ') } : {}),
  };
}

/** `3× 500, 1× error`: the answers that were not successes (by default: not 2xx), by status. */
export function statusSummary(statuses: Record<string, number | undefined>, success = (code: string) => code.startsWith('2')): string {
  return Object.entries(statuses)
    .filter(([code]) => !success(code))
    .map(([code, count]) => `${count ?? 0}× ${code}`)
    .join(', ');
}
