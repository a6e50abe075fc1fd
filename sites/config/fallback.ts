import { distance } from 'fastest-levenshtein';
import type { z } from 'zod';
import { pathToString, type PathSegment, type Problem } from './problems.ts';

/**
 * Validation that never fails: each invalid value is removed from the input (the smallest enclosing property or
 * array item that makes it valid) and the input validated again, until it passes. Removed values fall back to
 * their defaults; each removal is a warning with the path, line and column of the value and what happens instead.
 * Unknown keys of strict objects are dropped the same way, with the closest known key as a suggestion.
 */

export interface FallbackSource {
  file: string;
  /** Line and column of the value at a path of the original input. */
  locate(path: readonly PathSegment[]): { line: number; column: number };
  /** How problems name a path of the input (default `pathToString`; another tool's key for a value moved from it). */
  name?(path: readonly PathSegment[]): string;
}

export interface FallbackResult<T> {
  data: T;
  problems: Problem[];
  /** A path into `data` (items dropped, indices shifted) -> the same value's path in the original input. */
  toOriginal(path: readonly PathSegment[]): PathSegment[];
}

const REMOVED = Symbol('removed');
const MAX_ROUNDS = 64;

type Issue = z.core.$ZodIssue;

interface Finding {
  /** Path in the validated (pruned) input. */
  path: PathSegment[];
  message: string;
  suggestion?: string;
  /** A required key is missing: the enclosing object has to go. */
  missing?: string;
}

interface Removal {
  /** Where the problem is, in original coordinates. */
  path: PathSegment[];
  /** What is removed because of it: `path` or an ancestor. */
  target: PathSegment[];
  message: string;
  suggestion?: string;
}

const key = (path: readonly PathSegment[]) => JSON.stringify(path);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (value: unknown, segment: PathSegment): unknown =>
  Array.isArray(value) ? value[segment as number] : isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;

export function validateWithFallback<S extends z.ZodType>(schema: S, input: unknown, source: FallbackSource): FallbackResult<z.output<S>> {
  let raw: unknown = structuredClone(input);
  const removals: Removal[] = [];
  /** Paths removed so far (original coordinates). */
  const removed = new Set<string>();

  const prune = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.filter((v) => v !== REMOVED).map(prune);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== REMOVED).map(([k, v]) => [k, prune(v)]));
    return value;
  };
  /** View path -> original path: array indices skip removed items. */
  const toOriginal = (path: readonly PathSegment[]): PathSegment[] => {
    const out: PathSegment[] = [];
    let node = raw;
    for (const segment of path) {
      if (Array.isArray(node) && typeof segment === 'number') {
        let seen = -1;
        let index = node.length + segment; // past the end when not found
        for (let i = 0; i < node.length; i++) {
          if (node[i] !== REMOVED && ++seen === segment) {
            index = i;
            break;
          }
        }
        out.push(index);
        node = node[index];
      } else {
        out.push(segment);
        node = own(node, segment);
      }
    }
    return out;
  };
  /** Original path -> view path (undefined when it or an ancestor was removed). */
  const toView = (path: readonly PathSegment[]): PathSegment[] | undefined => {
    const out: PathSegment[] = [];
    let node = raw;
    for (const segment of path) {
      if (Array.isArray(node) && typeof segment === 'number') {
        out.push(node.slice(0, segment).filter((v) => v !== REMOVED).length);
      } else out.push(segment);
      node = own(node, segment);
      if (node === REMOVED) return undefined;
    }
    return out;
  };
  const remove = (path: readonly PathSegment[]) => {
    removed.add(key(path));
    if (path.length === 0) {
      raw = {};
      return;
    }
    let parent = raw;
    for (const segment of path.slice(0, -1)) parent = own(parent, segment);
    const last = path.at(-1)!;
    if (Array.isArray(parent) && typeof last === 'number' && last < parent.length) parent[last] = REMOVED;
    else if (isObject(parent) && Object.hasOwn(parent, last)) parent[last] = REMOVED;
  };

  let result = schema.safeParse(prune(raw));
  for (let round = 0; !result.success && round < MAX_ROUNDS; round++) {
    const view = prune(raw);
    const findings = result.error.issues.flatMap((issue) => explain(issue, [], schema, view));
    const targets = new Map<string, PathSegment[]>();
    const missingByObject = new Map<string, { path: PathSegment[]; keys: string[] }>();
    for (const finding of findings) {
      const path = toOriginal(finding.path);
      if (finding.missing !== undefined) {
        const object = path.slice(0, -1);
        if (removed.has(key(path))) {
          // A required value removed in an earlier round: its object goes instead, silently.
          for (const r of removals) if (key(r.target) === key(path)) r.target = object;
          targets.set(key(object), object);
          continue;
        }
        const entry = missingByObject.get(key(object)) ?? { path: object, keys: [] };
        entry.keys.push(finding.missing);
        missingByObject.set(key(object), entry);
        continue;
      }
      removals.push({ path, target: path, message: finding.message, ...(finding.suggestion ? { suggestion: finding.suggestion } : {}) });
      targets.set(key(path), path);
    }
    for (const { path, keys } of missingByObject.values()) {
      const list = keys.map((k) => `\`${k}\``);
      const names = list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
      removals.push({ path, target: path, message: `Missing required ${names}` });
      targets.set(key(path), path);
    }
    if (targets.size === 0) break; // nothing more to remove: give up below
    for (const target of targets.values()) remove(target);
    result = schema.safeParse(prune(raw));
  }

  if (!result.success) {
    // Should not happen with the schemas here; keep building with every default.
    const problem: Problem = { severity: 'error', file: source.file, ...source.locate([]), path: '', message: 'Could not be repaired: every setting has its default' };
    raw = {};
    return { data: schema.parse({}), problems: [problem], toOriginal: (path) => [...path] };
  }

  const data = result.data;
  const problems = dedupe(removals).map((r): Problem => {
    const valueAt = (path: readonly PathSegment[]) => {
      const view = toViewAfter(path);
      let node: unknown = data;
      for (const segment of view ?? []) node = own(node, segment);
      return view ? node : undefined;
    };
    let fallback: string;
    const name = pathToString(r.target);
    const itemDropped = typeof r.target.at(-1) === 'number';
    if (key(r.target) === key(r.path)) {
      const value = valueAt(r.path);
      fallback = itemDropped ? 'the item is dropped' : value === undefined ? 'ignored' : `the default ${formatDefault(value)}is used`;
    } else if (itemDropped) fallback = `so \`${name}\` is dropped`;
    else fallback = valueAt(r.target) === undefined ? `so \`${name}\` is ignored` : `so \`${name}\` falls back to its default`;
    return {
      severity: 'warning',
      file: source.file,
      ...source.locate(r.path),
      path: (source.name ?? pathToString)(r.path),
      message: `${r.message} (${fallback})`,
      ...(r.suggestion ? { suggestion: r.suggestion } : {}),
    };
  });
  return { data, problems, toOriginal };

  /** Where a removed property's default would be: the view path of its parent plus its key. */
  function toViewAfter(path: readonly PathSegment[]): PathSegment[] | undefined {
    if (path.length === 0) return [];
    const parent = toView(path.slice(0, -1));
    return parent && [...parent, path.at(-1)!];
  }
}

const formatDefault = (value: unknown) => (value === null || typeof value !== 'object' ? `\`${JSON.stringify(value)}\` ` : '');

function dedupe(removals: Removal[]): Removal[] {
  const seen = new Set<string>();
  return removals.filter((r) => {
    const k = key(r.path) + r.message;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Issues -> findings with plain messages

interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  getter?: () => Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  options?: Schema[];
}
interface Schema {
  _zod: { def: Def };
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'nonoptional', 'readonly', 'catch']);

function unwrap(schema: Schema | undefined): Schema | undefined {
  for (let s = schema, i = 0; s && i < 32; i++) {
    const def = s._zod.def;
    if (WRAPPERS.has(def.type)) s = def.innerType;
    else if (def.type === 'lazy') s = def.getter?.();
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
  return undefined;
}

/** The union option that fits a value best: its kind matches, and (objects) it knows most of the value's keys. */
function pickOption(options: Schema[], value: unknown): Schema | undefined {
  let best: Schema | undefined;
  let bestScore = -1;
  for (const option of options) {
    const s = unwrap(option);
    const type = s?._zod.def.type;
    let score = -1;
    if (Array.isArray(value)) score = type === 'array' ? 1 : -1;
    else if (isObject(value)) {
      if (type === 'record') score = 0;
      else if (type === 'object') score = 1 + Object.keys(value).filter((k) => Object.hasOwn(s!._zod.def.shape ?? {}, k)).length;
    } else if (typeof value === type) score = 1;
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

/** The schema of the value at `path` (relative to `schema`, whose value is `value`). */
function schemaAt(schema: Schema | undefined, path: readonly PathSegment[], value: unknown): Schema | undefined {
  let s = unwrap(schema);
  let v = value;
  for (const segment of path) {
    if (s?._zod.def.type === 'union') s = pickOption(s._zod.def.options ?? [], v);
    const def = s?._zod.def;
    if (!def) return undefined;
    if (def.type === 'object') s = unwrap(def.shape?.[segment]);
    else if (def.type === 'array') s = unwrap(def.element);
    else if (def.type === 'record') s = unwrap(def.valueType);
    else return undefined;
    v = own(v, segment);
  }
  if (s?._zod.def.type === 'union') return pickOption(s._zod.def.options ?? [], v) ?? s;
  return s;
}

const valueAt = (value: unknown, path: readonly PathSegment[]) => path.reduce<unknown>((node, segment) => own(node, segment), value);

const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);
const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: '`true` or `false`',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  null: '`null`',
};
const expectedName = (expected: string) => EXPECTED[expected] ?? expected;
const orList = (items: string[]) => {
  const unique = [...new Set(items)];
  return unique.length <= 1 ? (unique[0] ?? 'something else') : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
};
const literal = (value: unknown) => `\`${JSON.stringify(value)}\``;
/** zod's own messages start like this; schema-specific ones (`Must be a colour ...`) are kept as they are. */
const isZodDefault = (message: string) => /^(Invalid|Too (small|big)|Unrecognized)/.test(message);

/** What the root issues of a union option expected (`a string`, `false`). */
function expectedOf(issues: readonly Issue[]): string[] {
  return issues.flatMap((issue) =>
    issue.code === 'invalid_type' ? [expectedName(issue.expected)] : issue.code === 'invalid_value' ? issue.values.map(literal) : [],
  );
}

/** Plain findings for one zod issue. `base` is where `schema` (whose value is `value`) sits in the validated input. */
function explain(issue: Issue, base: PathSegment[], schema: Schema | z.ZodType, rootValue: unknown): Finding[] {
  const path = [...base, ...(issue.path as PathSegment[])];
  const value = valueAt(rootValue, path);
  const last = path.at(-1);
  const missing = (): Finding => ({ path, message: '', missing: String(last) });
  switch (issue.code) {
    case 'unrecognized_keys': {
      const object = schemaAt(schema as Schema, issue.path as PathSegment[], valueAt(rootValue, base));
      const known = Object.keys(object?._zod.def.shape ?? {});
      return issue.keys.map((k) => ({ path: [...path, k], message: `Unknown key \`${k}\``, ...suggest(k, known) }));
    }
    case 'invalid_union': {
      if (value === undefined && path.length > 0) return [missing()];
      const fitting = issue.errors.map((errors, index) => ({ errors, index })).filter(({ errors }) => !errors.some((e) => e.path.length === 0 && (e.code === 'invalid_type' || e.code === 'invalid_value')));
      if (fitting.length === 0) return [{ path, message: `Must be ${orList(issue.errors.flatMap(expectedOf))}, not ${typeName(value)}` }];
      const weight = (errors: readonly Issue[]) => errors.reduce((n, e) => n + (e.code === 'unrecognized_keys' ? e.keys.length : 1), 0);
      const best = fitting.reduce((a, b) => (weight(b.errors) < weight(a.errors) ? b : a));
      const union = schemaAtRaw(schema as Schema, issue.path as PathSegment[], valueAt(rootValue, base));
      const option = union?._zod.def.type === 'union' ? unwrap(union._zod.def.options?.[best.index]) : undefined;
      return best.errors.flatMap((e) => explain(e, path, option ?? (schema as Schema), rootValue));
    }
    case 'invalid_type':
      if (value === undefined && path.length > 0) return [missing()];
      return [{ path, message: `Must be ${expectedName(issue.expected)}, not ${typeName(value)}` }];
    case 'invalid_value':
      return [{ path, message: `Must be ${orList(issue.values.map(literal))}` }];
    case 'invalid_format':
      return [{ path, message: isZodDefault(issue.message) ? `Must be a valid ${issue.format}` : issue.message }];
    case 'too_small':
    case 'too_big': {
      if (!isZodDefault(issue.message)) return [{ path, message: issue.message }];
      const small = issue.code === 'too_small';
      const bound = Number(small ? issue.minimum : (issue as { maximum: number | bigint }).maximum);
      const inclusive = issue.inclusive !== false;
      const what =
        issue.origin === 'string' ? ` characters` : issue.origin === 'array' || issue.origin === 'set' ? ` items` : '';
      const word = small ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
      return [{ path, message: `Must be ${what ? `${word} ${bound}${what} long` : `${word} ${bound}`}` }];
    }
    default:
      return [{ path, message: issue.message }];
  }
}

/** Like schemaAt, but does not resolve a union at the end of the path (the caller picks the option). */
function schemaAtRaw(schema: Schema, path: readonly PathSegment[], value: unknown): Schema | undefined {
  if (path.length === 0) return unwrap(schema);
  const parent = schemaAt(schema, path.slice(0, -1), value);
  const def = parent?._zod.def;
  const segment = path.at(-1)!;
  if (def?.type === 'object') return unwrap(def.shape?.[segment]);
  if (def?.type === 'array') return unwrap(def.element);
  if (def?.type === 'record') return unwrap(def.valueType);
  return undefined;
}

/** The closest known key, when it is close enough to be a plausible typo. */
export function suggest(word: string, candidates: readonly string[]): { suggestion?: string } {
  return suggester(candidates)(word);
}

/**
 * {@link suggest} for many words among the same candidates (a site's page routes): they are lower-cased once, and
 * only those whose length is within the typo limit of the word's are compared (a longer or shorter one is more edits
 * away). Checking 10,000 broken redirects against 2,000 pages took ~20 s comparing every one.
 */
export function suggester(candidates: readonly string[]): (word: string) => { suggestion?: string } {
  const byLower = new Map(candidates.map((c) => [c.toLowerCase(), c]));
  const lowers = [...byLower.keys()];
  return (word) => {
    const lower = word.toLowerCase();
    // Typos are an edit or two: none for one letter (`b` is not a typo of `a`), 1 up to 3 letters, 2 up to 8, else 3.
    const limit = lower.length <= 1 ? 0 : lower.length <= 3 ? 1 : lower.length <= 8 ? 2 : 3;
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (const candidate of lowers) {
      if (Math.abs(candidate.length - lower.length) >= bestDistance) continue;
      const d = distance(lower, candidate);
      if (d < bestDistance) [best, bestDistance] = [candidate, d];
    }
    return best === undefined ? {} : { suggestion: byLower.get(best)! };
  };
}
