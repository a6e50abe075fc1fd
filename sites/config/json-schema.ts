import { z } from 'zod';
import { docsConfigSchema } from './schema/index.ts';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

let base: Record<string, unknown> | undefined;
const byId = new Map<string, string>();

/**
 * The JSON Schema (draft 2020-12) of docs.json / docs.yaml, generated from the same zod schema that validates
 * them (input side: keys with defaults are optional). `$id` is where it is served: `/schema.json` resolved
 * against `baseUrl` when given (the public origin), else the relative `/schema.json`, which a client resolves
 * against the URL it fetched. Computed once.
 */
export function docsJsonSchema(options: { baseUrl?: string } = {}): Record<string, unknown> {
  base ??= z.toJSONSchema(docsConfigSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = base;
  return { $schema: DRAFT_2020_12, $id: options.baseUrl ? new URL('/schema.json', options.baseUrl).href : '/schema.json', ...rest };
}

/** `docsJsonSchema()` serialized, cached per base URL (the server has one). */
export function docsJsonSchemaText(options: { baseUrl?: string } = {}): string {
  const id = options.baseUrl ?? '';
  let text = byId.get(id);
  if (text === undefined) {
    text = JSON.stringify(docsJsonSchema(options));
    byId.set(id, text);
  }
  return text;
}
