import type { IncomingMessage, ServerResponse } from 'node:http';

/** Origins whose pages may call the API from a browser: `*` (any) or an allow-list of `scheme://host[:port]`. */
export type CorsOrigins = '*' | readonly string[];

/**
 * The request headers API clients send beyond the CORS-safelisted ones: the resource and docs-hosting APIs'
 * `Authorization: Bearer <API key>`, JSON bodies, the marketplace's wallet signature
 * (server/marketplace/wallet-signature.ts `WALLET_HEADERS`, client-sdk/wallet.ts) and `Idempotency-Key`.
 */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Wallet-Address', 'X-Signature', 'X-Timestamp', 'X-Body-SHA256'] as const;

/** Response headers clients must be able to read: rate limits, when to retry, whether a POST was a replay. */
export const CORS_EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed'] as const;

/** The methods of the REST paths (openapi.json) and of tRPC (GET queries, POST mutations). */
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** How long a browser may reuse a preflight's answer: 2 hours, Chromium's ceiling. */
export const CORS_MAX_AGE_SECONDS = 7200;

/**
 * Cross-origin access to the API (REST and tRPC) for browser apps. Every call is authenticated by headers
 * (API keys, wallet signatures), never by cookies, so credentials are never allowed and `*` is safe as the default.
 * Returns a function that answers a preflight (`OPTIONS` with `Access-Control-Request-Method`: 204, true) or puts the
 * CORS headers on the answer to come, errors and 429s included (false: the caller answers the request).
 * An origin outside the allow-list gets no `Access-Control-*` header: the browser keeps the answer from the page.
 */
export function createCors(origins: CorsOrigins = '*') {
  const allowed = origins === '*' ? undefined : new Set(origins);
  const allowedHeaders = CORS_ALLOWED_HEADERS.join(', ');
  const exposedHeaders = CORS_EXPOSED_HEADERS.join(', ');
  const allowedMethods = CORS_ALLOWED_METHODS.join(', ');

  /** The Access-Control-Allow-Origin value for this request, or undefined when its origin may not read answers. */
  const allowOrigin = (origin: string | undefined): string | undefined => {
    if (!allowed) return '*';
    return origin !== undefined && allowed.has(origin) ? origin : undefined;
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const { origin } = req.headers;
    // With an allow-list the answer depends on Origin: caches must keep one per origin.
    if (allowed) varyOnOrigin(res);
    const allow = allowOrigin(origin);
    if (req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(
        204,
        allow
          ? {
              'Access-Control-Allow-Origin': allow,
              'Access-Control-Allow-Methods': allowedMethods,
              'Access-Control-Allow-Headers': allowedHeaders,
              'Access-Control-Max-Age': CORS_MAX_AGE_SECONDS,
            }
          : {},
      );
      res.end();
      return true;
    }
    if (allow) {
      res.setHeader('Access-Control-Allow-Origin', allow);
      res.setHeader('Access-Control-Expose-Headers', exposedHeaders);
    }
    return false;
  };
}

/**
 * Adds `Origin` to the answer's Vary header when its head is written, after the handler has set its own (tRPC sets
 * `Vary: trpc-accept, accept`, replacing whatever was there).
 */
function varyOnOrigin(res: ServerResponse) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const last = args.at(-1);
    const given = last && typeof last === 'object' && !Array.isArray(last) ? (last as Record<string, unknown>) : undefined;
    const key = given && Object.keys(given).find((name) => name.toLowerCase() === 'vary');
    const vary = String((key ? given[key] : res.getHeader('Vary')) ?? '');
    if (!/(?:^|,)\s*(?:origin|\*)\s*(?:,|$)/i.test(vary)) {
      const value = vary ? `${vary}, Origin` : 'Origin';
      if (key) given[key] = value;
      else res.setHeader('Vary', value);
    }
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
}
