import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Services } from '../../services.ts';
import { rawBody, receivedBody } from './body.ts';
import { clientAddress } from './client-address.ts';

/** What calls may do to their HTTP response. */
export interface ResponseHeaders {
  readonly headersSent: boolean;
  setHeader(name: string, value: number | string): unknown;
}

/** What every procedure gets, whichever way it is called (REST, native tRPC, WebSocket). */
export interface Context {
  services: Services;
  headers: IncomingHttpHeaders;
  /** The request as the client sent it (wallet signatures cover method and URL). */
  method: string;
  url: string;
  /** Client address, the rate-limit key of unauthenticated calls. */
  ip: string;
  /** The Host header (a v2 wallet signature names this deployment's host). */
  host?: string | undefined;
  /** The request body as received (REST calls with a body; webhook signatures cover it). */
  rawBody?: string | undefined;
  /** The body's bytes as received (REST and native tRPC calls with a body; X-Body-SHA256 covers them). */
  body?: Uint8Array | undefined;
  /** For response headers (rate limits). */
  res: ResponseHeaders;
  /**
   * A WebSocket connection's calls share one proof of its wallet (its `connectionParams`), made by its first call with
   * the signature used up: no second connection opens with the same signature (docs/events.md).
   */
  proveConnection?: <T>(prove: () => Promise<T>) => Promise<T>;
}

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
    ip: clientAddress(req),
    host: req.headers.host,
    rawBody: rawBody(req),
    body: receivedBody(req),
    res,
  };
}
