/**
 * The thread that searches hosted sites' indexes (site-searches.ts): one message a search, answered in order. It keeps
 * the indexes it loaded, the last used first; a request for one it lacks is answered `missing`, and comes again with
 * the stored index.
 */
import { parentPort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { SiteSearch, type SearchHit } from './search.ts';

export interface SearchRequest {
  id: number;
  /** The stored index's blob hash: builds of the same pages share it. */
  key: string;
  query: readonly string[];
  limit: number;
  /** The stored index (SiteSearch.fromStored), sent when the thread answered `missing`. */
  stored?: Uint8Array;
}

export type SearchReply = { id: number; hits: SearchHit[] } | { id: number; missing: true } | { id: number; error: string };

/** Indexes kept loaded, as the server kept them before searches had a thread. */
const LOADED = 32;

const indexes = new LRUCache<string, SiteSearch>({ max: LOADED });

function answer({ id, key, query, limit, stored }: SearchRequest): SearchReply {
  let index = indexes.get(key);
  if (!index && stored) indexes.set(key, (index = SiteSearch.fromStored(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength))));
  return index ? { id, hits: index.search(query, limit) } : { id, missing: true };
}

parentPort?.on('message', (request: SearchRequest) => {
  let reply: SearchReply;
  try {
    reply = answer(request);
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
