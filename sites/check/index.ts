import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suggest, suggester } from '../config/fallback.ts';
import { loadConfigSync } from '../config/load.ts';
import { pathToString, type PathSegment, type Problem } from '../config/problems.ts';
import { ogLogoProblem } from '../config/og-logo.ts';
import { isExternal, normalizeRoute, pathAnswer } from '../config/routes.ts';
import type { DocsConfig } from '../config/schema/index.ts';
import { sidebarGroups, type ConfigLocator } from '../config/semantics.ts';
import { lineColumn, parseSource } from '../config/parse.ts';
import { siteLayout, type SiteLayout } from '../content/layout.ts';
import { resolveHref } from './links.ts';
import type { BodyFacts } from '../content/facts.ts';
import { bodyFacts } from '../content/mdx.ts';
import type { SourcePage } from './types.ts';

export type { SourcePage } from './types.ts';
export { resolveHref, type ResolvedHref } from './links.ts';
export { bodyFacts, extractHeadings, headingSlugs } from '../content/mdx.ts';
export type { BodyFacts, BodyLink, Heading } from '../content/facts.ts';

export interface CheckOptions {
  config: DocsConfig;
  pages: readonly SourcePage[];
  /** `loadConfig(dir).locate`; without it the config file is read again to find positions. */
  locate?: ConfigLocator;
  /** Where the pages are (`readSite(dir).layout`); without it `siteLayout(dir)` finds it again. */
  layout?: SiteLayout;
  /** What a page body links to and offers as anchors; default {@link bodyFacts} (a build takes them from its page preparation's parse). */
  facts?: (page: SourcePage, variables: Record<string, unknown>) => BodyFacts;
}

/**
 * Content checks over a whole site (the config itself is checked while loading): links of the sidebar, tabs,
 * anchors, header, banner, redirects and frontmatter that name no page; broken links and `#anchors` in page
 * bodies; `{{ variables }}` with no string value; MDX that does not parse (error); page code (imports, exports,
 * expressions) that building removes; local logo/favicon/image files that do not exist; redirects shadowed by a
 * page; two files with one route.
 *
 * An internal link is fine when it names a page's route, a `redirects` key, or a file in the site folder (or its
 * `public/`). Relative links resolve from the page file's folder. A site with nothing at `/` (no page, no
 * redirect) has one problem that says so, and links to `/` are not reported again.
 *
 * `dir` is the folder given (the configuration file's); pages, their files and the site's files are where
 * {@link siteLayout} puts them (`dir`, or `dir/docs`). Problems name files as seen from `dir`.
 */
export function checkSite(dir: string, options: CheckOptions): Problem[] {
  const { config, pages } = options;
  const layout = options.layout ?? siteLayout(dir);
  const root = layout.root;
  const show = layout.display;
  const locate = options.locate ?? loadConfigSync(layout.dir).locate;
  const problems: Problem[] = [];
  const variables = config.variables as Record<string, unknown>;

  // Pages by route; each body parsed once (its facts: parses, anchors, links).
  const byRoute = new Map<string, SourcePage>();
  const facts = new Map<SourcePage, BodyFacts>();
  const factsOf = options.facts ?? ((page: SourcePage) => bodyFacts(page.body, variables));
  for (const page of pages) {
    const route = normalizeRoute(page.route);
    const other = byRoute.get(route);
    if (other) problems.push(warning(show(page.file), 1, 1, '', `\`${show(other.file)}\` and \`${show(page.file)}\` both have the route \`${route}\` (only one can be served)`));
    else byRoute.set(route, page);
    facts.set(page, factsOf(page, variables));
  }
  const anchors = new Map<SourcePage, Set<string>>();
  const anchorsOfPage = (page: SourcePage) => {
    let set = anchors.get(page);
    if (!set) {
      set = new Set(facts.get(page)?.anchors);
      anchors.set(page, set);
    }
    return set;
  };
  const redirectKeys = new Set(Object.keys(config.redirects).map(normalizeRoute));
  const isFile = (path: string) => [root, join(root, 'public')].some((folder) => {
    const full = join(folder, path);
    return full.startsWith(folder) && existsSync(full) && statSync(full).isFile();
  });
  // The home page: one problem when nothing answers `/`, instead of one per link to it.
  const hasHome = byRoute.has('/') || redirectKeys.has('/');
  if (!hasHome) problems.push({ severity: 'warning', ...locate([]), message: `No home page: add \`${show('index.mdx')}\` (the page at \`/\`)` });

  const suggestRoute = suggester([...byRoute.keys()]);
  /** Why an internal href goes nowhere (`no page at ...`), or null when it is fine. */
  const brokenBecause = (href: string, fromFile: string): { message: string; suggestion?: string } | null => {
    if (/[{}]/.test(href)) return null; // an unresolved placeholder, reported on its own
    const target = resolveHref(href, fromFile);
    if (!target) return null;
    const page = byRoute.get(target.route);
    if (!page) {
      if (redirectKeys.has(target.route) || isFile(target.path) || target.route === '/') return null;
      return { message: `no page at \`${target.route}\``, ...suggestRoute(target.route) };
    }
    if (target.hash === null || target.hash === '' || facts.get(page)?.ok === false) return null;
    const ids = anchorsOfPage(page);
    if (ids.has(target.hash)) return null;
    const where = page.file === fromFile ? 'this page' : `\`${show(page.file)}\``;
    return { message: `no heading \`#${target.hash}\` on ${where}`, ...(ids.size ? suggest(target.hash, [...ids]) : {}) };
  };

  // docs.json / docs.yaml: every internal href (the config file is the site root, so relative = root-relative).
  const configLink = (path: PathSegment[], href: string | undefined) => {
    if (href === undefined || isExternal(href)) return;
    const broken = brokenBecause(href.startsWith('/') || href.startsWith('#') ? href : `/${href}`, '');
    if (broken) problems.push({ severity: 'warning', ...locate(path), message: capitalize(broken.message), ...(broken.suggestion ? { suggestion: broken.suggestion } : {}) });
  };
  for (const { group, path } of sidebarGroups(config.sidebar)) {
    configLink([...path, 'href'], group.href);
    group.pages.forEach((item, i) => 'href' in item && !('pages' in item) && configLink([...path, 'pages', i, 'href'], item.href));
  }
  config.tabs.forEach((tab, i) => configLink(['tabs', i, 'href'], tab.href));
  config.anchors.forEach((anchor, i) => configLink(['anchors', i, 'href'], anchor.href));
  config.header.links.forEach((link, i) => configLink(['header', 'links', i, 'href'], link.href));
  configLink(['banner', 'href'], config.banner.href);
  // redirects: only consulted where no page exists; a destination that is redirected again is a chain or a loop.
  const active = new Map<string, string>();
  for (const [from, to] of Object.entries(config.redirects)) {
    if (isExternal(from)) continue; // reported while loading
    const answer = pathAnswer({ file: byRoute.get(normalizeRoute(from)), redirect: to });
    if (answer?.by === 'file') {
      problems.push({ severity: 'warning', ...locate(['redirects', from]), message: `\`${show(answer.file.file)}\` exists at this path, so this redirect is never used (a page redirects with its frontmatter \`redirect\`)` });
    } else active.set(normalizeRoute(from), to);
  }
  const chainEnd = redirectChainEnds(active);
  for (const [from, to] of Object.entries(config.redirects)) {
    const start = normalizeRoute(from);
    if (!active.has(start) || isExternal(to) || normalizeRoute(to) === start) continue;
    if (!active.has(normalizeRoute(to))) {
      configLink(['redirects', from], to);
      continue;
    }
    const end = chainEnd(normalizeRoute(to));
    const message = end === REDIRECT_LOOP ? `Redirect loop: \`${to}\` is redirected back (never reaches a page)` : `\`${to}\` is itself redirected: redirect to \`${end}\` directly`;
    problems.push({ severity: 'warning', ...locate(['redirects', from]), message });
  }

  // Local files the config names.
  const configFile = (path: PathSegment[], value: string | false | undefined) => {
    if (typeof value !== 'string' || value === '' || isExternal(value) || value.startsWith('data:')) return;
    const file = `/${value.replace(/^\.?\//, '').split(/[?#]/, 1)[0]}`;
    if (!isFile(file)) problems.push({ severity: 'warning', ...locate(path), message: `No file \`${value}\` in ${layout.prefix ? `the \`${layout.prefix}\` folder` : 'the site folder'}` });
  };
  configFile(['logo', 'light'], config.logo.light);
  configFile(['logo', 'dark'], config.logo.dark);
  if (typeof config.favicon === 'string') configFile(['favicon'], config.favicon);
  else if (config.favicon) {
    configFile(['favicon', 'light'], config.favicon.light);
    configFile(['favicon', 'dark'], config.favicon.dark);
  }
  configFile(['og', 'logo'], config.og.logo);
  // Only generated images use og.logo: none are drawn when socialPreview is set (a URL, or false).
  const logoProblem = config.og.logo !== undefined && config.socialPreview === undefined ? ogLogoProblem(config.og.logo) : undefined;
  if (logoProblem) problems.push({ severity: 'warning', ...locate(['og', 'logo']), message: logoProblem });
  configFile(['socialPreview'], config.socialPreview);

  // Pages: frontmatter links and body links. Placeholders with no value, MDX that does not parse and page code
  // are the renderer's page preparation's to report (sites/content/mdx.ts), as it is what runs.
  for (const page of pages) {
    const body = facts.get(page)!;
    const at = (offset: number) => {
      const { line, column } = lineColumn(page.body, offset);
      return { line: line + page.bodyLine - 1, column };
    };
    checkFrontmatter(page, (path, href) => {
      const broken = brokenBecause(href, page.file);
      if (broken) problems.push({ severity: 'warning', file: show(page.file), ...frontmatterPosition(root, page.file, path), path: pathToString(path), message: capitalize(broken.message), ...(broken.suggestion ? { suggestion: broken.suggestion } : {}) });
    });

    for (const link of body.links) {
      const broken = brokenBecause(link.href, page.file);
      if (!broken) continue;
      const { line, column } = at(link.offset);
      problems.push({ ...warning(show(page.file), line, column, '', `Broken link \`${link.href}\`: ${broken.message}`), ...(broken.suggestion ? { suggestion: broken.suggestion } : {}) });
    }
  }
  return problems;
}

export const REDIRECT_LOOP = Symbol('redirect loop');

/**
 * Where following the active redirects (normalised path -> target) from a redirected path ends: the last target
 * (a path nothing redirects, or a URL), or {@link REDIRECT_LOOP} when the chain comes back to a path it went through. Each
 * path's end is worked out once and shared by every chain through it, so checking N redirects is linear: walking
 * each one's chain anew took minutes for 10,000 redirects in one chain.
 */
export function redirectChainEnds(active: ReadonlyMap<string, string>): (route: string) => string | typeof REDIRECT_LOOP {
  const ends = new Map<string, string | typeof REDIRECT_LOOP>();
  return (route) => {
    const walked: string[] = [];
    const onWalk = new Set<string>();
    let current = route;
    let end: string | typeof REDIRECT_LOOP;
    for (;;) {
      const known = ends.get(current);
      if (known !== undefined) {
        end = known;
        break;
      }
      if (onWalk.has(current)) {
        end = REDIRECT_LOOP;
        break;
      }
      walked.push(current);
      onWalk.add(current);
      const to = active.get(current)!;
      const next = isExternal(to) ? undefined : normalizeRoute(to);
      if (next === undefined || !active.has(next)) {
        end = to;
        break;
      }
      current = next;
    }
    for (const path of walked) ends.set(path, end);
    return end;
  };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const warning = (file: string, line: number, column: number, path: string, message: string): Problem => ({ severity: 'warning', file, line, column, path, message });

/** The internal hrefs of a page's frontmatter: `redirect`, `previous`/`next` (a path or `{ href }`). */
function checkFrontmatter(page: SourcePage, check: (path: PathSegment[], href: string) => void) {
  const { redirect, previous, next } = page.frontmatter;
  if (redirect !== undefined && !isExternal(redirect)) check(['redirect'], redirect);
  for (const [key, value] of [
    ['previous', previous],
    ['next', next],
  ] as const) {
    if (typeof value === 'string') {
      if (!isExternal(value)) check([key], value);
    } else if (value && !isExternal(value.href)) check([key, 'href'], value.href);
  }
}

/** Line and column of a frontmatter key in the page file (read again; 1:1 when it cannot be). */
function frontmatterPosition(dir: string, file: string, path: readonly PathSegment[]): { line: number; column: number } {
  try {
    const source = readFileSync(join(dir, file), 'utf8');
    const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---[ \t]*$/m.exec(source);
    if (!match || match.index !== 0) return { line: 1, column: 1 };
    return parseSource(match[1]!, { file, format: 'yaml', lineOffset: 1 }).locate(path);
  } catch {
    return { line: 1, column: 1 };
  }
}
