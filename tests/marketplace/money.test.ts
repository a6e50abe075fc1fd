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

  it.each([[1.0000001], [1.00000004], [-1], [1e10], [Number.NaN], [Infinity]])('%d is not an amount', (usdc) => {
    expect(usdcToMicro(usdc)).toBeUndefined();
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
