import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';

/** Pages sent to Pagefind and not yet answered: enough to keep its process busy, few enough to hold little. */
const MAX_IN_FLIGHT = 32;

const BODY_MARK = ' data-pagefind-body';

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

/**
 * The Pagefind index of a built site, written to `<out>/pagefind/` (index, fragments and `pagefind.js`, which the
 * search box loads from the site's own origin). Pages are added as they are ready (the build cache's before
 * Astro renders the rest: Pagefind indexes in its own process meanwhile), then {@link write} writes it. Only each
 * page's `data-pagefind-body` (the article) is indexed. The Pagefind service process is shared by the whole Node
 * process; each build uses its own index and deletes it (the service is never closed here, other builds may be
 * using it).
 */
export class SearchIndex {
  readonly #out: string;
  readonly #index: pagefind.PagefindIndex;
  /** Files are read one after another and sent in order, a few adds in flight; the first failure is kept. */
  #queue: Promise<void> = Promise.resolve();
  readonly #inFlight = new Set<Promise<void>>();
  #failure: unknown;
  #pages = 0;

  private constructor(out: string, index: pagefind.PagefindIndex) {
    this.#out = out;
    this.#index = index;
  }

  static async create(out: string): Promise<SearchIndex> {
    const created = await pagefind.createIndex({ excludeSelectors: ['.copy-code', '[data-pagefind-ignore]'] });
    if (!created.index) throw new Error(`Pagefind could not start: ${created.errors.join('; ')}`);
    return new SearchIndex(out, created.index);
  }

  /** Queues HTML files (relative to the output folder), in name order. */
  add(files: readonly string[]): void {
    for (const file of [...files].sort()) {
      this.#queue = this.#queue.then(async () => {
        if (this.#failure) return;
        while (this.#inFlight.size >= MAX_IN_FLIGHT) await Promise.race(this.#inFlight);
        try {
          const content = searchDocument(await readFile(join(this.#out, file)));
          if (content === undefined) return;
          const added: Promise<void> = this.#index.addHTMLFile({ sourcePath: file, content }).then(
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
    }
  }

  /** Writes the index once every queued page is in; throws the first failure. */
  async write(): Promise<{ pages: number }> {
    try {
      await this.#queue;
      await Promise.all(this.#inFlight);
      if (this.#failure) throw this.#failure;
      const written = await this.#index.writeFiles({ outputPath: join(this.#out, 'pagefind') });
      if (written.errors.length) throw new Error(`Pagefind: ${written.errors.join('; ')}`);
      return { pages: this.#pages };
    } finally {
      await this.#index.deleteIndex();
    }
  }

  /** Drops the index (a build that failed before writing it). */
  async discard(): Promise<void> {
    await this.#queue;
    await Promise.all(this.#inFlight);
    await this.#index.deleteIndex();
  }
}
