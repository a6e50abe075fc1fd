/**
 * The server's search index of a site (serving/search.ts), built in a thread of the build process: it starts as soon
 * as the pages are prepared and runs while Astro renders in the main thread, instead of after the whole build
 * (~0.5 s of MiniSearch for 1,000 pages, on the core Astro leaves to Pagefind).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { storedSearchIndex, type SearchDocument } from '../serving/search.ts';

if (!isMainThread && parentPort) parentPort.postMessage(storedSearchIndex(workerData as SearchDocument[]));

/** The index of `documents` as a build stores it (compressed: storedSearchIndex), built in a thread of its own. */
export function buildSearchIndexInThread(documents: SearchDocument[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL(import.meta.url), { workerData: documents });
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`The search index's thread ended (exit code ${code})`)));
  });
}
