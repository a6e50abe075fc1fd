import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { asAppError, statusOf } from '../../server/platform/errors.ts';
import { documented, RETRY_AFTER } from '../../server/platform/http/procedure-meta.ts';
import { middleware } from '../trpc.ts';

const TRPC_CODE: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * Turns any failure into a TRPCError whose code matches the documented status and whose cause is the AppError. Any
 * call may fail inside (500) or find the database down (`asAppError`: 503 with Retry-After, 500 in the resource API).
 */
export const convertErrors = documented(middleware(async ({ ctx, next, meta }) => {
  const result = await next();
  if (result.ok) return result;
  const app = asAppError(result.error);
  if (app.code === 'INTERNAL_ERROR') throw result.error;
  const status = app.statusFor(meta?.api ?? 'resources');
  if (status === 503) ctx.res.setHeader('Retry-After', 5);
  const code = TRPC_CODE[status] ?? 'INTERNAL_SERVER_ERROR';
  throw new TRPCError({ code, message: app.message, cause: app });
}), ({ api }) => {
  const status = statusOf('SERVICE_UNAVAILABLE', api);
  return {
    errors: status === 500 ? { 500: ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'] } : { 500: ['INTERNAL_ERROR'], [status]: ['SERVICE_UNAVAILABLE'] },
    notes: { SERVICE_UNAVAILABLE: status === 503 ? 'The database cannot be reached: retry after Retry-After seconds' : 'The database cannot be reached' },
    headers: { 'Retry-After': { header: RETRY_AFTER, on: (answer) => answer === 503 } },
  };
});
