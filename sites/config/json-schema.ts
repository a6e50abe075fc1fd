import { z } from 'zod';
import { aliasMessage, splitKey, VENDOR_KEYS, type Shape, type VendorKey } from './aliases.ts';
import { docsConfigSchema } from './schema/index.ts';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

let base: Record<string, unknown> | undefined;
const byId = new Map<string, string>();

/**
 * The JSON Schema (draft 2020-12) of docs.json / docs.yaml, generated from the same zod schema that validates
 * them (input side: keys with defaults are optional), plus docs.page's and Mintlify's names for our keys
 * (`VENDOR_KEYS`), each `deprecated` with a description naming ours, so that editors complete and accept the
 * files those tools use. `$id` is where it is served: `/schema.json` resolved against `baseUrl` when given (the
 * public origin), else the relative `/schema.json`, which a client resolves against the URL it fetched. Computed once.
 */
export function docsJsonSchema(options: { baseUrl?: string } = {}): Record<string, unknown> {
  base ??= withVendorKeys(z.toJSONSchema(docsConfigSchema, { target: 'draft-2020-12', io: 'input' }) as Json);
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

// ---------------------------------------------------------------------------------------------------------
// Vendor keys (sites/config/aliases.ts) in the JSON Schema

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema of a vendor key of this shape, when one of our keys has the same name. */
const SHAPES: Record<Shape, Json> = {
  string: { type: 'string' },
  colour: { type: 'string' },
  notColour: { type: 'string' },
  array: { type: 'array', items: { type: 'object', properties: { source: { type: 'string' }, destination: { type: 'string' }, permanent: { type: 'boolean' } }, required: ['source', 'destination'] } },
  nameUrlItems: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, url: { type: 'string' }, icon: { type: 'string' } }, required: ['name', 'url'] } },
  linkItems: { type: 'array', items: { type: 'object', properties: { icon: { type: 'string' }, title: { type: 'string' }, link: { type: 'string' } }, required: ['link'] } },
  tuples: {
    anyOf: [
      { type: 'array', items: { type: 'array' } },
      { type: 'object', additionalProperties: { type: 'array', items: { type: 'array' } } },
    ],
  },
  styleObject: { type: 'object', additionalProperties: { type: 'string' } },
};

/** Adds every key of `VENDOR_KEYS` where it sits in that tool's file, `deprecated`, described by `aliasMessage`. */
function withVendorKeys(schema: Json): Json {
  const defs = isJson(schema.$defs) ? schema.$defs : {};
  const made = new WeakSet<Json>();
  /** The object schema (with `properties`) of a node: itself, a `$ref`, or an object option of `anyOf`. */
  const objectOf = (node: Json): Json | undefined => {
    if (typeof node.$ref === 'string') {
      const target = defs[node.$ref.replace('#/$defs/', '')];
      return isJson(target) ? objectOf(target) : undefined;
    }
    if (node.type === 'object' && isJson(node.properties)) return node;
    for (const option of Array.isArray(node.anyOf) ? node.anyOf : []) {
      const found = isJson(option) ? objectOf(option) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  const schemaAt = (path: readonly string[]): Json | undefined => {
    let node: Json | undefined = schema;
    for (const segment of path) {
      const properties: unknown = node && objectOf(node)?.properties;
      node = isJson(properties) && isJson(properties[segment]) ? properties[segment] : undefined;
    }
    return node;
  };

  for (const entry of VENDOR_KEYS) {
    const path = splitKey(entry.key);
    let parent = schema;
    for (const segment of path.slice(0, -1)) {
      const object = objectOf(parent);
      if (!object) break;
      const properties = object.properties as Json;
      if (!isJson(properties[segment])) {
        const node: Json = { type: 'object', deprecated: true, description: `${entry.vendor}'s settings: run \`docs migrate\` to rewrite them with this project's names`, properties: {} };
        made.add(node);
        properties[segment] = node;
      }
      parent = properties[segment] as Json;
    }
    const object = objectOf(parent);
    if (!object) continue;
    const properties = object.properties as Json;
    const key = path.at(-1)!;
    const existing = properties[key];
    const description = aliasMessage(entry);
    if (isJson(existing) && made.has(existing)) {
      existing.description = description; // what is left of a vendor object (`integrations` after `integrations.gtm.tagId`)
    } else if (isJson(existing) && entry.when) {
      properties[key] = withAlternative(existing, { ...SHAPES[entry.when], deprecated: true, description });
    } else if (!isJson(existing)) {
      properties[key] = vendorSchema(entry, description, schemaAt);
    }
  }
  return schema;
}

/** A vendor key's own schema: a plain rename takes our key's (without its default); anything else any value. */
function vendorSchema(entry: VendorKey, description: string, schemaAt: (path: readonly string[]) => Json | undefined): Json {
  const renamed = entry.ours !== undefined && !entry.ours.includes(', ') && (entry.convert === undefined || entry.convert === 'hex') ? schemaAt(splitKey(entry.ours)) : undefined;
  if (entry.profile) return { type: 'string', deprecated: true, description };
  if (!renamed) return { deprecated: true, description };
  const { default: _default, description: _ours, ...rest } = structuredClone(renamed);
  if (entry.convert === 'hex') rest.pattern = '^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'; // Mintlify's colours; `#abc` is read as `#aabbcc`
  return { ...rest, deprecated: true, description };
}

/** Our schema or (`anyOf`) another tool's shape of the same key (`theme`: our object, Mintlify's layout name). */
function withAlternative(existing: Json, alternative: Json): Json {
  if (Array.isArray(existing.anyOf)) {
    const same = existing.anyOf.find((option): option is Json => isJson(option) && option.deprecated === true && JSON.stringify({ ...option, description: '' }) === JSON.stringify({ ...alternative, description: '' }));
    if (same) same.description = `${String(same.description)}; ${String(alternative.description)}`;
    else existing.anyOf.push(alternative);
    return existing;
  }
  const { default: defaultValue, description, ...ours } = existing;
  return { ...(defaultValue === undefined ? {} : { default: defaultValue }), ...(description === undefined ? {} : { description }), anyOf: [ours, alternative] };
}
