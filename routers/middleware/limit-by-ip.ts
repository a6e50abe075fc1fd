import { AppError } from '../../server/platform/errors.ts';
import { RATE_RULES, type RateDecision, type RateRuleName } from '../../server/platform/rate-limiter.ts';
import type { Services } from '../../server/services.ts';
import { middleware, type ResponseHeaders } from '../trpc.ts';

/** The key of calls made by no proven wallet. */
export const ipKey = (ip: string) => `ip:${ip}`;

function setRateLimitHeaders(res: ResponseHeaders, decision: RateDecision) {
  if (res.headersSent) return;
  res.setHeader('X-RateLimit-Limit', decision.limit);
  res.setHeader('X-RateLimit-Remaining', decision.remaining);
  res.setHeader('X-RateLimit-Reset', decision.resetAt);
  if (!decision.allowed) res.setHeader('Retry-After', decision.retryAfterSeconds);
}

/** Counts one call of `key` against its rule (default 120/min) and puts the X-RateLimit headers on the answer. */
export async function countCall(services: Services, res: ResponseHeaders, rule: RateRuleName | undefined, key: string) {
  const decision = await services.rateLimiter.consume(RATE_RULES[rule ?? 'default'], key);
  setRateLimitHeaders(res, decision);
  return decision;
}

/** As countCall, refusing the call beyond the limit (429 RATE_LIMIT_EXCEEDED). */
export async function enforceRateLimit(services: Services, res: ResponseHeaders, rule: RateRuleName | undefined, key: string) {
  const decision = await countCall(services, res, rule, key);
  if (!decision.allowed) {
    throw new AppError('RATE_LIMIT_EXCEEDED', `Too many requests: retry in ${decision.retryAfterSeconds} s`, {
      limit: decision.limit,
      retryAfterSeconds: decision.retryAfterSeconds,
    });
  }
}

/**
 * Public marketplace calls are unauthenticated, so they count per client IP: a signature would let
 * anyone mint fresh wallets for fresh allowances.
 */
export const rateLimitByIp = middleware(async ({ ctx, meta, next }) => {
  await enforceRateLimit(ctx.services, ctx.res, meta?.rateLimit, ipKey(ctx.ip));
  return next();
});
