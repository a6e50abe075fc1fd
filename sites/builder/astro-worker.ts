/**
 * An Astro build in a child process of its own (astro-processes.ts). What an Astro build imports, its prerender
 * bundle with every page it compiled, stays loaded as long as the process that imported it: a module is never
 * unloaded. Built in the build's own process, each batch of 500 pages of a 10,000-page site added ~80 MB that no
 * later batch freed (3.3 GB at the end). A worker thread frees its JavaScript heap when it ends but not the native
 * memory the build took (Vite's bundler, rolldown, is native code): the process still grew ~70 MB a batch.
 *
 * The process loads Astro as soon as it starts, then waits for its job (one message), sends `compiled` and
 * `rendered` as pages go through, then `done`, or `failed` with the error's name, message and stack. It ends
 * when its parent goes. Compiled modules are cached first (cache-folders.ts), so each batch's process loads Astro
 * from the cache.
 */
import type { AstroJob } from './astro-job.ts';
import { cacheCompiledModules } from './cache-folders.ts';

await cacheCompiledModules();
const { runAstroJob } = await import('./astro-job.ts');
// Started long before its job (a rebuild's: buildSite), it makes Shiki's highlighter with common grammars too
// (markdown/highlighter.ts). Not a batch's process, whose job is on its way: it would only wait for grammars.
if (process.argv.includes('--highlighter')) await (await import('./markdown/highlighter.ts')).warmHighlighter().catch(() => {});

export type AstroWorkerMessage =
  | { type: 'compiled' | 'rendered' | 'done' }
  | { type: 'failed'; name: string; message: string; stack?: string | undefined };

const post = (message: AstroWorkerMessage) => process.send!(message);
process.on('disconnect', () => process.exit(1));

process.once('message', async (job: AstroJob) => {
  try {
    await runAstroJob(job, { compiled: () => post({ type: 'compiled' }), rendered: () => post({ type: 'rendered' }) });
    post({ type: 'done' });
  } catch (error) {
    const { name = 'Error', message = String(error), stack } = error as Partial<Error>;
    post({ type: 'failed', name, message, stack });
  }
});
