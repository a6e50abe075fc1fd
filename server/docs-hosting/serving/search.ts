import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import { sha256Hex } from '../../platform/hash.ts';

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

/**
 * What separates words: white space, punctuation and symbols. MiniSearch's default keeps symbols in words, and the
 * Markdown's inline code with them: `pnpm` was the word "`pnpm", found only by fuzzy matching.
 */
const WORD_SEPARATORS = /[\s\p{Z}\p{Cc}\p{P}\p{S}]+/u;

const OPTIONS: Options<SearchDocument> = {
  fields: ['title', 'description', 'text'],
  tokenize: (text) => text.split(WORD_SEPARATORS),
  storeFields: ['title', 'description'],
  // Prefix and fuzzy matching are decided per word, within QUERY_BOUNDS (SiteSearch.search).
  searchOptions: { boost: { title: 3, description: 2 }, combineWith: 'OR' },
  // An index updated in place (updatedSearchIndex) is vacuumed before it is stored, all at once.
  autoVacuum: false,
};

/**
 * What one query may make the index do (docs/docs-hosting.md "MCP endpoint"). Unbounded (every word a prefix and
 * fuzzy), 250 one-letter words on a 300-page site took seconds, and a chat question with a long previous turn ran the
 * process out of memory: each word stood for a share of the vocabulary, every match merged into every page's result.
 */
export const QUERY_BOUNDS = {
  /** Distinct words searched; a longer query keeps its longest (short words say least about a page and match most). */
  words: 16,
  /** From this length a word also finds the words it begins (`webhook`: `webhooks`); shorter, it begins too many. */
  prefixFrom: 3,
  /** A word that begins more indexed words than this is matched whole (`con` on a large site). */
  prefixWords: 50,
  /**
   * Words of this length find words one edit away (a typo). Shorter, one edit finds unrelated words (`node`: `code`,
   * `mode`); two edits cost ~7x the time of one for little more.
   */
  fuzzyFrom: 5,
  /** Longer words are identifiers and hashes; approximate matching takes a table of the word's length squared. */
  fuzzyTo: 32,
} as const;

const tokenize = OPTIONS.tokenize!;
const processTerm: NonNullable<Options['processTerm']> = OPTIONS.processTerm ?? MiniSearch.getDefault('processTerm');

/**
 * The words a search looks for in `texts`, the most telling first: each text's distinct words as pages were indexed,
 * longest first, a text's before the next one's; at most {@link QUERY_BOUNDS}.words.
 */
export function queryWords(texts: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    const own = [...new Set(tokenize(text).flatMap((token) => processTerm(token) || []))].filter((word) => word && !words.has(word));
    for (const word of own.sort((a, b) => b.length - a.length)) {
      if (words.size === QUERY_BOUNDS.words) return [...words];
      words.add(word);
    }
  }
  return [...words];
}

/**
 * What a state must have been made with to be updated: its format, MiniSearch's version and the index's options. A
 * state of another (an upgrade, other fields or word separators) is not used: its unchanged pages would keep the old
 * terms.
 */
const STATE_VERSION = sha256Hex(JSON.stringify([1, JSON.parse(readFileSync(findPackageJSON('minisearch', import.meta.url)!, 'utf8')).version, OPTIONS, WORD_SEPARATORS.source]));
/** gzip level of the stored index: 4 takes a third of the time of 6 for ~10% more bytes (~0.5 MB at 1,000 pages). */
const STORED_LEVEL = 4;

function wholeIndex(documents: SearchDocument[]): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>(OPTIONS);
  index.addAll(documents);
  return index;
}

/** The serialised index of these pages. */
export function buildSearchIndex(documents: SearchDocument[]): string {
  return JSON.stringify(wholeIndex(documents));
}

/**
 * The index of `documents` as a build stores it: its JSON gzip-compressed (a 1,000-page site's 2 MB -> ~0.5 MB, a
 * new blob every build; read back by {@link SiteSearch.fromStored}).
 */
export function storedSearchIndex(documents: SearchDocument[]): Buffer {
  return gzipSync(buildSearchIndex(documents), { level: STORED_LEVEL });
}

const documentHash = (document: SearchDocument) => sha256Hex(JSON.stringify([document.title, document.description ?? null, document.text]));

/**
 * The index in `state` (a hash of each document it holds, then its JSON) with `documents`' changes made, and how
 * many documents it kept; undefined when `state` is not of this version.
 */
async function updatedIndex(documents: SearchDocument[], hashes: Map<string, string>, state: string): Promise<{ index: MiniSearch<SearchDocument>; kept: number } | undefined> {
  const newline = state.indexOf('\n');
  const head = JSON.parse(state.slice(0, newline)) as { version?: unknown; hashes?: unknown };
  if (head.version !== STATE_VERSION || !Array.isArray(head.hashes)) return undefined;
  const held = new Map(head.hashes as [string, string][]);
  const index = MiniSearch.loadJSON<SearchDocument>(state.slice(newline + 1), OPTIONS);
  let kept = 0;
  for (const [id, hash] of held) {
    if (hashes.get(id) === hash) kept++;
    else index.discard(id);
  }
  for (const document of documents) if (held.get(document.id) !== hashes.get(document.id)) index.add(document);
  // A discarded document stays in the terms until vacuumed, and a search counts it in a term's document frequency
  // until it meets it: scores would differ from an index made whole (and from one search to the next).
  await index.vacuum({ batchSize: Infinity });
  return { index, kept };
}

/**
 * The index of `documents` as a build stores it ({@link storedSearchIndex}), and the `state` the next build starts
 * from: the index of the repository's last build (`previous`, its state) with only the documents that changed taken
 * out and put in, instead of all indexed again (~0.2 of ~0.5 s at 1,000 pages, on the core Astro leaves to
 * Pagefind); it answers as one made whole. `kept`: the documents taken from `previous` as they were (0: made whole).
 * A state that is not one (another version, a file cut short, one that does not match its index) is not used.
 */
export async function updatedSearchIndex(documents: SearchDocument[], previous: string | undefined): Promise<{ stored: Buffer; state: string; kept: number }> {
  const hashes = new Map(documents.map((document) => [document.id, documentHash(document)]));
  const { index, kept } = (previous === undefined ? undefined : await updatedIndex(documents, hashes, previous).catch(() => undefined)) ?? { index: wholeIndex(documents), kept: 0 };
  const json = JSON.stringify(index);
  return { stored: gzipSync(json, { level: STORED_LEVEL }), state: `${JSON.stringify({ version: STATE_VERSION, hashes: [...hashes] })}\n${json}`, kept };
}

export class SiteSearch {
  readonly #index: MiniSearch<SearchDocument>;
  /** Every indexed word, sorted: the words a prefix begins are side by side. */
  readonly #vocabulary: string[];

  constructor(serialised: string) {
    const plain = JSON.parse(serialised) as AsPlainObject;
    this.#index = MiniSearch.loadJS<SearchDocument>(plain, OPTIONS);
    this.#vocabulary = plain.index.map(([word]) => word).sort();
  }

  /**
   * The index as a build stored it: gzip-compressed ({@link storedSearchIndex}), or the plain JSON that builds stored
   * before 2026-11-29.
   */
  static fromStored(stored: Buffer): SiteSearch {
    const gzipped = stored[0] === 0x1f && stored[1] === 0x8b;
    return new SiteSearch((gzipped ? gunzipSync(stored) : stored).toString('utf8'));
  }

  /**
   * The best `limit` pages for `query`: its {@link queryWords} (several texts: the first's words first), each matched
   * whole, as a prefix and with a typo as {@link QUERY_BOUNDS} allow.
   */
  search(query: string | readonly string[], limit = 10): SearchHit[] {
    const words = queryWords(typeof query === 'string' ? [query] : query);
    const { prefixFrom, fuzzyFrom, fuzzyTo } = QUERY_BOUNDS;
    return (
      this.#index
        // The words are the index's own tokens: joined by spaces, MiniSearch splits them back as they are.
        .search(words.join(' '), {
          prefix: (word) => word.length >= prefixFrom && this.#beginsFew(word),
          fuzzy: (word) => (word.length >= fuzzyFrom && word.length <= fuzzyTo ? 1 : false),
        })
        .slice(0, limit)
        // A page's matched words are for its snippet, which needs only a few.
        .map((hit) => ({ route: hit.id as string, title: hit.title as string, description: hit.description as string | undefined, score: hit.score, terms: hit.terms.slice(0, QUERY_BOUNDS.words) }))
    );
  }

  /** Whether `prefix` begins at most QUERY_BOUNDS.prefixWords indexed words. */
  #beginsFew(prefix: string): boolean {
    const vocabulary = this.#vocabulary;
    let low = 0;
    for (let high = vocabulary.length; low < high; ) {
      const middle = (low + high) >>> 1;
      if (vocabulary[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    return !vocabulary[low + QUERY_BOUNDS.prefixWords]?.startsWith(prefix);
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
