/**
 * The server's search index of a site (serving/search.ts), made in a thread of the build process: it starts as soon
 * as the pages are prepared and runs while Astro renders in the main thread, instead of after the whole build. It
 * starts from the index of the repository's last build (its state file) and changes only the pages that changed.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
// Not through sites/index.ts, which loads the whole builder (~0.75 s of this thread's start).
import { writeAtomically } from '../../../sites/builder/build-cache.ts';
import { updatedSearchIndex, type SearchDocument } from '../serving/search.ts';

interface ThreadInput {
  documents: SearchDocument[];
  stateFile: string;
}

/** A temporary state older than this is one a build killed before its rename left: removed. */
const LEFTOVER_MS = 60 * 60_000;

/** The stored index; the state for the next build written beside (atomically: a build reading it meanwhile sees the old one). */
async function run({ documents, stateFile }: ThreadInput): Promise<Buffer> {
  const previous = await readFile(stateFile, 'utf8').catch(() => undefined);
  const folder = dirname(stateFile);
  const leftovers = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.startsWith(`${basename(stateFile)}.`) && name.endsWith('.tmp'));
  for (const name of leftovers) {
    const info = await stat(join(folder, name)).catch(() => undefined);
    if (info && info.mtimeMs < Date.now() - LEFTOVER_MS) await rm(join(folder, name), { force: true });
  }
  const { stored, state } = await updatedSearchIndex(documents, previous);
  // Not kept, the next build indexes every page again: not this build's failure.
  await mkdir(folder, { recursive: true })
    .then(() => writeAtomically(stateFile, state))
    .catch(() => {});
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
