import { markdownFile, normalizeRoute, resolveHosted, routeUrl } from '../../../sites/index.ts';
import { snippet } from './search.ts';
import type { ServedSite } from './serve.ts';
import type { DocsSites } from './sites.ts';

/**
 * A served site's pages as text, for machines: what MCP's tools and the chat panel's retrieval read. Markdown comes
 * from the build's `<page>.md` files, resolved for where the site is served (its links point here).
 */

export interface PageSummary {
  title: string;
  url: string;
  /** The site path (base included): what the chat panel links. */
  path: string;
  description?: string | undefined;
}

export interface SearchResult extends PageSummary {
  snippet: string;
  score: number;
}

export class SiteContent {
  readonly #sites: DocsSites;
  readonly #site: ServedSite;

  constructor(sites: DocsSites, site: ServedSite) {
    this.#sites = sites;
    this.#site = site;
  }

  #summary(page: { route: string; title: string; description?: string | undefined }): PageSummary {
    const base = this.#site.served.base;
    return {
      title: page.title,
      url: this.#site.url(page.route),
      path: routeUrl(base, page.route),
      ...(page.description ? { description: page.description } : {}),
    };
  }

  /** Indexable pages in reading order. */
  pages(): PageSummary[] {
    return this.#site.build.manifest.pages.map((page) => this.#summary(page));
  }

  /**
   * A page's Markdown by its route, site path or URL (`/guides/start`, `guides/start.md`, an absolute URL of this
   * site); undefined when there is no such page.
   */
  read(reference: string): Promise<{ route: string; markdown: string } | undefined> {
    let path = reference.trim();
    const { origin, base } = this.#site.served;
    if (path.startsWith(origin)) path = path.slice(origin.length);
    if (base && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length);
    const route = normalizeRoute(path);
    // Search snippets and the chat panel's context read the same pages: each once per request.
    let read = this.#reads.get(route);
    if (!read) this.#reads.set(route, (read = this.#load(route)));
    return read;
  }

  readonly #reads = new Map<string, Promise<{ route: string; markdown: string } | undefined>>();

  async #load(route: string): Promise<{ route: string; markdown: string } | undefined> {
    const data = await this.#sites.file(this.#site.build, markdownFile(route));
    return data ? { route, markdown: resolveHosted(data.toString('utf8'), this.#site.served) } : undefined;
  }

  /** The best `limit` pages for `query`: texts, the most telling first (search.ts queryWords). */
  async search(query: readonly string[], limit: number): Promise<SearchResult[]> {
    const hits = await this.#sites.search(this.#site.build, query, limit);
    return Promise.all(
      hits.map(async (hit) => ({
        ...this.#summary(hit),
        score: Math.round(hit.score * 1000) / 1000,
        snippet: snippet((await this.read(hit.route))?.markdown ?? '', hit.terms),
      })),
    );
  }
}
