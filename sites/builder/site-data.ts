import { normalizeRoute } from '../config/routes.ts';
import { isExternal, type DocsConfig } from '../config/schema/index.ts';
import type { SourcePage } from '../content/types.ts';
import { sidebarTitles } from '../src/lib/nav.ts';
import type { PageData, RenderContext, SiteData } from '../src/lib/types.ts';
import { searchParts } from './search-parts.ts';

/** `'/'`, `''`, `'/a/b/'`, `'a/b'` -> `''`, `''`, `'/a/b'`, `'/a/b'`. */
export function normalizeBase(base: string | undefined): string {
  const trimmed = (base ?? '/').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

/** A URL for a value that is an external URL or a path relative to the repository root. */
export function assetUrl(base: string, value: string): string {
  if (isExternal(value) || value.startsWith('data:')) return value;
  const path = value.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  return `${base}/${path}`;
}

/** An internal route with the base path: `/` -> `/owner/repo/` (the root keeps its slash), `/a` -> `/owner/repo/a`. */
export function routeUrl(base: string, route: string): string {
  if (isExternal(route)) return route;
  const hashAt = route.search(/[?#]/);
  const path = hashAt === -1 ? route : route.slice(0, hashAt);
  const rest = hashAt === -1 ? '' : route.slice(hashAt);
  const normal = normalizeRoute(path);
  return (normal === '/' ? `${base}/` : `${base}${normal}`) + rest;
}

/** Where a page's Markdown is: `/guides/a` -> `/guides/a.md`, `/` -> `/index.md`. */
export function markdownPath(route: string): string {
  return route === '/' ? '/index.md' : `${route}.md`;
}

/** A page's Markdown as a file of the built site (markdownPath without its slash): `guides/a.md`, `index.md`. */
export function markdownFile(route: string): string {
  return markdownPath(route).slice(1);
}

/** Where a page's generated social image is. */
export function socialImagePath(route: string): string {
  return route === '/' ? '/_social/index.png' : `/_social${route}.png`;
}

export interface SiteDataOptions {
  config: DocsConfig;
  pages: SourcePage[];
  ok: Map<string, boolean>;
  zoom: Map<string, boolean>;
  /** The first `# heading` of each page body, by route (a title for pages without one). */
  firstHeadings?: Map<string, string>;
  base: string;
  site?: string | undefined;
  context: RenderContext;
  /** Parts of the search index in every language; default by the pages of each (search-parts.ts). */
  searchParts?: number | undefined;
}

export function buildSiteData(options: SiteDataOptions): SiteData {
  const { config, base, context } = options;
  const site = options.site?.replace(/\/+$/, '');
  const titles = sidebarTitles(config);
  const codeHostUrl = context.codeHost?.url ?? config.social.codeHost;
  const codeHost = codeHostUrl
    ? { label: context.codeHost?.name ?? codeHostName(codeHostUrl), url: codeHostUrl }
    : context.codeHost
      ? { label: context.codeHost.name, url: `https://github.com/${context.codeHost.name}` }
      : undefined;
  const favicon =
    config.favicon === undefined
      ? undefined
      : typeof config.favicon === 'string'
        ? { light: assetUrl(base, config.favicon), dark: assetUrl(base, config.favicon) }
        : {
            light: config.favicon.light === undefined ? undefined : assetUrl(base, config.favicon.light),
            dark: config.favicon.dark === undefined ? undefined : assetUrl(base, config.favicon.dark),
          };
  const absolute = (url: string) => (site && url.startsWith('/') && !url.startsWith('//') ? `${site}${url}` : url);

  const pages: PageData[] = options.pages.map((page) => {
    const fm = page.frontmatter;
    const image = fm.image === undefined ? undefined : assetUrl(base, fm.image);
    const socialImage =
      image ??
      (typeof config.socialPreview === 'string'
        ? assetUrl(base, config.socialPreview)
        : config.socialPreview === false
          ? undefined
          : base + socialImagePath(page.route));
    return {
      route: page.route,
      file: page.file,
      title: fm.title,
      navTitle: titles.get(page.route) ?? options.firstHeadings?.get(page.route),
      heroDescription: fm.description,
      description: fm.description ?? config.description,
      image,
      // A 404.mdx page becomes 404.html: never indexed.
      noindex: page.route === '/404' ? true : (fm.noindex ?? config.seo.noindex),
      frontmatterNoindex: fm.noindex,
      redirect: fm.redirect === undefined ? undefined : routeUrl(base, fm.redirect),
      showPageTitle: fm.showPageTitle ?? config.content.showPageTitle,
      showPageImage: fm.showPageImage ?? config.content.showPageImage,
      socialImage: socialImage === undefined ? undefined : absolute(socialImage),
      markdownUrl: base + markdownPath(page.route),
      previous: fm.previous,
      next: fm.next,
      zoom: options.zoom.get(page.route) ?? false,
      ok: options.ok.get(page.route) ?? true,
    };
  });

  return {
    name: config.name,
    description: config.description,
    base,
    site,
    config,
    context,
    logo: {
      light: config.logo.light === undefined ? undefined : assetUrl(base, config.logo.light),
      dark: config.logo.dark ?? config.logo.light ? assetUrl(base, (config.logo.dark ?? config.logo.light)!) : undefined,
    },
    favicon,
    codeHost,
    pages,
    searchParts: searchParts(config, pages.map((page) => page.route), options.searchParts),
    // Only what the page shows: the key stays with the hosting server.
    chat: config.agent.key ? { placeholder: config.agent.placeholder, questions: config.agent.questions ?? [] } : undefined,
  };
}

/** `https://github.com/acme/widgets` -> `acme/widgets`; `https://github.com/acme` -> `acme`. */
export function codeHostName(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
    return path || parsed.host;
  } catch {
    return url;
  }
}
