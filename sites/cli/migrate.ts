import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Document, isMap, isScalar, parseDocument, type Pair, type YAMLMap } from 'yaml';
import { applyAliases, type AliasUse } from '../config/aliases.ts';
import { CONFIG_FILES } from '../config/load.ts';
import { parseSource } from '../config/parse.ts';
import { formatProblem, pathToString, type PathSegment } from '../config/problems.ts';

/**
 * `docs migrate [dir] [--dry-run]`: rewrites a docs.page or Mintlify configuration with this project's key names
 * (the table in sites/config/aliases.ts, the one `docs check` reads them with), printing each change. `docs.json`
 * stays JSON with its indentation; `docs.yaml` stays YAML, comments included (the `yaml` package's Document API).
 * A `mint.json` without `docs.json` is written to `docs.json` (and left as it was). Keys with no equivalent here
 * are removed, each printed with what it did.
 */
export async function runMigrate(dir: string, options: { dryRun: boolean }): Promise<number> {
  const isFile = (name: string) => existsSync(join(dir, name)) && statSync(join(dir, name)).isFile();
  const source = CONFIG_FILES.find(isFile) ?? (isFile('mint.json') ? 'mint.json' : undefined);
  if (source === undefined) {
    console.error(`docs migrate: no ${CONFIG_FILES.join(', ')} or mint.json in ${dir}`);
    return 1;
  }
  const target = source === 'mint.json' ? 'docs.json' : source;
  const json = target === 'docs.json';
  const text = readFileSync(join(dir, source), 'utf8');
  const parsed = parseSource(text, { file: source, format: json ? 'json' : 'yaml' });
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0 || parsed.data === undefined) {
    for (const problem of errors) console.error(formatProblem(problem));
    console.error(`docs migrate: ${source} does not parse; nothing was changed.`);
    return 1;
  }
  if (typeof parsed.data !== 'object' || parsed.data === null || Array.isArray(parsed.data)) {
    console.error(`docs migrate: ${source} is not an object of settings; nothing was changed.`);
    return 1;
  }

  const doc = json ? new Document(parsed.data) : parseDocument(text.replace(/^\uFEFF/, ''));
  const changes = migrateDocument(doc, parsed.data as Record<string, unknown>, dir);
  if (changes.length === 0 && source !== 'mint.json') {
    console.log(`Nothing to migrate: ${source} already uses this project's names.`);
    return 0;
  }
  if (source !== target) console.log(`${source} -> ${target}`);
  for (const change of changes) console.log(change);

  const output = json ? `${JSON.stringify(doc.toJS(), null, jsonIndent(text))}${text.endsWith('\n') ? '\n' : ''}` : doc.toString({ lineWidth: 0 });
  if (options.dryRun) {
    console.log(`\n--dry-run: ${target} was not written.`);
    return 0;
  }
  await writeFile(join(dir, target), output);
  console.log(source === target ? `\nRewrote ${target}.` : `\nWrote ${target} (${source} is left as it was: delete it once \`docs check\` is happy).`);
  return 0;
}

/** The indentation of a JSON text (`  `, four spaces, a tab); two spaces when it has none. */
function jsonIndent(text: string): string | number {
  return /^[[{][ \t]*\r?\n([ \t]+)\S/.exec(text.replace(/^\uFEFF/, ''))?.[1] ?? 2;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function getAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of path) node = isObject(node) ? node[String(segment)] : undefined;
  return node;
}

/** The mapping at `path` of the document (the root for `[]`). */
function mapAt(doc: Document, path: readonly PathSegment[]): YAMLMap | undefined {
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  return isMap(node) ? node : undefined;
}

function pairAt(doc: Document, path: readonly PathSegment[]): Pair | undefined {
  const key = String(path.at(-1));
  return mapAt(doc, path.slice(0, -1))?.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === key);
}

const show = (path: readonly PathSegment[]) => pathToString(path);
const keyOf = (path: readonly PathSegment[]) => JSON.stringify(path);
const startsWith = (path: readonly PathSegment[], prefix: readonly PathSegment[]) => prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
const scalarText = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? ` (${JSON.stringify(value)})` : '');

/** An object holding `value` at `path` (`['a', 'b'], 1` -> `{ a: { b: 1 } }`). */
const nest = (path: readonly PathSegment[], value: unknown): unknown => path.reduceRight<unknown>((inner, segment) => ({ [String(segment)]: inner }), value);

/**
 * Rewrites `doc` (the file as a Document) with our names and returns one line per change, as `docs migrate`
 * prints them:
 * - a vendor key whose replacement lives in the same object is renamed in place (position and comments kept, the
 *   value rewritten when it is written differently here: `social.github: acme` -> `social.codeHost: https://github.com/acme`);
 * - any other is taken out and its value set at ours, placed where the vendor key was (`theme.primary` where
 *   `colors` was, `sidebar` where `navigation` was), its comment moved with it;
 * - keys with no equivalent here, and values our key overrides, are removed; objects left empty go too.
 */
export function migrateDocument(doc: Document, data: Record<string, unknown>, dir?: string): string[] {
  const aliased = applyAliases(data, dir === undefined ? {} : { dir });
  const lines: string[] = [];
  const removals: PathSegment[][] = [];
  const targets: { path: PathSegment[]; from: PathSegment[] }[] = [];
  const line = (text: string, use: AliasUse) => lines.push(text, ...[...new Set(use.notes)].map((note) => `  note: ${note}`));

  // In the order the keys are in the file.
  const order = new Map<string, number>();
  const number = (value: unknown, path: PathSegment[]) => {
    order.set(keyOf(path), order.size);
    if (isObject(value)) for (const [key, child] of Object.entries(value)) number(child, [...path, key]);
  };
  number(data, []);
  const uses = [...aliased.uses].sort((a, b) => (order.get(keyOf(a.from)) ?? 0) - (order.get(keyOf(b.from)) ?? 0));

  const schema = data.$schema;
  if (typeof schema === 'string' && /(^|\/\/|\.)(mintlify\.com|docs\.page)\//.test(schema)) {
    removals.push(['$schema']);
    lines.push(`$schema: removed (it named ${schema.includes('mintlify') ? "Mintlify's" : "docs.page's"} schema)`);
  }
  for (const use of uses) {
    const from = show(use.from);
    const [only, ...more] = use.to;
    const pair = pairAt(doc, use.from);
    if (use.conflict !== undefined) {
      removals.push(use.from);
      line(`${from}: removed (${use.conflict} is set and wins)`, use);
    } else if (use.entry.ours === undefined) {
      removals.push(use.from);
      line(`${from}: removed (${use.entry.vendor}'s setting for ${use.entry.does ?? 'something else'}; ${use.entry.instead ?? 'nothing here does that'})`, use);
    } else if (only && more.length === 0 && pair && isScalar(pair.key) && keyOf(only.slice(0, -1)) === keyOf(use.from.slice(0, -1))) {
      pair.key.value = String(only.at(-1));
      if (use.converted) {
        const value = getAt(aliased.data, only);
        const comment = isScalar(pair.value) ? pair.value.comment : undefined;
        pair.value = doc.createNode(value);
        if (comment && isScalar(pair.value)) pair.value.comment = comment;
        line(show(only) === from ? `${from}: rewritten (${use.entry.does ?? 'written differently'})` : `${from} -> ${show(only)}${scalarText(value)}`, use);
      } else line(`${from} -> ${show(only)}`, use);
    } else if (use.to.length === 0) {
      removals.push(use.from);
      line(`${from}: removed (${use.entry.does ?? 'nothing to carry over'})`, use);
    } else {
      removals.push(use.from);
      for (const path of use.to) if (!targets.some((t) => keyOf(t.path) === keyOf(path))) targets.push({ path, from: use.from });
      const shown = use.to.map(show).join(', ');
      line(shown === from ? `${from}: rewritten (${use.entry.does ?? 'written differently'})` : `${from} -> ${shown}${use.to.length === 1 ? scalarText(getAt(aliased.data, only!)) : ''}`, use);
    }
  }
  // Set each of ours where the vendor key it came from is (the vendor keys go afterwards).
  const inserted = new Map<string, number>();
  const removing = new Set(removals.map(keyOf));
  for (const { path, from } of targets) {
    const value = getAt(aliased.data, path);
    let depth = 0;
    let map = mapAt(doc, []);
    while (map && depth < path.length - 1) {
      const next = pairAt(doc, path.slice(0, depth + 1));
      if (!next) break;
      if (!isMap(next.value)) {
        if (!removing.has(keyOf(path.slice(0, depth + 1)))) break;
        // A vendor value in the way (`theme: mint` where `theme.primary` goes): ours takes its place.
        next.value = doc.createNode({});
        removing.delete(keyOf(path.slice(0, depth + 1)));
        removals.splice(removals.findIndex((r) => keyOf(r) === keyOf(path.slice(0, depth + 1))), 1);
      }
      map = next.value as YAMLMap;
      depth++;
    }
    if (!map) continue;
    const key = String(path[depth]);
    const existing = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
    const node = doc.createNode(nest(path.slice(depth + 1), value));
    if (existing) {
      doc.setIn(path, doc.createNode(value));
      continue;
    }
    const parentPath = path.slice(0, depth);
    const anchor = startsWith(from, parentPath) ? map.items.findIndex((p) => isScalar(p.key) && String(p.key.value) === String(from[depth])) : -1;
    const created = doc.createPair(key, node);
    const comment = pairAt(doc, from)?.key;
    if (isScalar(comment) && comment.commentBefore && isScalar(created.key)) created.key.commentBefore = comment.commentBefore;
    if (anchor < 0) map.items.push(created);
    else {
      const count = inserted.get(keyOf([...parentPath, from[depth]!])) ?? 0;
      map.items.splice(anchor + 1 + count, 0, created);
      inserted.set(keyOf([...parentPath, from[depth]!]), count + 1);
    }
  }

  for (const path of removals) doc.deleteIn(path);
  // Objects emptied by taking keys out of them go (`colors` once `colors.primary` moved); ours with values stay.
  for (const path of removals) {
    for (let n = path.length - 1; n > 0; n--) {
      const map = mapAt(doc, path.slice(0, n));
      if (!map || map.items.length > 0) break;
      doc.deleteIn(path.slice(0, n));
    }
  }
  return lines;
}
