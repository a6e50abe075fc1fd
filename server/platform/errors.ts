import { ConnectionException } from '@mikro-orm/core';
import type { TRPCError } from '@trpc/server';
import type { z } from 'zod';

/**
 * The one error model. Services throw AppError; the tRPC layer maps the status to a tRPC code and the
 * REST boundary writes each API's documented body: the resource API's `{ message, error }`, the
 * marketplace's `{ error: code, message, details? }`.
 */
const STATUS = {
  // shared
  INVALID_REQUEST: 400,
  VALIDATION_ERROR: 400, // the marketplace answers 422 (see statusFor)
  PAYLOAD_TOO_LARGE: 413,
  NOT_FOUND: 404,
  INTERNAL_ERROR: 500,
  // resource API
  UNAUTHORIZED: 401,
  CONFLICT: 409,
  // marketplace (docs/marketplace.md "Errors")
  INVALID_PAYMENT_HEADER: 400,
  INVALID_SIGNATURE: 401,
  UNAUTHORIZED_ACCESS: 403,
  AGENT_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  DUPLICATE_REGISTRATION: 409,
  INVALID_STATUS_TRANSITION: 409,
  DUPLICATE_REVIEW: 409,
  IDEMPOTENCY_CONFLICT: 409,
  AMOUNT_MISMATCH: 422,
  AGENT_TOKEN_ACCOUNT_MISSING: 422,
  INSUFFICIENT_FUNDS: 422,
  TRANSACTION_FAILED: 422,
  RATE_LIMIT_EXCEEDED: 429,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof STATUS;

/** Which API's error conventions apply: the resource API's, or the `{ error, message, details }` of `/api` (marketplace, docs hosting). */
export type Api = 'resources' | 'marketplace' | 'docs';

/** Field path -> what is wrong with it. */
export type FieldProblems = Record<string, string>;

/**
 * The HTTP status of a code in an API: the marketplace answers validation errors with 422 (the resource API with
 * 400), and an unreachable database with 503 (the resource API documents 500 for every failure).
 */
export function statusOf(code: AppErrorCode, api: Api): number {
  if (code === 'VALIDATION_ERROR' && api !== 'resources') return 422;
  if (code === 'SERVICE_UNAVAILABLE' && api === 'resources') return 500;
  return STATUS[code];
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Overrides the code's usual status: TRANSACTION_FAILED is 503 when the chain cannot be reached. */
  readonly status: number | undefined;

  constructor(code: AppErrorCode, message: string, details?: Record<string, unknown>, status?: 503) {
    super(message);
    this.code = code;
    this.details = details;
    this.status = status;
  }

  /** The HTTP status for an API: `statusOf` its code, unless this error overrides it. */
  statusFor(api: Api): number {
    return this.status ?? statusOf(this.code, api);
  }
}

export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);

/** Flattens zod issues into `{ "path.to.field": "problem" }` (first problem per field). */
export function fieldProblems(issues: readonly z.core.$ZodIssue[]): FieldProblems {
  // No prototype: a field named "constructor" or "__proto__" is reported like any other.
  const out: FieldProblems = Object.create(null);
  const at = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '(body)');
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out[at([...issue.path, key])] ??= 'Unknown field';
    } else {
      out[at(issue.path)] ??= issue.message;
    }
  }
  return out;
}

/** `"email: Invalid email address; timezone: Unknown time zone"` */
export const describeProblems = (problems: Record<string, unknown>) =>
  Object.entries(problems)
    .map(([field, problem]) => `${field}: ${String(problem)}`)
    .join('; ');

/** Connection refused or lost, server shutting down, database gone: PostgreSQL codes 08xxx, 57P0x, 3D000. */
const UNAVAILABLE = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|08\d{3}|57P0[1-3]|3D000)$/;

/** What PGlite (and MikroORM's driver over it) throws once the embedded database is closed: the server is shutting down. */
const PGLITE_CLOSED = /^PGlite (instance )?is (already )?closed/;

/** Whether a failure is the database being unreachable (an outage to wait out: 503, not a bug: 500). */
export function databaseUnavailable(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof ConnectionException || PGLITE_CLOSED.test(e.message)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE.test(code)) return true;
  }
  return false;
}

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
