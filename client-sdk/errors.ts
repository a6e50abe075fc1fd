import { TRPCClientError } from '@trpc/client';

/** A failed call: the HTTP status, the server's error code and, for validation errors, each bad field. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, string> | undefined;

  constructor(message: string, status: number, code: string, details?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

interface ServerErrorData {
  httpStatus?: number;
  code?: string;
  appCode?: string | null;
  details?: Record<string, string> | null;
}

/** Runs a tRPC call and turns its failures into ApiError. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const data = (error.data ?? {}) as ServerErrorData;
    throw new ApiError(
      error.message,
      data.httpStatus ?? 0,
      data.appCode ?? data.code ?? 'NETWORK_ERROR',
      data.details ?? undefined,
    );
  }
}
