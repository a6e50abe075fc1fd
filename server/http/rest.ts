import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { appRouter } from '../../routers/index.ts';
import { asAppError, statusOf } from '../../routers/middleware/errors.ts';
import type { Meta, Product } from '../../routers/trpc.ts';
import { type AppError, describeProblems } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { bodyProblem, MAX_BODY_BYTES, readJsonBody } from './body.ts';
import { pinBodySchemasToNoCoercion } from './no-coercion.ts';
import { procedureMeta } from './procedure-meta.ts';

/** The body a product documents for an error. */
function errorBody(error: AppError, product: Product, meta: Meta | undefined): object {
  if (product === 'marketplace') {
    return { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  }
  const detail = error.details ? `${error.message}: ${describeProblems(error.details)}` : error.message;
  return { message: meta?.action ? `Error ${meta.action}` : error.message, error: detail };
}

/** Requests under /api belong to the marketplace; everything else to the resource API. */
const productOfUrl = (url: string | undefined): Product => (url?.startsWith('/api/') ? 'marketplace' : 'resources');

/**
 * The REST facade: trpc-to-openapi serves the documented paths; this wraps it so that bodies are read
 * our way and every error leaves as the documented body and status, never the adapter's own shape.
 */
export function createRestHandler(services: Services, log: Logger) {
  const metaByPath = procedureMeta(appRouter);
  pinBodySchemasToNoCoercion(appRouter);
  const failures = new WeakMap<IncomingMessage, { error: TRPCError; path: string | undefined }>();

  // The node-http core (not the standalone wrapper) keeps the IncomingMessage, so it takes `req.body` as read.
  const handler = createOpenApiNodeHttpHandler({
    router: appRouter,
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req }) => {
      const problem = bodyProblem(req);
      if (problem) throw problem;
      return { services, headers: req.headers };
    },
    responseMeta: ({ paths, errors }) => {
      const status = errors.length ? undefined : metaByPath.get(paths?.[0] ?? '')?.successStatus;
      return status ? { status } : {};
    },
    onError: ({ error, path, req }) => failures.set(req, { error, path }),
  });

  return async (req: IncomingMessage, res: ServerResponse) => {
    await readJsonBody(req);
    const end = res.end.bind(res);
    res.end = ((...args: Parameters<ServerResponse['end']>) => {
      const failure = failures.get(req);
      if (!failure) return end(...args);
      const meta = failure.path ? metaByPath.get(failure.path) : undefined;
      const product = meta?.product ?? productOfUrl(req.url);
      const app = asAppError(failure.error);
      if (app.code === 'INTERNAL_ERROR') log.error({ err: failure.error.cause ?? failure.error, path: failure.path }, 'request failed');
      if (app.code === 'PAYLOAD_TOO_LARGE') res.setHeader('Connection', 'close');
      res.statusCode = statusOf(app, product);
      return end(JSON.stringify(errorBody(app, product, meta)));
    }) as ServerResponse['end'];
    await handler(req, res);
  };
}
