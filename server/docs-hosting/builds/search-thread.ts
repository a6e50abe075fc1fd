/**
 * The server's search index of a site (serving/search.ts), made in a thread of the build process: it starts as soon
 * as the pages are prepared and runs while Astro renders in the main thread, instead of after the whole build. It
 * starts from the index of the repository's last build (its state file) and changes only the pages that changed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { updatedSearchIndex, type SearchDocument } from '../serving/search.ts';

interface ThreadInput {
  documents: SearchDocument[];
  stateFile: string;
}

/** The stored index; the state for the next build written beside (atomically: a build reading it meanwhile sees the old one). */
async function run({ documents, stateFile }: ThreadInput): Promise<Buffer> {
  const previous = await readFile(stateFile, 'utf8').catch(() => undefined);
  const { stored, state } = await updatedSearchIndex(documents, previous);
  const temporary = `${stateFile}.${randomBytes(6).toString('hex')}.tmp`;
  // Not kept, the next build indexes every page again: not this build's failure.
  await mkdir(dirname(stateFile), { recursive: true })
    .then(() => writeFile(temporary, state))
    .then(() => rename(temporary, stateFile))
    .catch(() => rm(temporary, { force: true }));
  return stored;
}

if (!isMainThread && parentPort) parentPort.postMessage(await run(workerData as ThreadInput));

/**
 * The index of `documents` as a build stores it (compressed: storedSearchIndex), made in a thread of its own from
 * the state in `stateFile` (the repository's last build's), which it then replaces.
 */
export function buildSearchIndexInThread(documents: SearchDocument[], stateFile: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL(import.meta.url), { workerData: { documents, stateFile } satisfies ThreadInput });
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`The search index's thread ended (exit code ${code})`)));
  });
}
