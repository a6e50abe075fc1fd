/** How every bench prints numbers, sizes, durations and the machine's load. */
import { availableParallelism, loadavg } from 'node:os';

const formats = new Map<number, Intl.NumberFormat>();

/** `x` with exactly `digits` decimals and thousands separators: 1,234.50. */
export function decimal(x: number, digits = 2): string {
  let format = formats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(digits, format);
  }
  return format.format(x);
}

/** `x` rounded, with thousands separators: 1,235. */
export const integer = (x: number) => decimal(x, 0);

/** `x` with `digits` decimals and no separators (1234.5); 'n/a' when it is not finite. */
export const fixed = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

export const milliseconds = (ms: number) => `${decimal(ms, 1)} ms`;
export const seconds = (ms: number, digits = 2) => `${decimal(ms / 1_000, digits)} s`;
/** The time since `since` (a performance.now() reading). */
export const secondsSince = (since: number, digits = 2) => seconds(performance.now() - since, digits);

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
export const mb = (bytes: number) => `${integer(bytes / 1024 / 1024)} MB`;

/** Other work on the machine lowers every figure: printed so a slow run can be told from a slow server. */
export function machineLoad(): string {
  const [oneMinute = 0] = loadavg();
  return `load average ${decimal(oneMinute)} (1 min) on ${availableParallelism()} cores`;
}
