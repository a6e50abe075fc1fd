import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import mdx from '@astrojs/mdx';
import { build as astroBuild, type AstroInlineConfig } from 'astro';
import { shouldFail } from '../config/problems.ts';
import { preparePage } from '../content/mdx.ts';
import { readSite } from '../content/read.ts';
import type { SanitizeOptions } from '../content/sanitize.ts';
import type { Problem, SourcePage } from '../content/types.ts';
import type { RenderContext, SiteData } from '../src/lib/types.ts';
import { checkSite, type CheckOptions } from '../check/index.ts';
import type { ConfigLocator } from '../config/semantics.ts';
import { copyAssets } from './assets.ts';
import { writeOutputs } from './outputs.ts';
import { SearchIndex } from './search-index.ts';
import { socialCards, writeSocialImages, type SocialCard } from './social-images.ts';
import { docsIntegration, type SiteState } from './integration.ts';
import { markdownConfig } from './markdown/index.ts';
import { buildSiteData, normalizeBase } from './site-data.ts';
import { ComponentStyles } from './component-styles.ts';
import { applyContentSecurityPolicy, newOwnScriptMark } from './csp.ts';
import { BuildCache, pageOutputs, privateDirectory, rendererFingerprint, type PageOutput } from './build-cache.ts';

export type { Problem } from '../content/types.ts';
export type { RenderContext } from '../src/lib/types.ts';

/** The Astro project (this folder's parent). */
export const SITES_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

export interface BuildProgress {
  phase: string;
  done?: number;
  total?: number;
  message?: string;
}

export interface BuildOptions {
  /** The docs folder (docs.json/docs.yaml and MDX pages), anywhere on disk. */
  source: string;
  /** Output folder (emptied first). */
  out: string;
  /** Fail (throw {@link BuildError}, nothing written) on any problem, warnings included. */
  strict?: boolean;
  /**
   * Fail on errors (a config file that does not parse, broken frontmatter, a page that is not MDX): the CLI's
   * `build` and hosting, which keeps serving the last good build. Without it, and without `strict`, problems never
   * stop a build: invalid values fall back to their defaults and a page that does not parse shows a notice.
   */
  failOnErrors?: boolean;
  /** URL base path (`/owner/repo`, `/owner/repo~branch`); default `/`. */
  base?: string;
  /** Absolute origin for canonical links, the sitemap and social images (`https://docs.example.com`). */
  site?: string;
  context?: Partial<RenderContext>;
  onProgress?: (event: BuildProgress) => void;
  /** Where Astro and Vite cache between builds of this source; default a folder per source under the OS temp dir. */
  cacheDir?: string;
  /**
   * The build cache (rendered pages, link-check facts: build-cache.ts): a later build renders only the pages whose
   * inputs changed. Default `<cacheDir>/pages`; a host keeps one per repository while each build's `cacheDir` goes.
   */
  pageCacheDir?: string;
  /** Use and update the page cache (default true); false renders every page (`docs build --no-cache`). */
  cache?: boolean;
  /**
   * Hard-link the cache's pages into `out` instead of copying them (default false): for an output folder nothing
   * edits in place afterwards (a hosted build's, stored then removed), or an edit would reach the cache.
   */
  linkFromCache?: boolean;
  /** Pages per Astro build (default {@link RENDER_BATCH}). */
  renderBatch?: number;
  /**
   * Draw the generated social images into `out` (default true), as the last phase. False: only describe them
   * (`BuildResult.socialCards`): a host draws each when it is first asked for, and the build is not held up.
   */
  drawSocialImages?: boolean;
}

export interface BuildResult {
  pages: number;
  problems: Problem[];
  durationMs: number;
  /** What the pages were rendered from (titles, routes, redirects, the validated config). */
  data: SiteData;
  /** The generated social images the pages name (drawn into `out` unless `drawSocialImages` was false). */
  socialCards: SocialCard[];
  /** HTML files rendered by this build and taken from the build cache. */
  rendered: number;
  cached: number;
}

/** A build that did not produce a site: its problems say why. */
export class BuildError extends Error {
  readonly problems: Problem[];
  constructor(message: string, problems: Problem[]) {
    super(message);
    this.name = 'BuildError';
    this.problems = problems;
  }
}

/**
 * Pages per Astro build: a larger site is rendered by several in a row, each into the output folder, so the
 * memory a build holds does not grow with the site (1,000 pages: 1.3 GB peak in batches of 500, 1.7 GB in one).
 */
export const RENDER_BATCH = 500;

export const DEFAULT_CONTEXT: RenderContext = { published: false, defaultBranch: false, customDomain: false };

/** A cache folder per docs folder: Astro reuses cached content by page id otherwise. */
export function defaultCacheDir(source: string): string {
  return join(tmpdir(), 'docs-sites-cache', createHash('sha256').update(resolve(source)).digest('hex').slice(0, 16));
}

export interface PreparedSite {
  state: SiteState;
  locate: ConfigLocator;
  pages: SourcePage[];
  problems: Problem[];
  markdown: Map<string, string>;
}

/** Reads and prepares a site (config, pages, sanitised MDX, Markdown) without building it. */
export async function prepareSite(options: {
  source: string;
  out?: string;
  base?: string;
  site?: string;
  context?: Partial<RenderContext>;
  strict?: boolean;
  /** checkSite's per-page facts (a build cache's). */
  facts?: CheckOptions['facts'];
}): Promise<PreparedSite> {
  const base = normalizeBase(options.base);
  const context: RenderContext = { ...DEFAULT_CONTEXT, ...options.context };
  const source = await readSite(resolve(options.source), { strict: options.strict ?? false, ignore: options.out ? [resolve(options.out)] : [] });
  // Pages and assets are read from the layout's root (the folder, or its docs/ folder: content/layout.ts).
  const { layout } = source;
  const sourceDir = layout.root;
  const problems = [...source.problems, ...checkSite(layout.dir, { config: source.config, pages: source.pages, locate: source.locate, layout, facts: options.facts })];
  const sanitize: SanitizeOptions = { base, zoomImages: source.config.content.zoomImages, sourceDir };
  const prepared = new Map<string, string>();
  const markdown = new Map<string, string>();
  const ok = new Map<string, boolean>();
  const zoom = new Map<string, boolean>();
  const firstHeadings = new Map<string, string>();
  for (const page of source.pages) {
    const result = preparePage(page, source.config.variables, sanitize);
    prepared.set(join(sourceDir, page.file), result.code);
    markdown.set(page.route, result.markdown);
    ok.set(page.route, result.ok);
    zoom.set(page.route, /data-zoom/.test(result.code) || (sanitize.zoomImages && /!\[|<img\b/i.test(result.code)));
    problems.push(...result.problems.map((problem) => ({ ...problem, file: layout.display(problem.file) })));
    const h1 = /^#[ \t]+(.+?)[ \t#]*$/m.exec(result.markdown.split(/^(?:```|~~~)/m, 1)[0] ?? '')?.[1];
    if (h1) firstHeadings.set(page.route, h1);
  }
  const data = buildSiteData({ config: source.config, pages: source.pages, ok, zoom, firstHeadings, base, site: options.site, context });
  return { state: { sourceDir, data, prepared, sanitize }, locate: source.locate, pages: source.pages, problems, markdown };
}

/** The Astro configuration of one site: the project in SITES_DIR, the site's data through the integration. */
export function astroConfig(state: SiteState, options: { out: string; cacheDir: string; mode: 'build' | 'dev'; serverDir?: string }): AstroInlineConfig {
  return {
    root: SITES_DIR,
    configFile: false,
    srcDir: join(SITES_DIR, 'src'),
    publicDir: join(SITES_DIR, 'public'),
    outDir: options.out,
    cacheDir: options.cacheDir,
    base: state.data.base || '/',
    ...(state.data.site ? { site: state.data.site } : {}),
    output: 'static',
    trailingSlash: 'ignore',
    logLevel: options.mode === 'dev' ? 'warn' : 'error',
    devToolbar: { enabled: false },
    build: { format: 'directory', ...(options.serverDir ? { server: options.serverDir } : {}) },
    image: { service: { entrypoint: 'astro/assets/services/noop' } },
    markdown: markdownConfig(),
    integrations: [mdx(), docsIntegration(state, { isolateServerBuild: options.serverDir !== undefined })],
    vite: {
      logLevel: options.mode === 'dev' ? 'warn' : 'error',
      cacheDir: join(options.cacheDir, 'vite'),
      // Components' scripts as files, never inlined: the Content-Security-Policy allows the site's own files and
      // only the layout's marked inline scripts (csp.ts).
      // The output folder is emptied by buildSite, which puts the build cache's pages there before Astro runs.
      build: { assetsInlineLimit: 0, emptyOutDir: false },
      server: { fs: { allow: [SITES_DIR, state.sourceDir] } },
    },
  };
}

/**
 * Builds one documentation site into `out`: Astro (static pages), then the Pagefind index, the agent outputs
 * (llms.txt, llms-full.txt, `<page>.md`), sitemap.xml, robots.txt, `_redirects.json`, the docs folder's assets and,
 * unless `drawSocialImages` is false, the social images.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const out = resolve(options.out);
  progress({ phase: 'read' });
  const source = resolve(options.source);
  const cacheDir = options.cacheDir ?? defaultCacheDir(source);
  const fingerprint = await rendererFingerprint(SITES_DIR);
  const cache = options.cache === false ? undefined : await BuildCache.open(options.pageCacheDir ?? join(cacheDir, 'pages'), fingerprint).catch((error: Error) => void progress({ phase: 'cache', message: error.message }));
  const site = await prepareSite({ ...options, out, facts: cache?.facts });
  if (site.pages.length === 0) {
    throw new BuildError(`No pages in ${site.state.sourceDir}: a site is a docs.json (or docs.yaml) and .mdx or .md pages beside it`, site.problems);
  }
  if ((options.strict || options.failOnErrors) && shouldFail(site.problems, { strict: options.strict ?? false })) {
    const what = options.strict ? `${site.problems.filter((p) => p.severity !== 'info').length} problem(s) and the build is strict` : 'errors';
    throw new BuildError(`The site has ${what}`, site.problems);
  }
  const { state } = site;
  const outputs = pageOutputs(fingerprint, state.data, (file) => state.prepared.get(join(state.sourceDir, file)));
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const { rendered, searched } = await writePages(state, outputs, cache, { out, cacheDir, progress, renderBatch: options.renderBatch ?? RENDER_BATCH, link: options.linkFromCache ?? false });
  // The outputs are written while Pagefind finishes its index in its own process. (The social images come after:
  // drawn meanwhile, they would hide the index's time in theirs, which the bench subtracts.)
  let cards: SocialCard[];
  try {
    progress({ phase: 'outputs' });
    await writeOutputs(out, state.data, site.markdown);
    await copyAssets(state.sourceDir, out, [out, cacheDir]);
    cards = await socialCards(state.data, state.sourceDir);
  } catch (error) {
    await searched.catch(() => {}); // this failure is the build's
    throw error;
  }
  progress({ phase: 'search' });
  await searched;
  if (options.drawSocialImages ?? true) await drawSocialImages(cards, out, options.cacheDir, progress);
  const cached = outputs.length - rendered;
  for (const message of cache?.problems ?? []) progress({ phase: 'cache', message });
  progress({ phase: 'done', message: `${site.pages.length} pages${cache ? ` (${cached} from the build cache)` : ''}` });
  return {
    pages: site.pages.length,
    problems: site.problems,
    durationMs: Math.round(performance.now() - started),
    data: state.data,
    socialCards: cards,
    rendered,
    cached,
  };
}

/**
 * The site's HTML pages and their search index into `out` (empty): the build cache's pages first (one another
 * build removed meanwhile is rendered instead), which Pagefind indexes in its own process while Astro renders the
 * rest, `renderBatch` pages per Astro build. Returns how many HTML files were rendered once they are all written,
 * and the search index being written (`searched`: Pagefind may still be indexing; awaited by the caller).
 */
async function writePages(
  state: SiteState,
  outputs: PageOutput[],
  cache: BuildCache | undefined,
  options: { out: string; cacheDir: string; progress: (event: BuildProgress) => void; renderBatch: number; link: boolean },
): Promise<{ rendered: number; searched: Promise<unknown> }> {
  const { out } = options;
  const search = await SearchIndex.create(out);
  let toRender: PageOutput[];
  try {
    const fromCache = cache ? outputs.filter((output) => cache.has(output)) : [];
    const missed = new Set(cache ? await cache.restore(out, fromCache, { link: options.link }) : []);
    const restored = new Set(fromCache.filter((output) => !missed.has(output)));
    search.add([...restored].map((output) => output.file));
    toRender = outputs.filter((output) => !restored.has(output));
    // Astro writes 404.html whenever it runs (into the file: one linked from the cache is unlinked first).
    const notFound = outputs.find((output) => output.file === '404.html');
    if (toRender.length > 0 && notFound && !toRender.includes(notFound)) {
      toRender.push(notFound);
      await rm(join(out, notFound.file), { force: true });
    }
    const counts = { compiled: 0, rendered: 0, total: toRender.filter((output) => output.route !== undefined).length };
    for (let i = 0; i < toRender.length; i += options.renderBatch) {
      const batch = toRender.slice(i, i + options.renderBatch);
      if (notFound && !batch.includes(notFound)) batch.push(notFound);
      await renderPages(state, batch, { ...options, counts });
      search.add(batch.map((output) => output.file));
      await cache?.save(out, batch);
    }
    await cache?.close(outputs);
  } catch (error) {
    await search.discard();
    throw error;
  }
  return { rendered: toRender.length, searched: search.write() };
}

/**
 * The generated social images into `out`, with the images cache every site of this user shares (one another user
 * could write to is not used: a fresh folder is, then).
 */
async function drawSocialImages(cards: SocialCard[], out: string, cacheDir: string | undefined, progress: (event: BuildProgress) => void): Promise<void> {
  let socialCache = cacheDir ? join(cacheDir, 'social') : join(tmpdir(), 'docs-sites-cache', 'social');
  let scratch: string | undefined;
  await privateDirectory(socialCache, 'the images are drawn afresh').catch(async (error: Error) => {
    progress({ phase: 'cache', message: error.message });
    socialCache = scratch = await mkdtemp(join(tmpdir(), 'docs-social-'));
  });
  try {
    await writeSocialImages({ cards, out, cacheDir: socialCache, onProgress: (done, total) => progress({ phase: 'social-images', done, total }) });
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Astro renders `outputs` (their routes, and 404.html) into `out`; each page it wrote gets its components' styles
 * (component-styles.ts) and the Content-Security-Policy. `counts` carries progress across batches.
 */
async function renderPages(
  state: SiteState,
  outputs: PageOutput[],
  options: { out: string; cacheDir: string; progress: (event: BuildProgress) => void; counts: { compiled: number; rendered: number; total: number } },
): Promise<void> {
  const { out, progress, counts } = options;
  const routes = new Set(outputs.flatMap((output) => (output.route === undefined ? [] : [output.route])));
  const all = routes.size === state.data.pages.length;
  const { total } = counts;
  const compiled = new Set<string>();
  state.render = all ? undefined : routes;
  state.onPageCompile = (file) => compiled.size < compiled.add(file).size && progress({ phase: 'compile', done: ++counts.compiled, total });
  globalThis.docsSitesPageRendered = () => progress({ phase: 'render', done: ++counts.rendered, total });
  progress({ phase: 'compile', done: counts.compiled, total });
  // Astro's prerender bundle goes to a folder of this build (see docsIntegration), removed afterwards. It imports
  // packages, so it lives in the project (where node_modules resolve), not in the OS temp folder.
  await mkdir(join(SITES_DIR, '.astro'), { recursive: true });
  const serverDir = await mkdtemp(join(SITES_DIR, '.astro', 'build-'));
  const mark = (globalThis.docsOwnScriptMark = newOwnScriptMark());
  try {
    await astroBuild(astroConfig(state, { out, cacheDir: options.cacheDir, mode: 'build', serverDir }));
  } finally {
    globalThis.docsSitesPageRendered = undefined;
    globalThis.docsOwnScriptMark = undefined;
    state.render = undefined;
    await rm(serverDir, { recursive: true, force: true });
  }
  const styles = new ComponentStyles(out);
  await applyContentSecurityPolicy(out, mark, outputs.map((output) => output.file), (html) => styles.inPage(html));
}
