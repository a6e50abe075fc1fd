/**
 * USDC amounts on the wire: JSON numbers in USDC with at most 6 decimals; in code: integer micro-USDC
 * (bigint). Conversions go through decimal strings, never through floating-point arithmetic. The server
 * uses these same conversions (server/marketplace/money.ts).
 */
export const USDC_DECIMALS = 6;
const SCALE = 10n ** BigInt(USDC_DECIMALS);
/** Far above any real price; keeps every amount exactly representable as a JSON number. */
export const MAX_MICRO_USDC = 10n ** 15n;

/**
 * 12.5 -> 12_500_000n. Undefined when the number has more than 6 decimals, is negative or too large. A number that
 * differs from a 6-decimal amount only by binary rounding noise (at most 4 units in its last place) is that amount:
 * `0.1 + 0.2` (0.30000000000000004) is 0.3, `4.35 * 100` (434.99999999999994) is 435; 1.0000001 is
 * refused. The amount itself is always read from a decimal string.
 */
export function usdcToMicro(value: number): bigint | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  // The shortest decimal that reads back as this number: exactly what the client wrote, e.g. "0.1".
  const written = String(value);
  // Else the nearest 6-decimal amount (toFixed rounds the exact binary value), if only rounding noise away.
  const rounded = value < 1e21 ? value.toFixed(USDC_DECIMALS) : written;
  const decimal = Math.abs(Number(rounded) - value) <= 4 * Number.EPSILON * value ? rounded.replace(/\.?0+$/, '') : written;
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(decimal);
  if (!match) return undefined; // more than 6 decimals, or exponent notation (below 1e-6 or above 1e21)
  const micro = BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(USDC_DECIMALS, '0'));
  return micro <= MAX_MICRO_USDC ? micro : undefined;
}

/** 12_500_000n -> 12.5 */
export function microToUsdc(micro: bigint): number {
  const whole = micro / SCALE;
  const fraction = (micro % SCALE).toString().padStart(USDC_DECIMALS, '0');
  return Number(`${whole}.${fraction}`);
}
