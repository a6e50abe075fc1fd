import type { IncomingMessage } from 'node:http';
import type { Context, ResponseHeaders } from '../../../routers/trpc.ts';
import type { Services } from '../../services.ts';
import { rawBody } from './body.ts';

const originalUrls = new WeakMap<IncomingMessage, string>();

/** Remembers the request target as the client sent it, before any rewriting (signatures cover it). */
export function keepOriginalUrl(req: IncomingMessage) {
  if (!originalUrls.has(req)) originalUrls.set(req, req.url ?? '/');
}

/** The context of one call, the same for REST and native tRPC. */
export function requestContext(services: Services, req: IncomingMessage, res: ResponseHeaders): Context {
  return {
    services,
    headers: req.headers,
    method: req.method ?? 'GET',
    url: originalUrls.get(req) ?? req.url ?? '/',
    ip: req.socket.remoteAddress ?? 'unknown',
    rawBody: rawBody(req),
    res,
  };
}
