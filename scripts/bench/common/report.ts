/** Tables on the console: the one table printer, and the report of Measurement rows built on it. */
import { decimal, integer } from './format.ts';
import type { Measurement } from './stats.ts';

/** Below this many operations a p99 is little more than the maximum. */
const FEW_SAMPLES = 100;

/**
 * Prints an indented table: the first `leftColumns` columns left-aligned, the others right-aligned, a
 * rule under the header, and the first cell left blank where it repeats the row above's (a group).
 */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[], leftColumns: number): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(`  ${line(header)}`);
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  let previous: string | undefined;
  for (const row of rows) {
    const first = row[0] === previous ? '' : (row[0] ?? '');
    previous = row[0];
    console.log(`  ${line([first, ...row.slice(1)])}`.trimEnd());
  }
}

/**
 * Measurements grouped by scenario, then `footnote` (what the figures mean), each row's note and the rows
 * with too few operations for a meaningful p99. `rateLimitColumn` adds how many failures were 429s.
 */
export function printMeasurements(rows: readonly Measurement[], footnote: readonly string[], rateLimitColumn = false): void {
  printTable(
    ['scenario', 'path', 'ops/s', 'p50 ms', 'p99 ms', 'ok', 'failed', ...(rateLimitColumn ? ['of which 429'] : [])],
    rows.map((m) => [
      m.scenario,
      m.path,
      integer(m.opsPerSecond),
      decimal(m.p50Ms),
      decimal(m.p99Ms),
      integer(m.succeeded),
      integer(m.failed),
      ...(rateLimitColumn ? [m.rateLimited === undefined ? '-' : integer(m.rateLimited)] : []),
    ]),
    2,
  );
  for (const line of footnote) console.log(`  ${line}`);
  for (const m of rows.filter((row) => row.note !== undefined)) console.log(`  ! ${m.scenario} via ${m.path}: ${m.note}`);
  for (const m of rows.filter((row) => row.succeeded < FEW_SAMPLES)) {
    console.log(`  note: ${m.scenario} via ${m.path}: only ${m.succeeded} operations, so p99 is about the slowest of them`);
  }
}

const times = (x: number) => (Number.isFinite(x) ? `${decimal(x)}×` : 'n/a');

/** HTTP divided by direct, each HTTP row against every other row of its scenario: throughput below 1× and latency above 1× is what the HTTP stack costs. */
export function printRatios(rows: readonly Measurement[]): void {
  console.log("  HTTP/direct (throughput < 1× and latency > 1× = the HTTP stack's overhead):");
  const pairs = rows
    .filter((m) => m.path.startsWith('HTTP'))
    .flatMap((http) => rows.filter((m) => m.scenario === http.scenario && m !== http).map((direct) => ({ label: `${http.scenario} vs ${direct.path}`, http, direct })));
  const labelWidth = Math.max(...pairs.map((pair) => pair.label.length));
  for (const { label, http, direct } of pairs) {
    const throughput = times(http.opsPerSecond / direct.opsPerSecond).padStart(7);
    const p50 = times(http.p50Ms / direct.p50Ms).padStart(7);
    const p99 = times(http.p99Ms / direct.p99Ms).padStart(7);
    console.log(`    ${label.padEnd(labelWidth)}  throughput ${throughput}   p50 ${p50}   p99 ${p99}`);
  }
}

/** Ours next to the hand-written floor: req/s and p99 of each, and ours as a share of the floor's throughput. */
export function printFloor(ours: readonly Measurement[], floor: readonly Measurement[]): void {
  printTable(
    ['scenario', 'ours req/s', 'p99 ms', 'hand-written req/s', 'p99 ms', 'ours / hand-written'],
    floor.map((base) => {
      const our = ours.find((m) => m.scenario === base.scenario && m.path.startsWith('HTTP'));
      return [
        base.scenario,
        our ? integer(our.opsPerSecond) : 'n/a',
        our ? decimal(our.p99Ms) : 'n/a',
        integer(base.opsPerSecond),
        decimal(base.p99Ms),
        our ? `${decimal(our.opsPerSecond / base.opsPerSecond)}×` : 'n/a',
      ];
    }),
    1,
  );
}
