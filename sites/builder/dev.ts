import { basename, join, resolve } from 'node:path';
import { dev as astroDev } from 'astro';
import { siteLayout } from '../content/layout.ts';
import { astroConfig } from './astro-config.ts';
import { defaultCacheDir, prepareSite } from './index.ts';

export interface DevOptions {
  /** The docs folder. */
  source: string;
  /** Default 4321; 0 picks a free port. */
  port?: number;
  /** Default `localhost`. */
  host?: string;
  /** URL base path, as for builds; default `/`. */
  base?: string;
  onProblems?: (problems: Awaited<ReturnType<typeof prepareSite>>['problems']) => void;
}

export interface DevSite {
  /** The site's root URL (`http://localhost:4321/`). */
  url: string;
  close(): Promise<void>;
}

/**
 * A live preview of a docs folder: Astro's dev server on the site, reloading the browser when a page, docs.json or
 * an asset changes. Local preview: no analytics, tag manager or verification (context.published is false).
 */
export async function devSite(options: DevOptions): Promise<DevSite> {
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const source = resolve(options.source);
  const site = await prepareSite({ source, base: options.base, context: { published: false } });
  // Dev compiles each page when it is requested, from the file as it is then.
  site.state.prepared.clear();
  options.onProblems?.(site.problems);
  const state = site.state;
  state.reload = async () => {
    const next = await prepareSite({ source, base: options.base, context: { published: false } });
    state.data = next.state.data;
    Object.assign(state.sanitize, next.state.sanitize);
    options.onProblems?.(next.problems);
  };
  const config = astroConfig(state, { out: resolve(defaultCacheDir(source), 'dev-out'), cacheDir: defaultCacheDir(source), mode: 'dev' });
  const server = await astroDev({
    ...config,
    server: { port: options.port ?? 4321, host: options.host ?? 'localhost' },
  });
  // The integration watches the folder pages are read from (state.sourceDir). In docs.page's layout the
  // configuration file is one level up (content/layout.ts): watch it too, and hand its events to the integration
  // as its own configuration file's, so an edit re-reads the site and reloads the browser the same way.
  const layout = siteLayout(source);
  if (layout.root !== layout.dir) {
    server.watcher.add(layout.configFiles);
    for (const kind of ['add', 'change', 'unlink'] as const) {
      server.watcher.on(kind, (file: string) => {
        if (layout.configFiles.includes(file)) server.watcher.emit(kind, join(state.sourceDir, basename(file)));
      });
    }
  }
  const host = options.host ?? 'localhost';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.address.port}${state.data.base}/`;
  return { url, close: () => server.stop() };
}
