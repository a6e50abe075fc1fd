import type { AnyRouter } from '@trpc/server';
import type { Meta } from '../../../routers/trpc.ts';

/** Procedure path ("resources.employees.create") -> its meta, read once from the router. */
export function procedureMeta(router: AnyRouter): Map<string, Meta> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def.meta ?? {}]));
}
