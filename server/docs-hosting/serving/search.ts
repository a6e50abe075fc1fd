import { gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type Options } from 'minisearch';

/**
 * The server-side full-text index of a built site (MiniSearch), over each listed page's Markdown: what MCP's
 * `search_docs` tool and the chat panel's retrieval query. Pagefind serves readers in the browser; this one runs
 * where the server needs answers. Built once per build (in the build worker), loaded lazily per build.
 */

export interface SearchDocument {
  /** The page's route (`/guides/start`). */
  id: string;
  title: string;
  description?: string | undefined;
  text: string;
}

export interface SearchHit {
  route: string;
  title: string;
  description?: string | undefined;
  score: number;
  /** The query's words as found in the page (for snippets). */
  terms: string[];
}

const OPTIONS: Options<SearchDocument> = {
  fields: ['title', 'description', 'text'],
  storeFields: ['title', 'description'],
  searchOptions: { boost: { title: 3, description: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'OR' },
};

/** The serialised index of these pages. */
export function buildSearchIndex(documents: SearchDocument[]): string {
  const index = new MiniSearch<SearchDocument>(OPTIONS);
  index.addAll(documents);
  return JSON.stringify(index);
}

/**
 * The index of `documents` as a build stores it: its JSON gzip-compressed (a 1,000-page site's 2 MB -> ~0.4 MB, a
 * new blob every build; read back by {@link SiteSearch.fromStored}).
 */
export function storedSearchIndex(documents: SearchDocument[]): Buffer {
  return gzipSync(buildSearchIndex(documents));
}

export class SiteSearch {
  readonly #index: MiniSearch<SearchDocument>;

  constructor(serialised: string) {
    this.#index = MiniSearch.loadJSON<SearchDocument>(serialised, OPTIONS);
  }

  /**
   * The index as a build stored it: gzip-compressed ({@link storedSearchIndex}), or the plain JSON that builds stored
   * before 2026-11-29.
   */
  static fromStored(stored: Buffer): SiteSearch {
    const gzipped = stored[0] === 0x1f && stored[1] === 0x8b;
    return new SiteSearch((gzipped ? gunzipSync(stored) : stored).toString('utf8'));
  }

  search(query: string, limit = 10): SearchHit[] {
    return this.#index
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ route: hit.id as string, title: hit.title as string, description: hit.description as string | undefined, score: hit.score, terms: hit.terms }));
  }
}

/** About `length` characters of `text` around the first of `terms` (the start when none is found), on word boundaries. */
export function snippet(text: string, terms: string[], length = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const at = terms.map((term) => lower.indexOf(term.toLowerCase())).filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? 0;
  let start = Math.max(0, at - Math.floor(length / 3));
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start;
  let end = Math.min(flat.length, start + length);
  if (end < flat.length) end = flat.lastIndexOf(' ', end) > start ? flat.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
