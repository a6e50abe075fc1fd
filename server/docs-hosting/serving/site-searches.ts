import { Worker } from 'node:worker_threads';
import type { SearchHit } from './search.ts';
import type { SearchReply, SearchRequest } from './site-searches-thread.ts';

/**
 * Hosted sites' full-text searches (MCP `search_docs`, the chat panel's retrieval), run in a worker thread so that
 * none holds up the server's event loop: loading a site's index and searching it take from a millisecond to hundreds
 * of them as sites grow, on top of the bounds each query keeps (search.ts QUERY_BOUNDS). The thread keeps the indexes
 * it loaded; for one it lacks, it asks for the stored index, which the server reads and sends. A thread that dies (out
 * of memory, a bug) fails the searches it had; the next search starts another. Idle, it keeps no process alive.
 */
export class SiteSearches {
  #thread: Worker | undefined;
  readonly #pending = new Map<number, { resolve: (reply: SearchReply) => void; reject: (error: Error) => void }>();
  #nextId = 0;

  /**
   * The best `limit` pages for `query` (texts, the most telling first) in the index stored as blob `key`; `load` reads
   * that blob when the thread has not loaded it.
   */
  async search(key: string, load: () => Promise<Buffer>, query: readonly string[], limit: number): Promise<SearchHit[]> {
    let reply = await this.#ask({ key, query, limit });
    if ('missing' in reply) reply = await this.#ask({ key, query, limit, stored: await load() });
    if ('hits' in reply) return reply.hits;
    throw new Error('missing' in reply ? `The search thread could not load index ${key}` : reply.error);
  }

  close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    return thread ? thread.terminate().then(() => undefined) : Promise.resolve();
  }

  #ask(request: Omit<SearchRequest, 'id'>): Promise<SearchReply> {
    const thread = (this.#thread ??= this.#start());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      thread.postMessage({ id, ...request } satisfies SearchRequest);
    });
  }

  #start(): Worker {
    const thread = new Worker(new URL('./site-searches-thread.ts', import.meta.url));
    thread.unref();
    thread.on('message', (reply: SearchReply) => {
      this.#pending.get(reply.id)?.resolve(reply);
      this.#pending.delete(reply.id);
    });
    const fail = (error: Error) => {
      if (this.#thread !== thread) return;
      this.#thread = undefined;
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`The search thread ended (exit code ${code})`)));
    return thread;
  }
}
