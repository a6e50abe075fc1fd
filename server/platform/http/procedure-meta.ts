import type { AnyRouter } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { oas31 } from 'zod-openapi';
import type { RateRuleName } from '../../marketplace/rate-limits.ts';
import type { Api, AppErrorCode } from '../errors.ts';

/** Status -> the error codes a call can answer with under it (openapi.json lists them per operation). */
export type ErrorCodes = { readonly [status: number]: readonly AppErrorCode[] };

/** A response header (components/headers) and the answers that carry it. */
export interface ResponseHeader {
  header: oas31.HeaderObject;
  /** Whether an answer carries it (default: every answer), by its status and, for an error, its codes. */
  on?: (status: number, codes: readonly AppErrorCode[]) => boolean;
}

/** What a part of a call adds to its REST operation, documented in openapi.json (server/platform/http/openapi.ts). */
export interface OperationDoc {
  errors?: ErrorCodes;
  /** What its errors mean where that is narrower than the code's general meaning (openapi.ts has those). */
  notes?: ErrorNotes;
  /** The credential it checks, by security scheme name (components/securitySchemes). */
  security?: Record<string, oas31.SecuritySchemeObject>;
  /** Request headers it reads, by parameter name (components/parameters). */
  parameters?: Record<string, oas31.ParameterObject>;
  /** Response headers it sets, by header name (components/headers). */
  headers?: Record<string, ResponseHeader>;
}

/** Error code -> when this part of a call answers it. */
export type ErrorNotes = { readonly [code in AppErrorCode]?: string };

/** `Retry-After`, on the answers that tell a client to wait (429, 503). */
export const RETRY_AFTER: oas31.HeaderObject = {
  description: 'Seconds to wait before trying again',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};

/** The kind of call a middleware runs for: what it adds may depend on it (Idempotency-Key only on mutations). */
export interface CallKind {
  type: 'query' | 'mutation' | 'subscription';
  api: Api;
}

/** What a procedure declares about itself; the REST boundary, openapi.json and the middlewares read it. */
export type Meta = OpenApiMeta<{
  /** Whose error conventions apply (default: the resource API's). */
  api?: Api;
  /** What the call does, named in the resource API's error messages: "creating employee resource". */
  action?: string;
  /** The marketplace's rate-limit rule (default: 120 per minute). */
  rateLimit?: RateRuleName;
  /** Success status on REST (default 200); 204 calls return nothing. */
  successStatus?: 201 | 204;
  /**
   * The errors of the procedure's own work (its service), by status. What its middlewares add (authentication, rate
   * limits, Idempotency-Key, the database), body reading and input validation are documented with them.
   */
  errors?: ErrorCodes;
  /** When the procedure answers its errors, where narrower than each code's general meaning. */
  errorNotes?: ErrorNotes;
  /** A credential the procedure checks itself (the webhook's signature), by security scheme name. */
  security?: OperationDoc['security'];
  /** Request headers the procedure reads itself (the webhook's event), by parameter name. */
  parameters?: OperationDoc['parameters'];
  /** The body of a procedure that reads it raw (the webhook), where its input schema does not describe it. */
  requestBody?: oas31.RequestBodyObject;
  /**
   * An example input (path parameters included: openapi.json shows the body's part) and success response, valid for the
   * procedure's input and output (tests/platform/openapi-document.test.ts checks).
   */
  examples?: { request?: Record<string, unknown>; response?: unknown };
}>;

/** Procedure path ("resources.employees.create") -> its meta, read once from the router. */
export function procedureMeta(router: AnyRouter): Map<string, Meta> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def.meta ?? {}]));
}

type MiddlewareDoc = (call: CallKind) => OperationDoc;
const middlewareDocs = new WeakMap<object, MiddlewareDoc>();

/**
 * Records what a middleware adds to every operation it runs for (its errors, credential, headers), so that each
 * operation's documentation follows from the middlewares it really runs instead of being copied by hand.
 */
export function documented<T extends { _middlewares: readonly object[] }>(middleware: T, doc: OperationDoc | MiddlewareDoc): T {
  for (const fn of middleware._middlewares) middlewareDocs.set(fn, typeof doc === 'function' ? doc : () => doc);
  return middleware;
}

/** What the documented middlewares a procedure runs add to its operation, in the order they run. */
export function middlewareDocsOf(procedure: unknown, call: CallKind): OperationDoc[] {
  const middlewares = (procedure as { _def: { middlewares: readonly object[] } })._def.middlewares;
  return middlewares.flatMap((fn) => middlewareDocs.get(fn)?.(call) ?? []);
}
