/**
 * The tRPC core, in three parts: the context every call gets, tRPC itself (with the error
 * formatter), and its building blocks. Nothing else calls initTRPC; the procedures routers use are
 * assembled from these blocks and the middlewares in `procedures.ts`.
 */
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { IncomingHttpHeaders } from 'node:http';
import type { Services } from '../server/services.ts';
import { AppError, type Api } from '../server/platform/errors.ts';
import type { RateRuleName } from '../server/platform/rate-limiter.ts';

// ---- 1. context ------------------------------------------------------------------------------

/** What calls may do to their HTTP response. */
export interface ResponseHeaders {
  readonly headersSent: boolean;
  setHeader(name: string, value: number | string): unknown;
}

export interface Context {
  services: Services;
  headers: IncomingHttpHeaders;
  /** The request as the client sent it (wallet signatures cover method and URL). */
  method: string;
  url: string;
  /** Client address, the rate-limit key of unauthenticated calls. */
  ip: string;
  /** The request body as received (REST calls with a body; webhook signatures cover it). */
  rawBody?: string | undefined;
  /** For response headers (rate limits). */
  res: ResponseHeaders;
}

// ---- 2. tRPC ---------------------------------------------------------------------------------

export type Meta = OpenApiMeta<{
  /** Whose error conventions apply (default: the resource API's). */
  api?: Api;
  /** What the call does, named in the resource API's error messages: "creating employee resource". */
  action?: string;
  /** The marketplace's rate-limit rule (default: 120 per minute). */
  rateLimit?: RateRuleName;
  /** Success status on REST (default 200); 204 calls return nothing. */
  successStatus?: 201 | 204;
  /** Error statuses the call can answer with, documented in openapi.json. */
  errorStatuses?: number[];
}>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Never put stack traces in responses.
    isDev: false,
    errorFormatter({ shape, error }) {
      const app = error.cause instanceof AppError ? error.cause : undefined;
      return {
        ...shape,
        // Internal failures keep their detail in the logs, not in the response.
        message: app || error.code !== 'INTERNAL_SERVER_ERROR' ? shape.message : 'Internal server error',
        data: { ...shape.data, appCode: app?.code ?? null, details: app?.details ?? null },
      };
    },
  });

// ---- 3. building blocks ----------------------------------------------------------------------

export const router = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
