import type { DocsConfig, Neighbour } from '../../config/schema/index.ts';

/** Where and how a site is served; decides which scripts and meta tags are injected. */
export interface RenderContext {
  /** False for local builds and previews: no analytics, tag manager or verification is injected. */
  published: boolean;
  /** Served from the repository's default branch: the site-verification meta tag is rendered only then. */
  defaultBranch: boolean;
  /** Served on a mapped custom domain or vanity subdomain: `scripts.altAnalytics` only then. */
  customDomain: boolean;
  /** The repository on its code host: `owner/repo` and its URL. */
  codeHost?: { name: string; url?: string | undefined } | undefined;
  /**
   * Built once for every way of serving it (sites/builder/hosted.ts): the parts that depend on `defaultBranch` and
   * `customDomain` are kept between markers the host resolves per response, whatever those two say.
   */
  hosted?: boolean | undefined;
}

export interface PageData {
  route: string;
  /** Relative to the docs folder. */
  file: string;
  /** Frontmatter `title`. */
  title?: string | undefined;
  /** Title used when the page has no frontmatter title: its sidebar title, else its first `# heading`. */
  navTitle?: string | undefined;
  /** Frontmatter `description` (the hero shows only this one). */
  heroDescription?: string | undefined;
  /** Frontmatter `description`, else the site's (meta tags). */
  description?: string | undefined;
  /** Frontmatter `image` as a URL (repository paths made site paths). */
  image?: string | undefined;
  noindex: boolean;
  /** Frontmatter `noindex` as written (undefined when absent). */
  frontmatterNoindex?: boolean | undefined;
  /** Frontmatter `redirect`, resolved: internal paths carry the base path. */
  redirect?: string | undefined;
  showPageTitle: boolean;
  showPageImage: boolean;
  /** og:image: frontmatter `image` > `socialPreview` > the generated image; none with `socialPreview: false`. */
  socialImage?: string | undefined;
  /** URL of the page's Markdown (`<page>.md`). */
  markdownUrl: string;
  previous?: Neighbour | undefined;
  next?: Neighbour | undefined;
  /** The page has images that can zoom (site-wide `content.zoomImages` or a `data-zoom` image). */
  zoom: boolean;
  /** Whether the page's MDX parsed (false: it renders a notice). */
  ok: boolean;
}

/** Everything the Astro project renders from, serialised into the `virtual:docs/site` module. */
export interface SiteData {
  name: string;
  description?: string | undefined;
  /** URL base path without trailing slash: '' at the root, `/owner/repo` otherwise. */
  base: string;
  /** Absolute origin (and path prefix, if any) for canonical, sitemap and og URLs; none when unknown. */
  site?: string | undefined;
  config: DocsConfig;
  context: RenderContext;
  logo: { light?: string | undefined; dark?: string | undefined };
  favicon?: { light?: string | undefined; dark?: string | undefined } | undefined;
  /** The code-host link in the header (context.codeHost, else social.codeHost). */
  codeHost?: { label: string; url: string } | undefined;
  pages: PageData[];
  /** Parts of the Pagefind index per language (`pagefind/<language>/<n>/`; builder/search-parts.ts). */
  searchParts: Record<string, number>;
  /**
   * The chat panel (`agent`), only when `agent.key` is set. The key itself is never copied here: it must not reach
   * the built site (the hosting server answers `POST <base>/_chat` with it).
   */
  chat?: { placeholder?: string | undefined; questions: string[] } | undefined;
}
