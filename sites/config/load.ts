import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { aliasProblems, applyAliases } from './aliases.ts';
import { validateWithFallback } from './fallback.ts';
import { applyFrontmatterAliases } from './frontmatter-aliases.ts';
import { pathToString, sortProblems, type PathSegment, type Problem } from './problems.ts';
import { docsConfigSchema, frontmatterSchema, type DocsConfig, type Frontmatter } from './schema/index.ts';
import { checkConfigSemantics, type ConfigLocator } from './semantics.ts';
import { parseSource } from './parse.ts';

export { formatProblem, formatProblems, formatSummary, hasErrors, shouldFail, type Location, type PathSegment, type Problem, type Severity } from './problems.ts';

/** Looked up at the root of a site's folder, in this order; the first one present is used. */
export const CONFIG_FILES = ['docs.json', 'docs.yaml', 'docs.yml'] as const;
/** Mintlify's former configuration file: read (as JSON, with its key names) when none of {@link CONFIG_FILES} is there. */
export const MINT_JSON = 'mint.json';
/**
 * The largest configuration file read (docs/docs-site-config.md): real ones are tens to hundreds of kB. A bigger one
 * is an error and is not read, rather than a build spending minutes on an 11.8 MB file.
 */
export const MAX_CONFIG_BYTES = 2 << 20;

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

export interface LoadedConfig {
  /** The file read (`docs.json`, `docs.yaml`, `docs.yml`), or `null` when there is none (every default). */
  file: string | null;
  config: DocsConfig;
  /**
   * Syntax errors (error), values that fell back to their defaults and unknown keys (warnings), other tools' key
   * names (notes, `info`), and so on.
   */
  problems: Problem[];
  /** Where a path of `config` is in the file (items dropped while loading do not shift it), and its path there. */
  locate: ConfigLocator;
}

export interface LoadOptions {
  /**
   * Loading is the same either way (invalid values fall back to their defaults); with `strict` the caller fails
   * when any problem exists (see `shouldFail`).
   */
  strict?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/** `docs.json` / `docs.yaml` at the root of `dir`, validated; never throws for what the files contain. */
export async function loadConfig(dir: string, options: LoadOptions = {}): Promise<LoadedConfig> {
  return loadConfigSync(dir, options);
}

export function loadConfigSync(dir: string, _options: LoadOptions = {}): LoadedConfig {
  const present = CONFIG_FILES.filter((name) => isFile(join(dir, name)));
  const file = present[0] ?? (isFile(join(dir, MINT_JSON)) ? MINT_JSON : undefined);
  if (file === undefined) {
    return { file: null, config: docsConfigSchema.parse({}), problems: [], locate: (path) => ({ file: 'docs.json', line: 1, column: 1, path: pathToString(path) }) };
  }
  const problems: Problem[] = present.slice(1).map((other) => ({
    severity: 'warning',
    file: other,
    line: 1,
    column: 1,
    path: '',
    message: `Both ${file} and ${other} exist: ${file} is used, ${other} is ignored`,
  }));
  if (file === 'docs.yml') {
    problems.push({ severity: 'warning', file, line: 1, column: 1, path: '', message: 'The configuration file is named docs.yaml (docs.yml is read too): rename it' });
  }

  if (file === MINT_JSON) {
    problems.push({ severity: 'info', file, line: 1, column: 1, path: '', message: '`mint.json` is Mintlify\'s former configuration file: it is read as `docs.json` (run `docs migrate` to write one)' });
  }

  const size = statSync(join(dir, file)).size;
  if (size > MAX_CONFIG_BYTES) {
    const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`;
    problems.push({ severity: 'error', file, line: 1, column: 1, path: '', message: `The file is ${mb(size)}: a configuration file may have at most ${mb(MAX_CONFIG_BYTES)} (not read: every setting has its default)` });
    return { file, config: docsConfigSchema.parse({}), problems, locate: (path) => ({ file, line: 1, column: 1, path: pathToString(path) }) };
  }
  const text = readFileSync(join(dir, file), 'utf8');
  const parsed = parseSource(text, { file, format: file.endsWith('.json') ? 'json' : 'yaml' });
  problems.push(...parsed.problems);
  const at = (path: readonly PathSegment[]) => ({ file, ...parsed.locate(path), path: pathToString(path) });
  const defaults = (): LoadedConfig => ({ file, config: docsConfigSchema.parse({}), problems, locate: at });

  if (parsed.data === undefined) return defaults(); // syntax errors, already reported
  if (parsed.data === null || text.trim() === '') {
    problems.push({ severity: 'warning', ...at([]), message: 'The file is empty: every setting has its default' });
    return defaults();
  }
  if (!isObject(parsed.data)) {
    problems.push({ severity: 'error', ...at([]), message: `Must be an object of settings, not ${typeName(parsed.data)} (every setting has its default)` });
    return defaults();
  }

  // Other tools' names (docs.page, Mintlify) become ours before validation; problems name the key as written.
  const aliased = applyAliases(parsed.data, { dir });
  const validated = validateWithFallback(docsConfigSchema, aliased.data, {
    file,
    locate: (path) => parsed.locate(aliased.origin(path)),
    name: (path) => pathToString(aliased.origin(path)),
  });
  const locate: ConfigLocator = (path) => at(aliased.origin(validated.toOriginal(path)));
  const semantics = checkConfigSemantics(validated.data, locate);
  const notes = aliasProblems(aliased.uses, at);
  return { file, config: semantics.config, problems: sortProblems([...problems, ...notes, ...validated.problems, ...semantics.problems]), locate };
}

export interface ValidatedFrontmatter {
  data: Frontmatter;
  /** The MDX after the frontmatter (the whole source when there is none). */
  body: string;
  /** The line of the MDX file `body` starts on (1 without frontmatter). */
  bodyLine: number;
  /** Lines and columns are the MDX file's. */
  problems: Problem[];
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

/**
 * Splits the `---` YAML frontmatter off an MDX page and validates it like docs.json: invalid values are dropped
 * (each a warning), unknown keys too (with the closest known key), syntax errors are errors and leave `{}`.
 */
export function validateFrontmatter(file: string, source: string): ValidatedFrontmatter {
  const opening = OPENING.exec(source);
  if (!opening) return { data: {}, body: source, bodyLine: 1, problems: [] };
  const rest = source.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) {
    const problem: Problem = { severity: 'error', file, line: 1, column: 1, path: '', message: 'The frontmatter opened by `---` is never closed by another `---` line (no frontmatter is read)' };
    return { data: {}, body: source, bodyLine: 1, problems: [problem] };
  }
  const yaml = rest.slice(0, closing.index);
  const bodyOffset = opening[0].length + closing.index + closing[0].length;
  const bodyLine = source.slice(0, bodyOffset).split('\n').length;
  const body = source.slice(bodyOffset);

  const parsed = parseSource(yaml, { file, format: 'yaml', lineOffset: 1 });
  const problems = [...parsed.problems];
  if (parsed.data === undefined || parsed.data === null) return { data: {}, body, bodyLine, problems };
  if (!isObject(parsed.data)) {
    problems.push({ severity: 'error', file, line: 2, column: 1, path: '', message: `Frontmatter must be keys and values, not ${typeName(parsed.data)} (ignored)` });
    return { data: {}, body, bodyLine, problems };
  }
  const vendor = applyFrontmatterAliases(parsed.data);
  for (const note of vendor.notes) problems.push({ severity: 'info', file, ...parsed.locate([note.key]), path: note.key, message: note.message });
  const validated = validateWithFallback(frontmatterSchema, vendor.data, { file, locate: parsed.locate });
  return { data: validated.data, body, bodyLine, problems: sortProblems([...problems, ...validated.problems]) };
}
