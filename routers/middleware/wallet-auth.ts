import { enforceIpCeiling, enforceRateLimit, ipKey, RATE_LIMITED } from '../../server/marketplace/rate-limits.ts';
import { WALLET_SIGNED } from '../../server/marketplace/wallet-signature-doc.ts';
import { documented } from '../../server/platform/http/procedure-meta.ts';
import { middleware } from '../trpc.ts';

/**
 * Signed marketplace calls. The signature is checked (and a non-GET one used up) first, so the call
 * counts against the proven wallet's allowance; a call that proves no wallet counts per client IP, and
 * is then refused. A signed write also counts against its client IP's ceiling (fresh wallets do not buy fresh
 * allowances). Either way the answer carries X-RateLimit headers.
 */
export const requireWallet = documented(middleware(async ({ ctx, meta, next }) => {
  const request = { method: ctx.method, url: ctx.url, headers: ctx.headers, host: ctx.host, body: ctx.body };
  // A WebSocket connection is proven once, its signature used up (a GET's is not): one connection per signature.
  const proof = await (ctx.proveConnection
    ? ctx.proveConnection(() => ctx.services.walletAuth.authenticate(request, { singleUse: true }))
    : ctx.services.walletAuth.authenticate(request));
  await enforceRateLimit(ctx.services.rateLimiter, ctx.res, meta?.rateLimit, 'wallet' in proof ? proof.wallet : ipKey(ctx.ip));
  if ('failure' in proof) throw proof.failure;
  if (ctx.method.toUpperCase() !== 'GET') await enforceIpCeiling(ctx.services.rateLimiter, ctx.res, meta?.rateLimit, ctx.ip);
  return next({ ctx: { wallet: proof.wallet } });
}), {
  ...WALLET_SIGNED,
  ...RATE_LIMITED,
  errors: { 401: ['INVALID_SIGNATURE'], ...RATE_LIMITED.errors },
});
