import type { z } from 'zod';

/**
 * The one error model. Services throw AppError; the tRPC layer maps `status` to a tRPC code and the
 * REST boundary writes the documented body from `message` and `details`.
 */
export type AppErrorCode =
  | 'INVALID_REQUEST'
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'INTERNAL_ERROR';

const STATUS: Record<AppErrorCode, number> = {
  INVALID_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
};

/** Field path -> what is wrong with it. */
export type FieldProblems = Record<string, string>;

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: AppErrorCode;
  readonly status: number;
  readonly details: FieldProblems | undefined;

  constructor(code: AppErrorCode, message: string, details?: FieldProblems) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
    this.details = details;
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
export const describeProblems = (problems: FieldProblems) =>
  Object.entries(problems)
    .map(([field, problem]) => `${field}: ${problem}`)
    .join('; ');
