import type { Outcome } from '../../server/marketplace/idempotency.ts';
import { AppError, asAppError } from '../../server/platform/errors.ts';
import { middleware } from '../trpc.ts';

/**
 * Errors worth replaying: the client's own mistakes. Outages, rate limits, internal failures and a payment still
 * in flight (it settles later; the retry should then see the order as it is) may pass.
 */
const REPLAYABLE = (error: AppError) =>
  !['RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR', 'IDEMPOTENCY_CONFLICT'].includes(error.code) &&
  error.status !== 503 &&
  error.details?.reason !== 'payment-in-progress';

/**
 * `Idempotency-Key` on POST calls of a proven wallet (runs after wallet authentication, so keys are
 * per wallet and a replay still needs a fresh signature). Without the header, nothing changes.
 */
export const idempotent = middleware(async ({ ctx, type, path, getRawInput, next }) => {
  const header = ctx.headers['idempotency-key'];
  const wallet = (ctx as { wallet?: string }).wallet;
  if (type !== 'mutation' || header === undefined || !wallet) return next();
  const key = Array.isArray(header) ? header.join(',') : header;
  const { outcome, replayed } = await ctx.services.idempotency.run(wallet, key, { path, input: await getRawInput() }, async (): Promise<Outcome> => {
    const result = await next();
    if (result.ok) return { ok: true, data: result.data };
    const error = asAppError(result.error);
    if (!REPLAYABLE(error)) throw result.error;
    return { ok: false, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  });
  if (replayed && !ctx.res.headersSent) ctx.res.setHeader('Idempotent-Replayed', 'true');
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message, outcome.details);
  return { ok: true as const, data: outcome.data, marker: undefined as never, ctx };
});
