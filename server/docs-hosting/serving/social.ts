import { cardKey, cardRenderer, type CardInput } from '../../../sites/index.ts';
import type { Database } from '../../platform/db/orm.ts';
import type { DocsSites } from './sites.ts';

/**
 * Social preview images of hosted sites, drawn when first asked for: a hosted build only describes them (drawing
 * one per page would hold a 1,000-page build up by about 17 s), and the URL its og:image names is answered from
 * here. An image is stored under its card's key ({@link cardKey}: title, site name, code host, logo, colour) as a
 * blob of the database (read, and kept in memory, as every other file of a site: DocsSites.storedBlob), so every
 * build and every process shares it, and a page whose title changed names another card: a stale image cannot be
 * served. Drawing (~25 ms) happens on a worker thread, so the event loop is never
 * held; the thread starts with the first request for a hosted site (its first image costs ~0.3 s more).
 */
export class SocialImages {
  readonly #db: Database;
  readonly #sites: DocsSites;
  readonly #log: (error: unknown) => void;
  /** Images being drawn or read: concurrent requests for one card share the work. */
  readonly #pending = new Map<string, Promise<Buffer>>();
  #renderer: ReturnType<typeof cardRenderer> | undefined;

  constructor(db: Database, sites: DocsSites, options: { log?: (error: unknown) => void } = {}) {
    this.#db = db;
    this.#sites = sites;
    this.#log = options.log ?? (() => {});
  }

  /** Starts the drawing thread and draws one card (loading its fonts and WebAssembly), in the background. */
  warm(): void {
    if (this.#renderer) return;
    this.#renderer = cardRenderer(1, { keepProcessAlive: false });
    this.#renderer.render({ title: 'Warm-up', siteName: 'Docs', accent: '#60a5fa' }).catch(() => {});
  }

  /**
   * The PNG of `card` and its key: from memory, the database, or drawn now (and stored). Undefined when it cannot be
   * drawn (a logo the renderer refuses, say): logged, and the drawing thread is started afresh for the next one.
   */
  async image(card: CardInput): Promise<{ key: string; png: Buffer } | undefined> {
    const key = cardKey(card);
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#load(key, card).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    let png: Buffer;
    try {
      png = await pending;
    } catch (error) {
      this.#log(error);
      const renderer = this.#renderer;
      this.#renderer = undefined;
      await renderer?.close().catch(() => {});
      return undefined;
    }
    return { key, png };
  }

  async #load(key: string, card: CardInput): Promise<Buffer> {
    const stored = await this.#sites.storedBlob(key);
    if (stored) return stored;
    this.warm();
    const png = await this.#renderer!.render(card);
    await this.#db.em().getConnection().execute('insert into docs_blob (hash, data, size) values (?, ?, ?) on conflict do nothing', [key, png, png.length]);
    return png;
  }

  async close(): Promise<void> {
    await this.#renderer?.close();
    this.#renderer = undefined;
  }
}
