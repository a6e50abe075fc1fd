/**
 * The tRPC core, in three parts: the context every call gets, tRPC itself (with the error
 * formatter), and its building blocks. Nothing else calls initTRPC; the procedures routers use are
 * assembled from these blocks and the middlewares in `procedures.ts`.
 */
import { initTRPC } from '@trpc/server';
import { AppError } from '../server/platform/errors.ts';
import type { Context } from '../server/platform/http/context.ts';
import type { Meta } from '../server/platform/http/procedure-meta.ts';

// ---- 1. context ------------------------------------------------------------------------------

// The context (services, headers, the request as sent, the response's headers) is the HTTP boundary's:
// server/platform/http/context.ts builds it for REST, native tRPC and WebSocket calls alike. Each
// procedure declares its Meta (REST path, error conventions, rate-limit rule) for that boundary too.
export type { Context, Meta };

// ---- 2. tRPC ---------------------------------------------------------------------------------

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
