import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { setImmediate } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { shouldFail } from '../config/problems.ts';
import { preparePage } from '../content/mdx.ts';
import { readSite } from '../content/read.ts';
import type { SanitizeOptions } from '../content/sanitize.ts';
import type { Problem, SourcePage } from '../content/types.ts';
import type { RenderContext, SiteData } from '../src/lib/types.ts';
import { checkSite } from '../check/index.ts';
import type { BodyFacts } from '../content/facts.ts';
import type { ConfigLocator } from '../config/semantics.ts';
import { copyAssets } from './assets.ts';
import { pageMarkdownFiles, writeFiles, writeOutputs } from './outputs.ts';
import { SearchIndex } from './search-index.ts';
import { searchPartsOf } from './search-parts.ts';
import { RENDER_BATCH, renderBatches } from './render-batches.ts';
import { socialCards, writeSocialImages, type SocialCard } from './social-images.ts';
import { loadsPage, type SiteState } from './integration.ts';
import { AstroProcesses } from './astro-processes.ts';
import type { AstroJob } from './astro-job.ts';
import { buildSiteData, normalizeBase } from './site-data.ts';
import { ComponentStyles } from './component-styles.ts';
import { applyContentSecurityPolicy, newOwnScriptMark } from './csp.ts';
import { analyticsScripts } from '../src/lib/analytics.ts';
import { BuildCache, pageOutputs, rendererFingerprint, type PageOutput } from './build-cache.ts';
import { OutputFolder, siteFileKeys } from './output-folder.ts';
import { PreparedPages } from './prepared-pages.ts';
import { privateDirectory } from './cache-folders.ts';
import { SITES_DIR } from './project.ts';

export type { Problem } from '../content/types.ts';
export type { RenderContext } from '../src/lib/types.ts';

export { SITES_DIR } from './project.ts';

export interface BuildProgress {
  phase: string;
  done?: number;
  total?: number;
  message?: string;
}

export interface BuildOptions {
  /** The docs folder (docs.json/docs.yaml and MDX pages), anywhere on disk. */
  source: string;
  /**
   * Output folder: afterwards it holds the site and nothing else. Emptied first, unless the build cache recorded the
   * last build into it: then the files that would be written the same stay (output-folder.ts).
   */
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
   * Leave the build cache's pages and search parts in the cache instead of copying them into `out`, and move those
   * this build renders or indexes there instead of copying them (default false): `BuildResult.cachedFiles` says
   * which file of the site each one is. For a host that stores a build's files by their paths (hosted builds): a
   * one-page change to a 1,000-page site then creates a few files, not ~1,000 folders and ~1,800 files, which took
   * 0.3-0.9 s on a disk that had just removed the last build's.
   */
  leaveCached?: boolean;
  /**
   * Write each page's Markdown (`<page>.md`) into `out` (default true). False: `BuildResult.pageMarkdown` has them,
   * for a host that stores them from there (hosted builds: creating 1,000 small files took 0.3-0.8 s).
   */
  pageMarkdownFiles?: boolean;
  /**
   * Write llms-full.txt (default true): every listed page's Markdown in one file. False for a host that composes it
   * from the pages' Markdown when asked (hosted builds: storing 5 MB anew for a one-page change to 1,000 pages took
   * ~0.25 s and grew the database by as much every push).
   */
  llmsFullFile?: boolean;
  /**
   * Pages per Astro build, at most (default: one build of up to {@link IN_PROCESS_PAGES} in this process, else builds
   * of about even size of up to RENDER_BATCH, render-batches.ts, in processes of their own); given, more than this many
   * pages render in processes.
   */
  renderBatch?: number;
  /**
   * Draw the generated social images into `out` (default true), as the last phase. False: only describe them
   * (`BuildResult.socialCards`): a host draws each when it is first asked for, and the build is not held up.
   */
  drawSocialImages?: boolean;
  /** Parts of the search index in every language (default by its pages: search-parts.ts); tests set more. */
  searchParts?: number;
  /**
   * Called once the site is read and prepared, before anything is rendered (a build that fails its checks never
   * calls it): the site's data and each page's Markdown by its path in the site. A host starts work of its own on
   * them meanwhile (hosting indexes the pages for its search while Astro renders).
   */
  onPrepared?: (site: { data: SiteData; pageMarkdown: ReadonlyMap<string, string> }) => void;
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
  /** Parts of the search index (search-parts.ts) this build indexed and took from the build cache. */
  searchParts: { indexed: number; cached: number };
  /** With `leaveCached`: the files of the site in the build cache, not in `out`, each by its path in the site and where it is. */
  cachedFiles: { path: string; from: string }[];
  /** With `pageMarkdownFiles: false`: each page's Markdown, by its path in the site (`guide/setup.md`). */
  pageMarkdown?: Map<string, string>;
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

/** Up to this many pages to render are one Astro build in the build's own process: a process costs ~1-2 s. */
export const IN_PROCESS_PAGES = 500;

export const DEFAULT_CONTEXT: RenderContext = { published: false, defaultBranch: false, customDomain: false };

/**
 * Loads what rendering needs before a build is known (Astro, Vite and the builder's Astro job; Shiki's highlighter
 * with common grammars: markdown/highlighter.ts). A host's spare build process does it while it waits for its build;
 * the build is the same either way, ~0.5 s sooner.
 */
export async function warmRenderer(): Promise<void> {
  await import('./astro-job.ts');
  await (await import('./markdown/highlighter.ts')).warmHighlighter();
  rendererWarm = true;
}

/** Astro and Shiki are loaded in this process (warmRenderer): its builds render here, not in a process started for them. */
let rendererWarm = false;

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
  searchParts?: number;
  /** What the last build prepared, used where a page is the same (a build with a build cache). */
  preparedPages?: PreparedPages | undefined;
}): Promise<PreparedSite> {
  const base = normalizeBase(options.base);
  const context: RenderContext = { ...DEFAULT_CONTEXT, ...options.context };
  const memo = options.preparedPages;
  const source = await readSite(resolve(options.source), {
    strict: options.strict ?? false,
    ignore: options.out ? [resolve(options.out)] : [],
    ...(memo ? { frontmatter: (file: string, text: string) => memo.frontmatter(file, text) } : {}),
  });
  // Pages and assets are read from the layout's root (the folder, or its docs/ folder: content/layout.ts).
  const { layout } = source;
  const sourceDir = layout.root;
  const sanitize: SanitizeOptions = { base, zoomImages: source.config.content.zoomImages, sourceDir };
  const prepared = new Map<string, string>();
  const markdown = new Map<string, string>();
  const ok = new Map<string, boolean>();
  const zoom = new Map<string, boolean>();
  const firstHeadings = new Map<string, string>();
  const facts = new Map<SourcePage, BodyFacts>();
  const pageProblems: Problem[] = [];
  for (const [i, page] of source.pages.entries()) {
    // Sätteri hands each parsed tree over in a native buffer that Node frees only when the event loop turns (an
    // N-API finalizer): without a turn now and then, 10,000 pages hold ~200 MB of them until the loop ends.
    if (i % 64 === 63) await setImmediate();
    const result = memo ? memo.prepare(page, source.config.variables, sanitize) : preparePage(page, source.config.variables, sanitize);
    facts.set(page, result.facts);
    prepared.set(join(sourceDir, page.file), result.code);
    markdown.set(page.route, result.markdown);
    ok.set(page.route, result.ok);
    zoom.set(page.route, /data-zoom/.test(result.code) || (sanitize.zoomImages && /!\[|<img\b/i.test(result.code)));
    pageProblems.push(...result.problems.map((problem) => ({ ...problem, file: layout.display(problem.file) })));
    const h1 = /^#[ \t]+(.+?)[ \t#]*$/m.exec(result.markdown.split(/^(?:```|~~~)/m, 1)[0] ?? '')?.[1];
    if (h1) firstHeadings.set(page.route, h1);
  }
  // The checks take each page's links and anchors from the parse above: a build parses a page once.
  const checked = checkSite(layout.dir, { config: source.config, pages: source.pages, locate: source.locate, layout, facts: (page) => facts.get(page)! });
  const problems = [...source.problems, ...checked, ...pageProblems];
  const data = buildSiteData({ config: source.config, pages: source.pages, ok, zoom, firstHeadings, base, site: options.site, context, searchParts: options.searchParts });
  return { state: { sourceDir, data, prepared, sanitize }, locate: source.locate, pages: source.pages, problems, markdown };
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
  // A rebuild (the cache has pages) mostly renders a few: their Astro build gets a process of its own now, which
  // loads Astro and Shiki on the other core while this one reads the site (~0.5 s of a one-page rebuild). Not where
  // this process has them loaded already (warmRenderer).
  const astro = cache?.size && !rendererWarm ? new AstroProcesses({ startNow: true }) : undefined;
  try {
    return await buildWith(options, { started, progress, out, cacheDir, fingerprint, cache, astro });
  } finally {
    await astro?.close();
  }
}

async function buildWith(
  options: BuildOptions,
  context: { started: number; progress: (event: BuildProgress) => void; out: string; cacheDir: string; fingerprint: string; cache: BuildCache | undefined; astro: AstroProcesses | undefined },
): Promise<BuildResult> {
  const { started, progress, out, cacheDir, fingerprint, cache } = context;
  // Only what the build uses is kept: the pages' source text (50 MB at 10,000 pages) is not needed past here.
  const preparedPages = cache ? await PreparedPages.open(cache.preparedPagesFile) : undefined;
  const { state, problems, markdown, pages } = await prepareSite({ ...options, out, preparedPages }).then((site) => ({ ...site, pages: site.pages.length }));
  if (pages === 0) {
    throw new BuildError(`No pages in ${state.sourceDir}: a site is a docs.json (or docs.yaml) and .mdx or .md pages beside it`, problems);
  }
  if ((options.strict || options.failOnErrors) && shouldFail(problems, { strict: options.strict ?? false })) {
    const what = options.strict ? `${problems.filter((p) => p.severity !== 'info').length} problem(s) and the build is strict` : 'errors';
    throw new BuildError(`The site has ${what}`, problems);
  }
  // Kept for the next build while this one goes on; awaited before it ends.
  const keptPages = preparedPages?.save().catch((error: Error) => void cache!.problems.push(`The build cache could not keep the prepared pages: ${error.message}`));
  const pageMarkdown = pageMarkdownFiles(state.data, markdown);
  options.onPrepared?.({ data: state.data, pageMarkdown });
  const outputs = pageOutputs(fingerprint, state.data, (file) => state.prepared.get(join(state.sourceDir, file)));
  const parts = searchPartsOf(state.data.config, state.data.searchParts, outputs);
  const cards = await socialCards(state.data, state.sourceDir);
  const writesMarkdown = options.pageMarkdownFiles ?? true;
  const drawsImages = options.drawSocialImages ?? true;
  const leave = (options.leaveCached ?? false) && cache !== undefined;
  // A build into the folder of the last one (recorded in the build cache) leaves the files that did not change. The
  // files' keys are worked out only for a folder that has a record (not a host's scratch folder).
  const record = cache && !leave ? cache.outputRecord(out) : undefined;
  const folder = await OutputFolder.open(
    out,
    record ? { record, keyOf: siteFileKeys({ pages: outputs, markdown: writesMarkdown ? pageMarkdown : undefined, cards: drawsImages ? cards : undefined, searchParts: parts }) } : undefined,
  );
  const { rendered, searched, searchParts, left } = await writePages(state, outputs, parts, cache, { out, cacheDir, progress, renderBatch: options.renderBatch, leave, has: folder.has, astro: context.astro });
  // The outputs are written while Pagefind finishes its index in its own process. (The social images come after:
  // drawn meanwhile, they would hide the index's time in theirs, which the bench subtracts.)
  try {
    progress({ phase: 'outputs' });
    if (writesMarkdown) await writeFiles(out, pageMarkdown, folder.has);
    const llmsFull = options.llmsFullFile ?? true;
    await writeOutputs(out, state.data, markdown, { llmsFull });
    await copyAssets(state.sourceDir, out, [out, cacheDir]);
    // The host composes it (one of the repository's public/ folder would never be served: not a file of the build).
    if (!llmsFull) await rm(join(out, 'llms-full.txt'), { force: true });
    progress({ phase: 'search' });
  } catch (error) {
    // This failure is the build's; nothing of it goes on writing once it is thrown (the next build may be starting).
    await searched.catch(() => {});
    throw error;
  }
  await searched;
  if (drawsImages) await drawSocialImages(cards, out, options.cacheDir, progress, folder.has);
  await folder.close();
  await keptPages;
  const cached = outputs.length - rendered;
  for (const message of cache?.problems ?? []) progress({ phase: 'cache', message });
  progress({ phase: 'done', message: `${pages} pages${cache ? ` (${cached} from the build cache)` : ''}` });
  return {
    pages,
    problems,
    durationMs: Math.round(performance.now() - started),
    data: state.data,
    socialCards: cards,
    rendered,
    cached,
    searchParts,
    cachedFiles: [...left].map(([path, from]) => ({ path, from })),
    ...(writesMarkdown ? {} : { pageMarkdown }),
  };
}

/**
 * The site's HTML pages and their search index into `out` (empty): the build cache's pages first (one another
 * build removed meanwhile is rendered instead), which Pagefind indexes in its own process while Astro renders the
 * rest, in Astro builds of BuildOptions.renderBatch's size. Returns how many HTML files were rendered once they are all written,
 * and the search index being written (`searched`: Pagefind may still be indexing; awaited by the caller). The
 * search parts whose pages are all unchanged come from the cache as they are. With `leave`, the pages and search
 * parts are the cache's files: those it had stay there, those made are moved there (`left`, path in the site ->
 * where: BuildOptions.leaveCached).
 */
async function writePages(
  state: SiteState,
  outputs: PageOutput[],
  parts: Map<string, PageOutput[]>,
  cache: BuildCache | undefined,
  options: { out: string; cacheDir: string; progress: (event: BuildProgress) => void; renderBatch: number | undefined; leave: boolean; has: (path: string) => boolean; astro: AstroProcesses | undefined },
): Promise<{ rendered: number; searched: Promise<unknown>; searchParts: BuildResult['searchParts']; left: Map<string, string> }> {
  const { out, has } = options;
  const leave = options.leave && cache !== undefined;
  // With `leave`: the files of the site in the cache, not in `out` (path in the site -> where); search parts add
  // theirs as they are kept.
  const left = new Map<string, string>();
  const fromCache = cache ? outputs.filter((output) => cache.has(output)) : [];
  const [search, missed] = await Promise.all([
    SearchIndex.open(out, parts, cache, leave ? { leaveIn: left } : { has }),
    cache ? cache.restore(out, fromCache, { leave, has }) : [],
  ]);
  let toRender: PageOutput[];
  const at = (file: string) => left.get(file) ?? join(out, file);
  try {
    const notRestored = new Set(missed);
    const restored = new Set(fromCache.filter((output) => !notRestored.has(output)));
    toRender = outputs.filter((output) => !restored.has(output));
    // Astro writes 404.html whenever it runs (into the file: one copied from the cache is removed first). It is
    // then a page of the batches, not of the cache: the search index reads it once Astro has written it.
    const notFound = outputs.find((output) => output.file === '404.html');
    if (toRender.length > 0 && notFound && !toRender.includes(notFound)) {
      toRender.push(notFound);
      restored.delete(notFound);
      await rm(join(out, notFound.file), { force: true });
    }
    if (leave) for (const output of restored) left.set(output.file, cache.pageEntry(output));
    search.add([...restored].map((output) => output.file), at);
    const counts = { compiled: 0, rendered: 0, total: toRender.filter((output) => output.route !== undefined).length };
    // One Astro build runs in this process; several, each in a process of its own (astro-worker.ts: why); any, in
    // the process started for them already (buildSite).
    // 404.html is in every batch and counted in none (render-batches.ts).
    const several = toRender.filter((output) => output !== notFound).length > (options.renderBatch ?? IN_PROCESS_PAGES);
    const processes = options.astro ?? (several ? new AstroProcesses() : undefined);
    const batches = renderBatches(toRender, notFound, several ? (options.renderBatch ?? RENDER_BATCH) : toRender.length);
    try {
      for (const [n, batch] of batches.entries()) {
        await renderPages(state, batch, { ...options, counts, processes, ahead: n < batches.length - 1 });
        const moved = (await cache?.save(out, batch, { move: leave })) ?? new Set();
        for (const output of batch) {
          if (moved.has(output)) left.set(output.file, cache!.pageEntry(output));
          else left.delete(output.file); // in `out` (copied to the cache, or not kept): 404.html may be there from a batch before
        }
        search.add(batch.map((output) => output.file), at);
      }
    } finally {
      await processes?.close();
    }
    await cache?.close(outputs);
  } catch (error) {
    await search.discard();
    throw error;
  }
  return { rendered: toRender.length, searched: search.write(), searchParts: { indexed: search.indexed, cached: search.restored }, left };
}

/**
 * The generated social images into `out`, with the images cache every site of this user shares (one another user
 * could write to is not used: a fresh folder is, then).
 */
async function drawSocialImages(cards: SocialCard[], out: string, cacheDir: string | undefined, progress: (event: BuildProgress) => void, has: (path: string) => boolean): Promise<void> {
  let socialCache = cacheDir ? join(cacheDir, 'social') : join(tmpdir(), 'docs-sites-cache', 'social');
  let scratch: string | undefined;
  await privateDirectory(socialCache, 'the images are drawn afresh').catch(async (error: Error) => {
    progress({ phase: 'cache', message: error.message });
    socialCache = scratch = await mkdtemp(join(tmpdir(), 'docs-social-'));
  });
  try {
    await writeSocialImages({ cards, out, cacheDir: socialCache, has, onProgress: (done, total) => progress({ phase: 'social-images', done, total }) });
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Astro renders `outputs` (their routes, and 404.html) into `out`, in one of `processes` when given, else in this
 * process; each page it wrote gets its components' styles (component-styles.ts) and the Content-Security-Policy.
 * `counts` carries progress across batches; `ahead`: another batch follows. The prepared text of the pages
 * rendered is dropped: nothing is held per page once it is written.
 */
async function renderPages(
  state: SiteState,
  outputs: PageOutput[],
  options: { out: string; cacheDir: string; progress: (event: BuildProgress) => void; processes: AstroProcesses | undefined; ahead: boolean; counts: { compiled: number; rendered: number; total: number } },
): Promise<void> {
  const { out, progress, counts } = options;
  const routes = new Set(outputs.flatMap((output) => (output.route === undefined ? [] : [output.route])));
  const render = routes.size === state.data.pages.length ? undefined : routes;
  const { total } = counts;
  // The prepared text of the pages this Astro build loads (see SiteState.render).
  const files = state.data.pages.filter((page) => loadsPage(render, page.route)).map((page) => ({ route: page.route, file: join(state.sourceDir, page.file) }));
  const prepared = new Map(files.flatMap(({ file }) => {
    const text = state.prepared.get(file);
    return text === undefined ? [] : [[file, text] as const];
  }));
  progress({ phase: 'compile', done: counts.compiled, total });
  // Astro's prerender bundle goes to a folder of this build (see docsIntegration), removed afterwards. It imports
  // packages, so it lives in the project (where node_modules resolve), not in the OS temp folder.
  await mkdir(join(SITES_DIR, '.astro'), { recursive: true });
  const serverDir = await mkdtemp(join(SITES_DIR, '.astro', 'build-'));
  const ownScriptMark = newOwnScriptMark();
  try {
    const { sourceDir, data, sanitize } = state;
    const job: AstroJob = { state: { sourceDir, data, prepared, sanitize, render }, out, cacheDir: options.cacheDir, serverDir, ownScriptMark };
    const on = {
      compiled: () => progress({ phase: 'compile', done: ++counts.compiled, total }),
      rendered: () => progress({ phase: 'render', done: ++counts.rendered, total }),
    };
    if (options.processes) await options.processes.build(job, { ...on, ahead: options.ahead });
    else await (await import('./astro-job.ts')).runAstroJob(job, on);
  } finally {
    await rm(serverDir, { recursive: true, force: true });
  }
  // A 404.mdx stays: every batch loads it.
  for (const { route, file } of files) if (route !== '/404') state.prepared.delete(file);
  const styles = new ComponentStyles(out);
  await applyContentSecurityPolicy(out, ownScriptMark, outputs.map((output) => output.file), (html) => styles.inPage(html), analyticsScripts(state.data.config, state.data.context));
}
