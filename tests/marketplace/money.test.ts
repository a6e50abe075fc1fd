import { describe, expect, it } from 'vitest';
import { commissionMicro, microToUsdc, usdcToMicro } from '../../server/marketplace/money.ts';

describe('USDC amounts', () => {
  it.each([[0, 0n], [0.1, 100_000n], [12.5, 12_500_000n], [1.000001, 1_000_001n], [1e9, 1_000_000_000_000_000n]])(
    '%d USDC is %d micro-USDC and back',
    (usdc, micro) => {
      expect(usdcToMicro(usdc)).toBe(micro);
      expect(microToUsdc(micro)).toBe(usdc);
    },
  );

  it.each([[1.0000001], [1.00000004], [0.0000001], [0.0000005], [123.4567895], [-1], [1e10], [Number.NaN], [Infinity]])('%d is not an amount', (usdc) => {
    expect(usdcToMicro(usdc)).toBeUndefined();
  });

  it.each([
    [0.1 + 0.2, 300_000n],
    [1.1 * 1.1, 1_210_000n],
    [4.35 * 100, 435_000_000n],
    [0.07 * 100, 7_000_000n],
  ])('%d differs from a 6-decimal amount by rounding noise only: it is that amount', (usdc, micro) => {
    expect(String(usdc)).toMatch(/\d{7,}|e/); // the number itself is not written with 6 decimals
    expect(usdcToMicro(usdc)).toBe(micro);
  });

  it('every k x 0.000001 up to 10^9 is k micro-USDC (what a generator of multipleOf 0.000001 sends)', () => {
    for (let i = 0; i < 20_000; i++) {
      const k = Math.floor(Math.random() * 1e15);
      expect(usdcToMicro(k * 0.000001), String(k)).toBe(BigInt(k));
    }
  });
});

describe('commission (docs/orders-and-payments.md "Commission": round-half-up of price x bps / 10000)', () => {
  it.each([
    [10_000_000n, 1000, 1_000_000n],
    [5n, 1000, 1n], // 0.5 rounds up
    [4n, 1000, 0n], // 0.4 rounds down
    [15n, 1000, 2n], // 1.5 rounds up
    [1_234_567n, 250, 30_864n], // 30,864.175
  ])('%d micro-USDC at %d bps is %d', (price, bps, commission) => {
    expect(commissionMicro(price, bps)).toBe(commission);
  });
});
