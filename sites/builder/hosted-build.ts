import type { DocsConfig } from '../config/schema/index.ts';
import type { SiteData } from '../src/lib/types.ts';
import type { Problem } from '../content/types.ts';
import { buildSite, type BuildOptions } from './index.ts';
import { listedPages, llmsFullText, redirectsMap } from './outputs.ts';
import { HOSTED_BASE, HOSTED_ORIGIN } from './hosted.ts';
import { markdownFile, routeUrl } from './site-data.ts';
import type { CardInput } from './social-card.ts';
import type { SocialCard } from './social-images.ts';

/** What a host needs of a built site beside its files: its pages in reading order and how its paths redirect. */
export interface SiteManifest {
  name: string;
  description?: string | undefined;
  /**
   * llms-full.txt is not a file of the build: the host composes it from `pages` and their `<page>.md` files
   * ({@link hostedLlmsFullTxt}). Absent in builds stored before this (2026-11-29), which have the file.
   */
  llmsFull?: 'composed' | undefined;
  /** Indexable pages in reading order (each one's Markdown is the build's `<page>.md`). */
  pages: { route: string; title: string; description?: string | undefined }[];
  /** Normalised path -> target (with the hosted base placeholder), from `redirects` and frontmatter `redirect`. */
  redirects: Record<string, string>;
  /** Routes whose page file carries a frontmatter `redirect` (they govern their own path: see pathAnswer). */
  pageRedirects: string[];
  /**
   * The generated social images, not drawn by the build: what every card shares (site name, code host, logo,
   * colour) and each image's title by its file in the site (`_social/guide.png`). The host draws one when asked.
   */
  social?: { shared: Omit<CardInput, 'title'>; titles: Record<string, string> } | undefined;
}

export interface HostedBuildResult {
  pages: number;
  problems: Problem[];
  manifest: SiteManifest;
  /** The manifest's pages with their Markdown: what a host indexes for search. */
  documents: HostedDocument[];
  /** The site's validated configuration (a host reads `agent` and `mcp`). */
  config: DocsConfig;
  /** HTML files rendered, and taken from the build cache. */
  rendered: number;
  cached: number;
  /** Files of the site in the build cache (`pageCacheDir`), not in `out`: each one's path in the site, and where it is. */
  cachedFiles: { path: string; from: string }[];
  /** The pages' Markdown files of the site (not in `out`): path in the site -> text. */
  pageMarkdown: Map<string, string>;
}

/** A page a host indexes for search: its route, titles and Markdown. */
export type HostedDocument = SiteManifest['pages'][number] & { markdown: string };

/** The manifest's pages: the indexable ones in reading order, each with the title it is listed by. */
function indexablePages(data: SiteData): SiteManifest['pages'] {
  return listedPages(data).map((page) => ({
    route: page.route,
    title: page.title ?? page.navTitle ?? (page.route === '/' ? data.name : page.route),
    ...(page.description ? { description: page.description } : {}),
  }));
}

/** The cards of a site's pages share everything but their titles (socialCards makes them so). */
function socialManifest(cards: SocialCard[]): SiteManifest['social'] {
  const [first] = cards;
  if (!first) return undefined;
  const { title: _title, ...shared } = first.card;
  return { shared, titles: Object.fromEntries(cards.map(({ path, card }) => [path, card.title])) };
}

/**
 * Builds a commit once for every way of serving it: internal URLs carry {@link HOSTED_BASE}, absolute ones
 * {@link HOSTED_ORIGIN}, and the host-dependent parts sit between condition markers. Errors fail the build
 * (a host keeps serving its last good one).
 */
export async function buildHostedSite(
  options: Pick<BuildOptions, 'source' | 'out' | 'onProgress' | 'cacheDir' | 'pageCacheDir'> & {
    codeHost: { name: string; url?: string };
    /** The result's `documents`, as soon as they are known: before anything is rendered. */
    onDocuments?: (documents: HostedDocument[]) => void;
  },
): Promise<HostedBuildResult> {
  let pages: SiteManifest['pages'] = [];
  let documents: HostedDocument[] = [];
  const { onDocuments, ...rest } = options;
  const result = await buildSite({
    ...rest,
    onPrepared: ({ data, pageMarkdown }) => {
      pages = indexablePages(data);
      documents = pages.map((page) => ({ ...page, markdown: pageMarkdown.get(markdownFile(page.route)) ?? '' }));
      onDocuments?.(documents);
    },
    base: HOSTED_BASE,
    site: HOSTED_ORIGIN,
    failOnErrors: true,
    drawSocialImages: false,
    // The host stores the cache's files from the cache: a one-page change creates a few files, not thousands.
    leaveCached: true,
    pageMarkdownFiles: false,
    llmsFullFile: false,
    context: { published: true, hosted: true, defaultBranch: true, customDomain: true, codeHost: options.codeHost },
  });
  const { data } = result;
  const pageMarkdown = result.pageMarkdown!;
  return {
    pages: result.pages,
    problems: result.problems,
    manifest: {
      name: data.name,
      ...(data.description ? { description: data.description } : {}),
      llmsFull: 'composed',
      pages,
      redirects: redirectsMap(data, data.config),
      pageRedirects: data.pages.filter((page) => page.redirect).map((page) => page.route),
      social: socialManifest(result.socialCards),
    },
    documents,
    config: data.config,
    rendered: result.rendered,
    cached: result.cached,
    cachedFiles: result.cachedFiles,
    pageMarkdown,
  };
}

/**
 * A hosted build's llms-full.txt (its manifest says `llmsFull: 'composed'`), as the build would have written it:
 * `markdownOf` gives each listed page's `<page>.md` text, by its path in the site. URLs carry the hosted placeholders,
 * resolved when served like every file's.
 */
export function hostedLlmsFullTxt(manifest: Pick<SiteManifest, 'name' | 'description'> & { pages: { route: string }[] }, markdownOf: (path: string) => string): string {
  return llmsFullText(
    manifest,
    manifest.pages.map((page) => ({ url: `${HOSTED_ORIGIN}${routeUrl(HOSTED_BASE, page.route)}`, markdown: markdownOf(markdownFile(page.route)) })),
  );
}
