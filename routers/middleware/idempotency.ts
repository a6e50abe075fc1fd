import { IDEMPOTENCY_KEY, type Outcome } from '../../server/marketplace/idempotency.ts';
import { AppError, type AppErrorCode, asAppError } from '../../server/platform/errors.ts';
import { documented } from '../../server/platform/http/procedure-meta.ts';
import { middleware } from '../trpc.ts';

/** Errors never replayed: outages, rate limits, internal failures, the key's own conflicts. */
const NOT_REMEMBERED: readonly AppErrorCode[] = ['RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR', 'IDEMPOTENCY_CONFLICT'];

/**
 * Errors worth replaying: the client's own mistakes. Outages, rate limits, internal failures and a payment still
 * in flight (it settles later; the retry should then see the order as it is) may pass.
 */
const REPLAYABLE = (error: AppError) =>
  !NOT_REMEMBERED.includes(error.code) && error.status !== 503 && error.details?.reason !== 'payment-in-progress';

/**
 * `Idempotency-Key` on POST calls of a proven wallet (runs after wallet authentication, so keys are
 * per wallet and a replay still needs a fresh signature). Without the header, nothing changes.
 */
export const idempotent = documented(middleware(async ({ ctx, type, path, getRawInput, next }) => {
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
}), ({ type }) =>
  type !== 'mutation'
    ? {}
    : {
        errors: { 400: ['INVALID_REQUEST'], 409: ['IDEMPOTENCY_CONFLICT'] },
        notes: { INVALID_REQUEST: 'The `Idempotency-Key` header is not 1 to 255 visible ASCII characters' },
        parameters: {
          IdempotencyKey: {
            in: 'header',
            name: 'Idempotency-Key',
            required: false,
            description:
              "Makes a retry safe: the same key with the same request (endpoint, path id, body) answers the first outcome again, per wallet, for 24 h; with another request, 409 IDEMPOTENCY_CONFLICT",
            schema: { type: 'string', pattern: IDEMPOTENCY_KEY.source },
            example: 'order-2026-01-15-contract-de',
          },
        },
        headers: {
          // On a replay of a first outcome: a success, or an error of the call itself that was remembered.
          'Idempotent-Replayed': {
            header: { description: 'Present (`true`) when the answer replays the first outcome of its Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
            on: (status, inner) => status < 300 || (status !== 503 && inner.some((code) => !NOT_REMEMBERED.includes(code))),
          },
        },
      });
