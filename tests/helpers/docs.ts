/**
 * Building documentation-site fixtures for tests, once per process per variant, into throwaway folders.
 *
 *   const site = await buildFixture('docs-full', { base: '/acme/widgets' });
 *   const page = site.page('/en/quickstart');      // parsed HTML
 *   page.select('title')?.text                      // 'Quickstart - Acme Docs'
 *
 * Variants: `config` patches docs.json (shallow merge over the fixture's), `files` adds or replaces files;
 * both copy the fixture first. The same `key` returns the same build (default: the options serialised).
 * Browser tests can serve `site.out` with any static server (pages at `<route>/index.html`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { selectAll, select } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import { htmlToHast } from 'satteri';
import { buildSite, type BuildOptions, type BuildResult } from '../../sites/builder/index.ts';
import { devSite } from '../../sites/builder/dev.ts';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export interface FixtureOptions {
  base?: string;
  site?: string;
  context?: BuildOptions['context'];
  /** Shallow-merged over the fixture's docs.json (a copy of the fixture is built). */
  config?: Record<string, unknown>;
  /** Files (path relative to the fixture -> content) added or replaced in the copy. */
  files?: Record<string, string>;
  strict?: boolean;
  /** Parts of the search index (BuildOptions.searchParts). */
  searchParts?: number;
  key?: string;
}

type HastNode = any;

/** One element of a parsed page. */
export interface El {
  node: HastNode;
  /** Text content. */
  text: string;
  /** An attribute as written in HTML (`class`, `aria-label`, `data-zoom`), or undefined. */
  attr(name: string): string | undefined;
  has(name: string): boolean;
  select(selector: string): El | undefined;
  selectAll(selector: string): El[];
}

function wrap(node: HastNode): El {
  return {
    node,
    get text() {
      return toString(node);
    },
    attr(name: string) {
      const properties = node.properties ?? {};
      for (const key of Object.keys(properties)) {
        if (attributeName(key) === name.toLowerCase()) {
          const value = properties[key];
          if (value === undefined || value === null || value === false) return undefined;
          return Array.isArray(value) ? value.join(' ') : value === true ? '' : String(value);
        }
      }
      return undefined;
    },
    has(name: string) {
      return this.attr(name) !== undefined;
    },
    select(selector: string) {
      const found = select(selector, node);
      return found ? wrap(found) : undefined;
    },
    selectAll(selector: string) {
      return selectAll(selector, node).map(wrap);
    },
  };
}

/** hast property names -> HTML attribute names (`className` -> `class`, `ariaLabel` -> `aria-label`). */
function attributeName(property: string): string {
  if (property === 'className') return 'class';
  if (property === 'htmlFor') return 'for';
  if (property === 'httpEquiv') return 'http-equiv';
  if (/^aria[A-Z]/.test(property)) return `aria-${property.slice(4).toLowerCase()}`;
  if (/^data[A-Z]/.test(property)) return property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return property.toLowerCase();
}

export interface Page extends El {
  html: string;
}

export function parseHtml(html: string): Page {
  const root = htmlToHast(html);
  return Object.assign(wrap(root), { html });
}

export interface BuiltSite {
  out: string;
  source: string;
  result: BuildResult;
  /** The built HTML of a route (`/`, `/en/quickstart`), parsed. */
  page(route: string): Page;
  /** A built file's text (`llms.txt`, `en/quickstart.md`). */
  file(path: string): string;
  exists(path: string): boolean;
}

const builds = new Map<string, Promise<BuiltSite>>();
const folders: string[] = [];
process.once('exit', () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

export function htmlPath(route: string): string {
  return route === '/' ? 'index.html' : `${route.replace(/^\/+|\/+$/g, '')}/index.html`;
}

/**
 * Every file of a built site by path, as a hash of its bytes. The search index's own files only with `search`: its
 * page numbers follow the order pages reach it (the build cache's first), so its bytes may differ, not what it finds.
 */
export function siteFiles(out: string, { search = false } = {}): Map<string, string> {
  const names = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(out, name)).isFile() && (search || !name.startsWith('pagefind/')));
  return new Map(names.sort().map((name) => [name, createHash('sha256').update(readFileSync(join(out, name))).digest('hex')]));
}

/** The text Pagefind keeps of each page of a built site (its fragments, in every part of the index), joined. */
export function searchText(out: string): string {
  const fragments = readdirSync(join(out, 'pagefind'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.pf_fragment'));
  return fragments.map((name) => gunzipSync(readFileSync(join(out, 'pagefind', name))).toString('utf8')).join('\n');
}

/** Builds a fixture (or a variant of it) once per process. */
export function buildFixture(name: string, options: FixtureOptions = {}): Promise<BuiltSite> {
  const key = options.key ?? JSON.stringify([name, options]);
  let build = builds.get(key);
  if (!build) {
    build = (async () => {
      const work = mkdtempSync(join(tmpdir(), 'docs-fixture-'));
      folders.push(work);
      let source = join(FIXTURES, name);
      if (options.config || options.files) {
        const copy = join(work, 'source');
        cpSync(source, copy, { recursive: true });
        if (options.config) {
          const file = join(copy, 'docs.json');
          const current = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
          writeFileSync(file, JSON.stringify({ ...current, ...options.config }, null, 2));
        }
        for (const [path, content] of Object.entries(options.files ?? {})) {
          mkdirSync(dirname(join(copy, path)), { recursive: true });
          writeFileSync(join(copy, path), content);
        }
        source = copy;
      }
      const out = join(work, 'out');
      const result = await buildSite({
        source,
        out,
        cacheDir: join(work, 'cache'),
        ...(options.base !== undefined ? { base: options.base } : {}),
        ...(options.site !== undefined ? { site: options.site } : {}),
        ...(options.context !== undefined ? { context: options.context } : {}),
        ...(options.strict !== undefined ? { strict: options.strict } : {}),
        ...(options.searchParts !== undefined ? { searchParts: options.searchParts } : {}),
      });
      const cache = new Map<string, Page>();
      return {
        out,
        source,
        result,
        page(route: string) {
          let page = cache.get(route);
          if (!page) {
            page = parseHtml(readFileSync(join(out, htmlPath(route)), 'utf8'));
            cache.set(route, page);
          }
          return page;
        },
        file(path: string) {
          return readFileSync(join(out, path.replace(/^\/+/, '')), 'utf8');
        },
        exists(path: string) {
          return existsSync(join(out, path.replace(/^\/+/, '')));
        },
      };
    })();
    builds.set(key, build);
  }
  return build;
}

const DOCS_CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'sites', 'cli', 'docs.ts');

/** The `docs` CLI as authors run it: a real process (`node sites/cli/docs.ts ...`), its exit code and output. */
/** The CLI's temp folder in these tests (its default build caches go there): one per test process, removed at exit. */
let cliTemp: string | undefined;

export function runDocsCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!cliTemp) folders.push((cliTemp = mkdtempSync(join(tmpdir(), 'docs-cli-tmp-'))));
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', TMPDIR: cliTemp };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DOCS_CLI, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `docs dev` on `source` (a free port), as an author runs it: Astro leaves its request handler out of dev servers
 * started under Vitest (process.env.VITEST), so the variable is hidden while the server starts. `title(path)`
 * reads a page's <title>.
 */
export async function startDevSite(source: string) {
  const vitest = process.env.VITEST;
  delete process.env.VITEST;
  const server = await devSite({ source, port: 0 }).finally(() => {
    process.env.VITEST = vitest;
  });
  const title = async (path: string) => /<title>(.*?)<\/title>/.exec(await (await fetch(server.url + path)).text())?.[1];
  return Object.assign(server, { title });
}
