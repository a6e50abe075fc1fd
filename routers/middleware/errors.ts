import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { AppError, databaseUnavailable, fieldProblems } from '../../server/platform/errors.ts';
import { middleware } from '../trpc.ts';

/**
 * Everything that can fail a call, as an AppError: services' own errors pass through; input
 * validation names each bad field; transport failures (bad JSON, content type, unknown route) get
 * client error codes; anything else is internal.
 */
export function asAppError(error: TRPCError): AppError {
  const { cause } = error;
  if (cause instanceof AppError) return cause;
  if (error.code === 'BAD_REQUEST' && cause?.name === 'ZodError' && 'issues' in cause) {
    const problems = fieldProblems(cause.issues as never);
    return new AppError('VALIDATION_ERROR', 'Invalid request', problems);
  }
  switch (error.code) {
    case 'PARSE_ERROR':
      return new AppError('INVALID_REQUEST', 'Request body is not valid JSON');
    case 'UNSUPPORTED_MEDIA_TYPE':
      return new AppError('INVALID_REQUEST', 'Content-Type must be application/json');
    case 'PAYLOAD_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', error.message);
    case 'NOT_FOUND':
    case 'METHOD_NOT_SUPPORTED':
      return new AppError('NOT_FOUND', error.message);
    default:
      return databaseUnavailable(error)
        ? new AppError('SERVICE_UNAVAILABLE', 'Service unavailable: the database cannot be reached; retry later')
        : new AppError('INTERNAL_ERROR', 'Internal server error');
  }
}

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

/** Turns any failure into a TRPCError whose code matches the documented status and whose cause is the AppError. */
export const convertErrors = middleware(async ({ ctx, next, meta }) => {
  const result = await next();
  if (result.ok) return result;
  const app = asAppError(result.error);
  if (app.code === 'INTERNAL_ERROR') throw result.error;
  if (app.statusFor(meta?.api ?? 'resources') === 503) ctx.res.setHeader('Retry-After', 5);
  const code = TRPC_CODE[app.statusFor(meta?.api ?? 'resources')] ?? 'INTERNAL_SERVER_ERROR';
  throw new TRPCError({ code, message: app.message, cause: app });
});
