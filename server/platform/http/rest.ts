import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { AnyRouter } from '@trpc/server';
import { countCall, ipKey } from '../../marketplace/rate-limits.ts';
import { type Api, type AppError, asAppError, describeProblems } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../../services.ts';
import { bodyProblem, MAX_BODY_BYTES, readJsonBody } from './body.ts';
import { pinBodySchemasToNoCoercion } from './no-coercion.ts';
import { procedureMeta, type Meta } from './procedure-meta.ts';
import { keepOriginalUrl, requestContext } from './context.ts';
import { clientAddress } from './client-address.ts';
import { decodeEscapes, SAME_ESCAPED } from '../../../client-sdk/signed-url.ts';

/**
 * Each API's documented error body. Resource API: `message` names the failed action, `error` says what
 * went wrong. Marketplace: `{ error: CODE, message, details? }`.
 */
function errorBody(error: AppError, api: Api, meta: Meta | undefined): object {
  if (api !== 'resources') {
    return { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  }
  const detail = error.details ? `${error.message}: ${describeProblems(error.details)}` : error.message;
  return { message: meta?.action ? `Error ${meta.action}` : error.message, error: detail };
}

/**
 * The query string as the adapter expects it (name -> values), on an object without a prototype: its
 * own parser crashed on `?__proto__=` (Object.prototype has no `push`).
 */
function parseQuery(url: string): Record<string, string[]> {
  const query: Record<string, string[]> = Object.create(null);
  for (const [name, value] of new URL(url, 'http://localhost').searchParams) (query[name] ??= []).push(value);
  return query;
}

/** Calls the router does not know are answered in the conventions of the API their path belongs to. */
const apiOfPath = (url: string | undefined): Api => (url?.startsWith('/api/') || url === '/api' ? 'marketplace' : 'resources');

/**
 * Percent-escapes of characters that need none in a path (`emp%2D1`, `a%40b`) are decoded, as RFC 3986
 * makes them equivalent; the adapter does not decode path parameters itself. The same set as a signed URL's
 * canonical path (client-sdk/signed-url.ts), so a signature of that form names the route it reaches.
 */
const unescapePath = (url: string) => {
  const query = url.indexOf('?');
  const decoded = decodeEscapes(query < 0 ? url : url.slice(0, query), SAME_ESCAPED.path);
  return query < 0 ? decoded : decoded + url.slice(query);
};

/**
 * The REST facade: trpc-to-openapi serves the documented paths; this wraps it so that bodies are read
 * our way and every error leaves as the documented body and status, never the adapter's own shape.
 */
export function createRestHandler(router: AnyRouter, services: Services, log: Logger) {
  const metaByPath = procedureMeta(router);
  pinBodySchemasToNoCoercion(router);
  const failures = new WeakMap<IncomingMessage, { error: TRPCError; path: string | undefined }>();

  // The node-http core (not the standalone wrapper) keeps the IncomingMessage, so it takes `req.body` as read.
  const handler = createOpenApiNodeHttpHandler({
    router,
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req, res }) => {
      const problem = bodyProblem(req);
      if (problem) throw problem;
      return requestContext(services, req, res);
    },
    responseMeta: ({ paths, errors }) => {
      const status = errors.length ? undefined : metaByPath.get(paths?.[0] ?? '')?.successStatus;
      return status ? { status } : {};
    },
    onError: ({ error, path, req }) => failures.set(req, { error, path }),
  });

  return async (req: IncomingMessage, res: ServerResponse) => {
    keepOriginalUrl(req);
    req.url = unescapePath(req.url ?? '/');
    (req as IncomingMessage & { query?: unknown }).query = parseQuery(req.url);
    await readJsonBody(req);
    // readJsonBody has decided about the body: none (no content type needed), a JSON object, or a problem raised in
    // the context with the call's action in its message. The adapter's own content-type check (case-sensitive, and
    // refusing a bodiless POST without one) must not decide again.
    req.headers['content-type'] = 'application/json';
    const end = res.end.bind(res);
    res.end = ((...args: Parameters<ServerResponse['end']>) => {
      const failure = failures.get(req);
      if (!failure) return end(...args);
      const meta = failure.path ? metaByPath.get(failure.path) : undefined;
      const app = asAppError(failure.error);
      const api = meta?.api ?? apiOfPath(req.url);
      if (app.code === 'INTERNAL_ERROR') log.error({ err: failure.error.cause ?? failure.error, path: failure.path }, 'request failed');
      if (app.code === 'PAYLOAD_TOO_LARGE') res.setHeader('Connection', 'close');
      res.statusCode = app.statusFor(api);
      const body = JSON.stringify(errorBody(app, api, meta));
      if (api === 'resources' || res.hasHeader('X-RateLimit-Limit')) return end(body);
      // A marketplace call refused before its procedure ran (bad JSON, unknown route) is still counted,
      // per client IP, and still carries X-RateLimit headers, as every marketplace answer does.
      countCall(services.rateLimiter, res, meta?.rateLimit, ipKey(clientAddress(req))).then(
        () => end(body),
        (err: unknown) => (log.error({ err }, 'rate limiting failed'), end(body)),
      );
      return res;
    }) as ServerResponse['end'];
    await handler(req, res);
  };
}
