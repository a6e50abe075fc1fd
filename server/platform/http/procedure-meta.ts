import type { AnyRouter } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { RateRuleName } from '../../marketplace/rate-limits.ts';
import type { Api } from '../errors.ts';

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
  /** Error statuses the call can answer with, documented in openapi.json. */
  errorStatuses?: number[];
}>;

/** Procedure path ("resources.employees.create") -> its meta, read once from the router. */
export function procedureMeta(router: AnyRouter): Map<string, Meta> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def.meta ?? {}]));
}
