import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isExternal, normalizeRoute, pathAnswer } from '../config/routes.ts';
import { readingOrder } from '../src/lib/nav.ts';
import type { PageData, SiteData } from '../src/lib/types.ts';
import { markdownFile, markdownPath, routeUrl } from './site-data.ts';
import type { DocsConfig, SidebarGroup } from '../config/schema/index.ts';

/**
 * Files written next to the pages after Astro: the agent outputs (llms.txt, llms-full.txt, `<page>.md`),
 * sitemap.xml, robots.txt and `_redirects.json`.
 *
 * - `<page>.md` (every page that is not a redirect): `# title`, the description as a quote, then the body with
 *   variables substituted and removed code left out.
 * - llms.txt / llms-full.txt and sitemap.xml list the pages search engines may index: not `noindex` (site-wide
 *   or per page), not redirects. Pages in sidebar order first, then the others by route.
 * - robots.txt: `Disallow` with `seo.noindex` (pages with frontmatter `noindex: false` allowed), and the sitemap's
 *   URL when the site's origin is known.
 * - `_redirects.json`: `{ "<path>": "<target URL>" }` for `redirects` (keys normalised, values resolved with the
 *   base path; external URLs unchanged) and for pages with a frontmatter `redirect` (which win for their path).
 */

async function write(out: string, path: string, content: string) {
  const file = join(out, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** Absolute when the origin is known, else the base-relative path. */
const absolute = (site: SiteData, path: string) => (site.site ? `${site.site}${path}` : path);

/** Indexable pages in reading order: sidebar order (every locale), then by route. */
export function listedPages(site: SiteData): PageData[] {
  const indexable = site.pages.filter((page) => !page.noindex && !page.redirect);
  const byRoute = new Map(indexable.map((page) => [page.route, page]));
  const ordered: PageData[] = [];
  const sidebars: SidebarGroup[][] = Array.isArray(site.config.sidebar) ? [site.config.sidebar] : Object.values(site.config.sidebar);
  for (const groups of sidebars) {
    for (const link of readingOrder(groups)) {
      const page = byRoute.get(link.href);
      if (page) {
        ordered.push(page);
        byRoute.delete(link.href);
      }
    }
  }
  return [...ordered, ...[...byRoute.values()].sort((a, b) => a.route.localeCompare(b.route))];
}

const titleOf = (page: PageData) => page.title ?? page.navTitle ?? (page.route === '/' ? 'Home' : page.route);

export function pageMarkdown(page: PageData, body: string): string {
  const startsWithTitle = /^#[ \t]/.test(body.trimStart());
  const title = page.title ?? (startsWithTitle ? undefined : page.navTitle);
  const head = [title ? `# ${title}` : '', page.heroDescription ? `> ${page.heroDescription.replace(/\n/g, ' ')}` : ''].filter(Boolean).join('\n\n');
  return `${[head, body.trim()].filter(Boolean).join('\n\n')}\n`;
}

export function llmsTxt(site: SiteData): string {
  const lines = [`# ${site.name}`, ''];
  if (site.description) lines.push(`> ${site.description.replace(/\n/g, ' ')}`, '');
  const pages = listedPages(site);
  lines.push('## Pages', '');
  for (const page of pages) {
    const link = `[${titleOf(page).replace(/[[\]]/g, '')}](${absolute(site, site.base + markdownPath(page.route))})`;
    lines.push(`- ${link}${page.description ? `: ${page.description.replace(/\n/g, ' ')}` : ''}`);
  }
  lines.push('', '## Optional', '', `- [Full documentation](${absolute(site, `${site.base}/llms-full.txt`)}): every page above in one Markdown file`);
  return `${lines.join('\n')}\n`;
}

export function llmsFullTxt(site: SiteData, markdown: Map<string, string>): string {
  return llmsFullText(
    site,
    listedPages(site).map((page) => ({ url: absolute(site, routeUrl(site.base, page.route)), markdown: pageMarkdown(page, markdown.get(page.route) ?? '') })),
  );
}

/**
 * llms-full.txt: the site's name and description, then each page's `<page>.md` text under its URL. A host composes
 * it from the stored `<page>.md` files when it is asked for (hosted-build.ts), a local build writes it.
 */
export function llmsFullText(site: { name: string; description?: string | undefined }, pages: { url: string; markdown: string }[]): string {
  const parts = [`# ${site.name}`, ...(site.description ? [`> ${site.description.replace(/\n/g, ' ')}`] : [])];
  for (const page of pages) parts.push(`---\n\nSource: ${page.url}\n\n${page.markdown.trim()}`);
  return `${parts.join('\n\n')}\n`;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function sitemapXml(site: SiteData): string {
  const urls = listedPages(site).map((page) => `  <url><loc>${xml(absolute(site, routeUrl(site.base, page.route)))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * `seo.noindex` keeps crawlers out of the site, except the pages whose frontmatter says `noindex: false` (each
 * allowed exactly, at its two URLs, so that the override is honoured by crawlers that obey robots.txt too).
 */
export function robotsTxt(site: SiteData): string {
  const lines = ['User-agent: *'];
  if (!site.config.seo.noindex) lines.push('Allow: /');
  else {
    lines.push(`Disallow: ${site.base}/`);
    for (const page of site.pages.filter((p) => p.frontmatterNoindex === false && !p.redirect)) {
      const url = routeUrl(site.base, page.route);
      lines.push(`Allow: ${url}$`, ...(url.endsWith('/') ? [] : [`Allow: ${url}/$`]));
    }
  }
  if (site.site) lines.push('', `Sitemap: ${site.site}${site.base}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

export function redirectsMap(site: SiteData, config: DocsConfig): Record<string, string> {
  const map: Record<string, string> = {};
  const pages = new Map(site.pages.map((page) => [page.route, page]));
  for (const [from, to] of Object.entries(config.redirects)) {
    if (isExternal(from)) continue;
    const route = normalizeRoute(from);
    const page = pages.get(route);
    if (pathAnswer({ pageRedirect: page?.redirect, file: page, redirect: to })?.by !== 'redirects') continue;
    map[route] = isExternal(to) ? to : routeUrl(site.base, to);
  }
  for (const page of site.pages) if (page.redirect) map[page.route] = page.redirect;
  return map;
}

/** Each page's `<page>.md` (every page that is not a redirect): its path in the site (`guide/setup.md`) -> its text. */
export function pageMarkdownFiles(site: SiteData, markdown: Map<string, string>): Map<string, string> {
  return new Map(site.pages.filter((page) => !page.redirect).map((page) => [markdownFile(page.route), pageMarkdown(page, markdown.get(page.route) ?? '')]));
}

/** `files` (path in the site -> text) into `out`, but those `has` says are there already. */
export async function writeFiles(out: string, files: Map<string, string>, has: (path: string) => boolean = () => false): Promise<void> {
  await Promise.all([...files].filter(([path]) => !has(path)).map(([path, text]) => write(out, path, text)));
}

/** The outputs but the pages' Markdown ({@link pageMarkdownFiles}) into `out`; llms-full.txt unless `llmsFull` is false. */
export async function writeOutputs(out: string, site: SiteData, markdown: Map<string, string>, { llmsFull = true } = {}): Promise<void> {
  await write(out, 'llms.txt', llmsTxt(site));
  if (llmsFull) await write(out, 'llms-full.txt', llmsFullTxt(site, markdown));
  await write(out, 'sitemap.xml', sitemapXml(site));
  await write(out, 'robots.txt', robotsTxt(site));
  await write(out, '_redirects.json', `${JSON.stringify(redirectsMap(site, site.config), null, 2)}\n`);
}
