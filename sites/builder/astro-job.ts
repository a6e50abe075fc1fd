import { build } from 'astro';
import { astroConfig } from './astro-config.ts';
import type { SiteState } from './integration.ts';

/** One Astro build of a site's pages: in the build's process, or in one of its own (astro-processes.ts). */
export interface AstroJob {
  state: Pick<SiteState, 'sourceDir' | 'data' | 'prepared' | 'sanitize' | 'render'>;
  out: string;
  cacheDir: string;
  /** Where Astro puts its prerender bundle (docsIntegration's `isolateServerBuild`). */
  serverDir: string;
  /** The build's mark for its own inline scripts (csp.ts). */
  ownScriptMark: string;
}

/** Runs the job; `compiled` and `rendered` are called once per page as it goes through. */
export async function runAstroJob(job: AstroJob, on: { compiled: () => void; rendered: () => void }): Promise<void> {
  const compiled = new Set<string>();
  const state: SiteState = { ...job.state, onPageCompile: (file) => compiled.size < compiled.add(file).size && on.compiled() };
  globalThis.docsSitesPageRendered = on.rendered;
  globalThis.docsOwnScriptMark = job.ownScriptMark;
  try {
    await build(astroConfig(state, { out: job.out, cacheDir: job.cacheDir, mode: 'build', serverDir: job.serverDir }));
  } finally {
    globalThis.docsSitesPageRendered = undefined;
    globalThis.docsOwnScriptMark = undefined;
  }
}
