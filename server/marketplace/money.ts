/**
 * Money in the marketplace: integer micro-USDC (bigint) everywhere, JSON numbers in USDC on the wire
 * (docs/marketplace.md "Money"). The unit conversions are the SDK's, so client and server round alike.
 */
export { MAX_MICRO_USDC, microToUsdc, USDC_DECIMALS, usdcToMicro } from '../../client-sdk/usdc.ts';

/** The marketplace's cut of a price: round-half-up(price x bps / 10000), in integers (docs/orders-and-payments.md "Commission"). */
export function commissionMicro(priceMicro: bigint, bps: number): bigint {
  return (priceMicro * BigInt(bps) + 5_000n) / 10_000n;
}
