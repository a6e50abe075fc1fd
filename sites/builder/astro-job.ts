import { build } from 'astro';
import { astroConfig } from './astro-config.ts';
import type { SiteState } from './integration.ts';

type BuildOptions = NonNullable<Parameters<typeof build>[1]>;

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
    // `sync: false`: no type generation nor content layer sync (a temporary Vite server of its own, ~0.2-0.6 s of
    // every Astro build): a site's pages are not content collections and nothing reads the types. The option is
    // Astro's builder's (AstroBuilderOptions), passed through by build() though its own type does not name it.
    await build(astroConfig(state, { out: job.out, cacheDir: job.cacheDir, mode: 'build', serverDir: job.serverDir }), { sync: false } as BuildOptions);
  } finally {
    globalThis.docsSitesPageRendered = undefined;
    globalThis.docsOwnScriptMark = undefined;
  }
}
