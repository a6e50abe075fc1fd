import { enforceRateLimit, ipKey, RATE_LIMITED } from '../../server/marketplace/rate-limits.ts';
import { documented } from '../../server/platform/http/procedure-meta.ts';
import { middleware } from '../trpc.ts';

/**
 * Public marketplace calls are unauthenticated, so they count per client IP: a signature would let
 * anyone mint fresh wallets for fresh allowances.
 */
export const rateLimitByIp = documented(middleware(async ({ ctx, meta, next }) => {
  await enforceRateLimit(ctx.services.rateLimiter, ctx.res, meta?.rateLimit, ipKey(ctx.ip));
  return next();
}), RATE_LIMITED);
