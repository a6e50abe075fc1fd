/**
 * One hosted build, in a child process of the server (builder.ts): Astro's build is CPU- and
 * memory-heavy and must not stall the server's event loop, and a crash or a timeout must only end this process.
 *
 * The process starts before its build is known (a spare: builder.ts), loads what rendering needs, and reads its
 * input, one JSON line on stdin: `{ source, out, searchIndexFile, searchStateFile, markdownFile, cacheDir, pageCacheDir, codeHost }`;
 * it ends without building when stdin ends first (the server went). Output: JSON lines on stdout:
 * `{ type: 'progress', ... }` while building (`message` with the `cache` phase), then `{ type: 'done', pages,
 * problems, manifest, cachedFiles }` (the search index is written next to `out`), or `{ type: 'failed', error, problems? }`.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { BuildError, buildHostedSite, cacheCompiledModules, keepYoungGenerationSmall, warmRenderer } from '../../../sites/index.ts';
import type { BuildManifest } from '../entities.ts';
import { sha256Hex } from '../../platform/hash.ts';
import { buildSearchIndexInThread } from './search-thread.ts';

export interface WorkerInput {
  source: string;
  out: string;
  /** Where the search index goes, gzip-compressed (outside `out`: it is not a file of the site). */
  searchIndexFile: string;
  /** The repository's search index as its last build left it, replaced by this build's (search-thread.ts). */
  searchStateFile: string;
  /** Where the pages' Markdown files of the site go, all in one file (a JSON `[path in the site, text]` line each), not in `out`. */
  markdownFile: string;
  /** Astro's and Vite's caches: in the build's scratch dir, removed with it (by default they would pile up in TMPDIR). */
  cacheDir: string;
  /** The repository's build cache (rendered pages), kept between its builds (sites/builder/build-cache.ts). */
  pageCacheDir: string;
  codeHost: { name: string; url?: string };
}

export type WorkerMessage =
  | { type: 'progress'; phase: string; done?: number; total?: number; message?: string }
  | {
      type: 'done';
      pages: number;
      problems: unknown[];
      manifest: Omit<BuildManifest, 'searchIndex'>;
      /** Files of the site the build left in the repository's build cache: each one's path there, relative to `pageCacheDir`. */
      cachedFiles: { path: string; from: string }[];
    }
  | { type: 'failed'; error: string; problems?: unknown[] };

const send = (message: WorkerMessage) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** The build's input: the first line on stdin; undefined when stdin ends first. */
async function readInput(): Promise<WorkerInput | undefined> {
  const lines = createInterface({ input: process.stdin });
  try {
    for await (const line of lines) return JSON.parse(line) as WorkerInput;
    return undefined;
  } finally {
    lines.close();
    process.stdin.destroy(); // nothing more comes: it must not keep the process alive
  }
}

async function run(input: WorkerInput) {
  // Whatever the build starts writes its home files in the build's scratch folder, removed with it.
  process.env.HOME = dirname(input.out);
  let lastProgress = 0;
  let searchIndex: Promise<Uint8Array> | undefined;
  const result = await buildHostedSite({
    source: input.source,
    out: input.out,
    cacheDir: input.cacheDir,
    pageCacheDir: input.pageCacheDir,
    codeHost: input.codeHost,
    onDocuments: (documents) => {
      searchIndex = buildSearchIndexInThread(
        documents.map(({ route, title, description, markdown }) => ({ id: route, title, description, text: markdown })),
        input.searchStateFile,
      );
      searchIndex.catch(() => {}); // awaited below, unless the build fails first
    },
    onProgress: ({ phase, done, total, message }) => {
      // At most a few messages a second: the server records progress, it does not need every page.
      const now = Date.now();
      if (done !== undefined && done !== total && now - lastProgress < 250) return;
      lastProgress = now;
      // A `cache` message says why the repository's build cache was not kept (the server logs it).
      send({ type: 'progress', phase, ...(done !== undefined ? { done } : {}), ...(total !== undefined ? { total } : {}), ...(phase === 'cache' && message ? { message } : {}) });
    },
  });
  await writeFile(input.searchIndexFile, await searchIndex!);
  await writeFile(input.markdownFile, [...result.pageMarkdown].map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  const { agent, mcp } = result.config;
  send({
    type: 'done',
    pages: result.pages,
    problems: result.problems,
    cachedFiles: result.cachedFiles.map(({ path, from }) => ({ path, from: relative(input.pageCacheDir, from) })),
    manifest: {
      ...result.manifest,
      mcp: { enabled: mcp.enabled },
      htmlFiles: { rendered: result.rendered, cached: result.cached },
      agent: {
        ...(agent.key ? { keyHash: sha256Hex(agent.key) } : {}),
        ...(agent.models ? { models: agent.models as Record<string, string> } : {}),
        limits: agent.limits,
      },
    },
  });
}

// A build outlives nothing: when the server that started it dies (this process is handed to another parent), it
// stops too; the build is claimed again once its lease runs out.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(1), 1000).unref();

// The server's NODE_COMPILE_CACHE folder (builder.ts), pruned of what past builds left (their prerender bundles); then
// Astro, Vite and Shiki's grammars are loaded while the build is not known yet.
await cacheCompiledModules();
keepYoungGenerationSmall();
const warmed = warmRenderer().catch(() => {}); // a failure here is the build's own, when it loads them again
try {
  const input = await readInput();
  await warmed;
  if (input) await run(input);
} catch (error) {
  if (error instanceof BuildError) send({ type: 'failed', error: error.message, problems: error.problems });
  else send({ type: 'failed', error: `The build crashed: ${(error as Error).message ?? String(error)}` });
  process.exitCode = 1;
}
