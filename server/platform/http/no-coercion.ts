import type { AnyRouter } from '@trpc/server';
import type { Meta } from './procedure-meta.ts';

type Def = { type?: string; coerce?: boolean; [key: string]: unknown };
const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);

/**
 * trpc-to-openapi switches zod coercion on (`def.coerce = true`) in every REST input schema, meant for
 * query strings. JSON bodies carry real types, and coercion there would accept `"yes"` as true and
 * `null` as false, so the coercible schemas reachable from body inputs are pinned to no coercion.
 */
export function pinBodySchemasToNoCoercion(router: AnyRouter) {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta; inputs: { _zod?: { def: Def } }[] } }>;
  for (const { _def } of Object.values(procedures)) {
    const method = _def.meta?.openapi?.method;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      for (const input of _def.inputs) pin(input._zod?.def, new Set());
    }
  }
}

function pin(def: Def | undefined, seen: Set<Def>) {
  if (!def || seen.has(def)) return;
  seen.add(def);
  if (def.type && COERCIBLE.has(def.type)) {
    if (Object.getOwnPropertyDescriptor(def, 'coerce')?.configurable === false) return; // pinned by an earlier server
    Object.defineProperty(def, 'coerce', { get: () => false, set: () => {}, configurable: false });
    return;
  }
  // Walk every nested schema: object shapes, wrappers (optional, nullable, default, pipe...), arrays, unions.
  for (const value of Object.values(def)) {
    for (const child of Array.isArray(value) ? value : value && typeof value === 'object' ? [value, ...Object.values(value)] : []) {
      const nested = (child as { _zod?: { def: Def } })?._zod?.def;
      if (nested) pin(nested, seen);
    }
  }
}
