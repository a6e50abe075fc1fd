import { AppError } from '../../server/errors.ts';
import { RATE_RULES, type RateDecision, type RateRuleName } from '../../server/rate-limit.ts';
import { middleware, type Context, type ResponseHeaders } from '../trpc.ts';

export function setRateLimitHeaders(res: ResponseHeaders, decision: RateDecision) {
  if (res.headersSent) return;
  res.setHeader('X-RateLimit-Limit', decision.limit);
  res.setHeader('X-RateLimit-Remaining', decision.remaining);
  res.setHeader('X-RateLimit-Reset', decision.resetAt);
  if (!decision.allowed) res.setHeader('Retry-After', decision.retryAfterSeconds);
}

/**
 * Every marketplace call: reads the wallet headers (without failing yet) and counts the call against its
 * rate-limit rule, per verified wallet or else per client IP, before anything else can fail, so the
 * X-RateLimit headers go out on every answer.
 */
export const rateLimitByCaller = middleware(async ({ ctx, meta, next }) => {
  const { caller, decision } = await countCall(ctx, meta?.rateLimit);
  setRateLimitHeaders(ctx.res, decision);
  if (!decision.allowed) {
    throw new AppError('RATE_LIMIT_EXCEEDED', `Too many requests: retry in ${decision.retryAfterSeconds} s`, {
      limit: decision.limit,
      retryAfterSeconds: decision.retryAfterSeconds,
    });
  }
  return next({ ctx: { caller } });
});

/** Counts one call against its rule, per verified wallet or else per client IP. */
export async function countCall(request: Omit<Context, 'res'>, rule: RateRuleName = 'default') {
  const caller = request.services.walletAuth.identify({ method: request.method, url: request.url, headers: request.headers });
  const key = caller && 'wallet' in caller ? caller.wallet : `ip:${request.ip}`;
  return { caller, decision: await request.services.rateLimiter.consume(RATE_RULES[rule], key) };
}

/** Calls that need a signed wallet: `ctx.wallet` is the verified address; a non-GET signature is used once. */
export const requireWallet = rateLimitByCaller.unstable_pipe(async ({ ctx, next }) => {
  const { caller } = ctx;
  if (!caller) {
    throw new AppError('INVALID_SIGNATURE', 'Sign the request: X-Wallet-Address, X-Signature and X-Timestamp', { reason: 'missing' });
  }
  if ('failure' in caller) throw caller.failure;
  if (ctx.method !== 'GET') await ctx.services.walletAuth.claim(caller.wallet, ctx.method, ctx.url, caller.timestamp);
  return next({ ctx: { wallet: caller.wallet } });
});
