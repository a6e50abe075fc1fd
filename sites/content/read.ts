import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import pLimit from 'p-limit';
import { loadConfig, validateFrontmatter, type LoadedConfig, type ValidatedFrontmatter } from '../config/load.ts';
import type { ConfigLocator } from '../config/semantics.ts';
import { routeOfFile } from '../config/routes.ts';
import type { DocsConfig } from '../config/schema/index.ts';
import { SKIPPED_DIRS, siteLayout, type SiteLayout } from './layout.ts';
import type { Problem, SourcePage } from './types.ts';

/** Page files read at once. */
const READ_CONCURRENCY = 16;

export { SKIPPED_DIRS, siteLayout, type SiteLayout } from './layout.ts';

export interface ReadOptions {
  strict?: boolean;
  /** Absolute folders to leave out (the build's output folder when it is inside the docs folder). */
  ignore?: string[];
  /** Splits and validates a page's frontmatter (default validateFrontmatter; a build's may remember: prepared-pages.ts). */
  frontmatter?: (file: string, source: string) => ValidatedFrontmatter;
}

export interface SiteSource {
  config: DocsConfig;
  pages: SourcePage[];
  problems: Problem[];
  /** The config file read, or null (every default). */
  configFile: string | null;
  locate: ConfigLocator;
  /** Where the pages are (`siteLayout`): page files and routes are relative to `layout.root`. */
  layout: SiteLayout;
}

/**
 * Every file of a docs folder, relative, `/` separators, sorted; node_modules, `.git` and other dot folders and
 * files, and the `ignore` folders are left out.
 */
export async function listFiles(dir: string, ignore: string[] = []): Promise<string[]> {
  const root = resolve(dir);
  const ignored = ignore.map((p) => resolve(p));
  const out: string[] = [];
  const walk = async (folder: string) => {
    if (ignored.some((p) => folder === p)) return;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(path);
      } else if (entry.isFile()) {
        out.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  await walk(root);
  return out.sort();
}

/** A configuration read from the `docs/` folder (`docs-folder` layout) names its file as seen from the folder given. */
function inLayout(loaded: LoadedConfig, layout: SiteLayout): LoadedConfig {
  if (layout.kind !== 'docs-folder') return loaded;
  const named = <T extends { file: string }>(value: T): T => ({ ...value, file: layout.display(value.file) });
  return { ...loaded, file: loaded.file && layout.display(loaded.file), problems: loaded.problems.map(named), locate: (path) => named(loaded.locate(path)) };
}

/**
 * Reads a site: `docs.json`/`docs.yaml` (invalid values fall back to defaults, each a problem) and every
 * `**\/*.mdx` page with its frontmatter validated, from where {@link siteLayout} finds them (the folder, or its
 * `docs/` folder). Routes: the path from there without `.mdx`, `index` names its folder. Two files with one
 * route: the first in path order wins, the other is a problem. Page files are relative to `layout.root`; problems
 * name files as seen from `dir` (`docs/quickstart.mdx`).
 */
export async function readSite(dir: string, options: ReadOptions = {}): Promise<SiteSource> {
  const layout = siteLayout(dir);
  const loaded = inLayout(await loadConfig(layout.dir, { strict: options.strict ?? false }), layout);
  const problems: Problem[] = [...loaded.problems];
  const files = (await listFiles(layout.root, options.ignore)).filter((file) => file.toLowerCase().endsWith('.mdx'));
  const pages: SourcePage[] = [];
  const seen = new Map<string, string>();
  // Read a few at a time (one after another, 1,000 pages took 0.3 s of waiting), then taken in path order.
  const read = pLimit(READ_CONCURRENCY);
  const sources = await Promise.all(files.map((file) => read(() => readFile(join(layout.root, file), 'utf8'))));
  for (const [i, file] of files.entries()) {
    const source = sources[i]!;
    const route = routeOfFile(file);
    const other = seen.get(route);
    if (other !== undefined) {
      problems.push({ severity: 'warning', file: layout.display(file), line: 1, column: 1, path: '', message: `\`${layout.display(other)}\` already has the route \`${route}\`; this file is not built` });
      continue;
    }
    seen.set(route, file);
    const fm = (options.frontmatter ?? validateFrontmatter)(layout.display(file), source);
    problems.push(...fm.problems);
    pages.push({ file, route, frontmatter: fm.data, body: fm.body, bodyLine: fm.bodyLine });
  }
  return { config: loaded.config, pages, problems, configFile: loaded.file, locate: loaded.locate, layout };
}
