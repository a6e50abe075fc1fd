import { join } from 'node:path';
import mdx from '@astrojs/mdx';
import type { AstroInlineConfig } from 'astro';
import { docsIntegration, type SiteState } from './integration.ts';
import { markdownConfig } from './markdown/index.ts';
import { SITES_DIR } from './project.ts';

/** The Astro configuration of one site: the project in SITES_DIR, the site's data through the integration. */
export function astroConfig(state: SiteState, options: { out: string; cacheDir: string; mode: 'build' | 'dev'; serverDir?: string }): AstroInlineConfig {
  return {
    root: SITES_DIR,
    configFile: false,
    srcDir: join(SITES_DIR, 'src'),
    publicDir: join(SITES_DIR, 'public'),
    outDir: options.out,
    cacheDir: options.cacheDir,
    base: state.data.base || '/',
    ...(state.data.site ? { site: state.data.site } : {}),
    output: 'static',
    trailingSlash: 'ignore',
    logLevel: options.mode === 'dev' ? 'warn' : 'error',
    devToolbar: { enabled: false },
    build: { format: 'directory', ...(options.serverDir ? { server: options.serverDir } : {}) },
    image: { service: { entrypoint: 'astro/assets/services/noop' } },
    markdown: markdownConfig(),
    integrations: [mdx(), docsIntegration(state, { isolateServerBuild: options.serverDir !== undefined })],
    vite: {
      logLevel: options.mode === 'dev' ? 'warn' : 'error',
      cacheDir: join(options.cacheDir, 'vite'),
      // Components' scripts as files, never inlined: the Content-Security-Policy allows the site's own files and
      // only the layout's marked inline scripts (csp.ts).
      // The output folder is emptied by buildSite, which puts the build cache's pages there before Astro runs.
      build: { assetsInlineLimit: 0, emptyOutDir: false },
      server: { fs: { allow: [SITES_DIR, state.sourceDir] } },
    },
  };
}

