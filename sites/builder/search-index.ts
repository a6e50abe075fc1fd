import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import type { BuildCache, PageOutput } from './build-cache.ts';

/** Pages sent to Pagefind and not yet answered: enough to keep its process busy, few enough to hold little. */
const MAX_IN_FLIGHT = 32;

const BODY_MARK = ' data-pagefind-body';

/**
 * What a part keeps of Pagefind's output: the index, the script and its worker and WebAssembly (the search box loads
 * them from the first part that has pages: builder/search-parts.ts). Pagefind's UI bundles are not used.
 */
const PART_FILES = /^(?:pagefind-entry\.json|.*\.pf_meta|index|fragment|filter|pagefind\.js|pagefind-worker\.js|wasm\..*)$/;

/**
 * What Pagefind reads of a built page: its `<html>` tag (the language) and `<title>`, and the page from the
 * `data-pagefind-body` element on (the article, then the footer). The sidebar before it (a link to every page,
 * the bulk of a large site's page) is left out: Pagefind indexes only that element anyway, and parsing a thousand
 * sidebars took most of the indexing time. Undefined for a page with no such element (noindex pages, 404). Works
 * on the bytes: only the parts kept are decoded.
 */
export function searchDocument(html: Buffer): string | undefined {
  const mark = html.indexOf(BODY_MARK);
  if (mark === -1) return undefined;
  const start = html.lastIndexOf('<', mark);
  const head = html.subarray(0, start).toString('utf8', 0, Math.min(start, 64 << 10));
  const htmlTag = /<html\b[^>]*>/i.exec(head)?.[0] ?? '<html>';
  const title = /<title>[^<]*<\/title>/i.exec(head)?.[0] ?? '';
  return `<!DOCTYPE html>${htmlTag}<head>${title}</head><body>${html.toString('utf8', start)}`;
}

/** What a search part is made from: its folder and its pages' files and keys (64 hex digits). */
export function searchPartKey(folder: string, outputs: readonly PageOutput[]): string {
  return createHash('sha256').update(`${folder}\0${outputs.map((o) => `${o.file}\0${o.key}`).sort().join('\0')}`).digest('hex');
}

/**
 * The Pagefind index of a built site, in parts (search-parts.ts) written to `<out>/pagefind/<language>/<n>/`, each
 * with `pagefind.js`: the search box loads one from the site's own origin, which merges the language's other
 * parts. A part whose pages are all unchanged since a build the cache kept it for is taken from the cache; the
 * others are indexed as their pages are ready (the build cache's before Astro renders the rest: Pagefind indexes in
 * its own process meanwhile), each written, kept and dropped from Pagefind as soon as its last page is in. Only
 * each page's `data-pagefind-body` (the article) is indexed.
 */
export class SearchIndex {
  /** The part of each HTML file; undefined for a part taken from the cache. */
  readonly #parts: Map<string, SearchPart | undefined>;
  readonly #indexed: SearchPart[];
  readonly restored: number;

  private constructor(parts: Map<string, SearchPart | undefined>, indexed: SearchPart[], restored: number) {
    this.#parts = parts;
    this.#indexed = indexed;
    this.restored = restored;
  }

  /**
   * The index in `parts` (folder -> its outputs: search-parts.ts); the parts the cache has are placed now. With
   * `leaveIn`, the parts stay in the cache instead (BuildOptions.leaveCached): those it has are not placed, those
   * indexed are moved there once written, and each one's files are recorded in `leaveIn` (path in the site -> where
   * the cache holds it). `has`: a file (path in the site) already in `out` as the cache has it (OutputFolder).
   */
  static async open(
    out: string,
    parts: Map<string, PageOutput[]>,
    cache?: BuildCache,
    options: { leaveIn?: Map<string, string>; has?: (path: string) => boolean } = {},
  ): Promise<SearchIndex> {
    const byFile = new Map<string, SearchPart | undefined>();
    const indexed: SearchPart[] = [];
    const { leaveIn, has } = options;
    let restored = 0;
    await Promise.all(
      [...parts].map(async ([folder, files]) => {
        const key = searchPartKey(folder, files);
        const dir = join(out, 'pagefind', folder);
        const left = (cached: Map<string, string> | undefined) => {
          if (leaveIn && cached) for (const [path, from] of cached) leaveIn.set(`pagefind/${folder}/${path}`, from);
        };
        const cached = await cache?.restoreSearchPart(key, dir, { leave: leaveIn !== undefined, has: has && ((path) => has(`pagefind/${folder}/${path}`)) });
        left(cached);
        const part = cached ? undefined : new SearchPart(dir, files.map((o) => o.file), async () => left(await cache?.saveSearchPart(key, dir, { move: leaveIn !== undefined })));
        if (part) indexed.push(part);
        else restored++;
        for (const output of files) byFile.set(output.file, part);
      }),
    );
    return new SearchIndex(byFile, indexed, restored);
  }

  /** The parts {@link write} indexes. */
  get indexed(): number {
    return this.#indexed.length;
  }

  /**
   * Queues HTML files (their paths in the site) that are ready, each read from where `at` says (the output folder,
   * or the build cache with BuildOptions.leaveCached); those of cached parts are not read.
   */
  add(files: readonly string[], at: (file: string) => string): void {
    for (const file of [...files].sort()) this.#parts.get(file)?.add(file, at(file));
  }

  /** Writes every part not yet written once its queued pages are in; throws the first failure. */
  async write(): Promise<{ pages: number }> {
    const pages = await Promise.all(this.#indexed.map((part) => part.write()));
    return { pages: pages.reduce((sum, n) => sum + n, 0) };
  }

  /** Drops the parts being indexed (a build that failed before writing them), once those being written are done. */
  async discard(): Promise<void> {
    await Promise.all(this.#indexed.map((part) => part.abandon()));
  }
}

/**
 * Indexes of this process open in Pagefind's service. When none is, the service's process is ended (a part's next
 * index starts another, in ~10 ms): it does not give the memory of a deleted index back to the system, so it held
 * the whole site's worth (~170 MB at 1,000 pages) by the last part instead of one part's (~100 MB).
 */
let openIndexes = 0;

/**
 * One part being indexed: a Pagefind index in Pagefind's service process (shared by the whole Node process; each
 * part uses its own index and deletes it), written to `dir` once every one of its files was added.
 */
class SearchPart {
  readonly #dir: string;
  readonly #keep: () => Promise<void>;
  /** Its files not added yet. */
  readonly #waiting: Set<string>;
  #index: Promise<pagefind.PagefindIndex> | undefined;
  /** Files are read one after another and sent in order, a few adds in flight; the first failure is kept. */
  #queue: Promise<void> = Promise.resolve();
  readonly #inFlight = new Set<Promise<void>>();
  #failure: unknown;
  #pages = 0;
  #written: Promise<number> | undefined;

  constructor(dir: string, files: string[], keep: () => Promise<void>) {
    this.#dir = dir;
    this.#waiting = new Set(files);
    this.#keep = keep;
  }

  #pagefind(): Promise<pagefind.PagefindIndex> {
    if (!this.#index) openIndexes++;
    this.#index ??= pagefind.createIndex({ excludeSelectors: ['.copy-code', '[data-pagefind-ignore]'] }).then((created) => {
      if (!created.index) throw new Error(`Pagefind could not start: ${created.errors.join('; ')}`);
      return created.index;
    });
    return this.#index;
  }

  /** `file`: its path in the site (Pagefind's URL for it); `path`: where to read it. */
  add(file: string, path: string): void {
    // A file comes once (404.html is in every Astro batch: its first copy is the one indexed, all are the same).
    if (!this.#waiting.delete(file)) return;
    this.#queue = this.#queue.then(async () => {
      if (this.#failure) return;
      while (this.#inFlight.size >= MAX_IN_FLIGHT) await Promise.race(this.#inFlight);
      try {
        const content = searchDocument(await readFile(path));
        if (content === undefined) return;
        const index = await this.#pagefind();
        const added: Promise<void> = index.addHTMLFile({ sourcePath: file, content }).then(
          (result) => {
            if (result.errors.length) this.#failure ??= new Error(`Pagefind: ${result.errors.join('; ')}`);
            else this.#pages++;
          },
          (error: unknown) => void (this.#failure ??= error),
        );
        this.#inFlight.add(added);
        void added.finally(() => this.#inFlight.delete(added));
      } catch (error) {
        this.#failure ??= error;
      }
    });
    // Written as soon as its last page is in, while the build goes on: Pagefind then holds one part, not the site.
    if (this.#waiting.size === 0) void this.write().catch(() => {});
  }

  /** Writes the part (once), keeps it in the build cache; returns how many pages it has. */
  write(): Promise<number> {
    this.#written ??= (async () => {
      try {
        await this.#settled();
        if (this.#failure) throw this.#failure;
        const index = await this.#pagefind();
        const written = await index.writeFiles({ outputPath: this.#dir });
        if (written.errors.length) throw new Error(`Pagefind: ${written.errors.join('; ')}`);
      } finally {
        await this.discard();
      }
      for (const name of await readdir(this.#dir)) if (!PART_FILES.test(name)) await rm(join(this.#dir, name), { recursive: true });
      await this.#keep();
      return this.#pages;
    })();
    return this.#written;
  }

  async #settled(): Promise<void> {
    await this.#queue;
    await Promise.all(this.#inFlight);
  }

  /** Waits for a write that began (its failure is not this caller's), then drops the index. */
  async abandon(): Promise<void> {
    await this.#written?.catch(() => {});
    await this.discard();
  }

  async discard(): Promise<void> {
    await this.#settled();
    const index = this.#index;
    this.#index = undefined;
    if (!index) return;
    try {
      await (await index.catch(() => undefined))?.deleteIndex();
    } finally {
      if (--openIndexes === 0) await pagefind.close();
    }
  }
}
