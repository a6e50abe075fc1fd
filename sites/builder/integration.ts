import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { HastPluginEntry, MdastPluginEntry } from 'satteri';
import type { Plugin } from 'vite';
import { validateFrontmatter } from '../config/load.ts';
import { MDX_FEATURES, preparePage } from '../content/mdx.ts';
import { createSanitizePlugin, type SanitizeOptions } from '../content/sanitize.ts';
import type { SiteData } from '../src/lib/types.ts';
import { ASSET_EXTENSIONS } from './assets.ts';
import { CONTENT_TYPES } from './content-types.ts';
import { devServerFolders, markdownPlugins } from './markdown/index.ts';

/** src/components/layout: the per-page asset components the Markdown extensions import (one folder below the package root, here and bundled). */
const LAYOUT_COMPONENTS = fileURLToPath(new URL('../src/components/layout/', import.meta.url));


/**
 * Everything one build (or dev server) renders from. Each call of buildSite/devSite makes its own; nothing is
 * shared between sites (the Astro integration and the Vite plugin close over this object).
 */
export interface SiteState {
  /** Absolute docs folder, no trailing slash. */
  sourceDir: string;
  data: SiteData;
  /** Absolute page file -> compiled MDX prepared before the build (dev prepares on every load). */
  prepared: Map<string, string>;
  sanitize: SanitizeOptions;
  /** Dev server only: re-reads the site (config, pages, titles) into this state after an edit. */
  reload?: () => Promise<void>;
  /** Builds: the MDX compiler took up a page (progress of the longest part of a build). */
  onPageCompile?: (file: string) => void;
  /**
   * Builds: the routes to render (the others come from the build cache); every page when unset. Only these pages
   * are compiled. A 404.mdx page is always loadable: 404.html is rendered whenever Astro runs.
   */
  render?: ReadonlySet<string>;
}

/**
 * Builds: set while Astro renders a site, called by the page route once per page it writes. One Astro build runs
 * at a time in a process (they share Astro's module state), so one slot is enough.
 */
declare global {
  var docsSitesPageRendered: ((route: string) => void) | undefined;
}

/** Whether an Astro build that renders `render` (every page when unset) loads the page at `route`. */
export const loadsPage = (render: ReadonlySet<string> | undefined, route: string) => !render || render.has(route) || route === '/404';

const VIRTUAL_SITE = 'virtual:docs/site';
const RESOLVED_SITE = `\0${VIRTUAL_SITE}`;

/**
 * `virtual:docs/docsearch`: DocSearch's component for a site with `search.docsearch`, an empty one for the others.
 * Its script bundles @docsearch/js (~0.5 MB), which took ~0.8 s of every build whether a page showed it or not.
 * The dev server always gets DocSearch: it bundles nothing, and the configuration can change while it runs.
 */
const VIRTUAL_DOCSEARCH = 'virtual:docs/docsearch';
const docSearchComponent = (state: Pick<SiteState, 'data' | 'reload'>) =>
  join(LAYOUT_COMPONENTS, state.reload || state.data.config.search.docsearch ? 'DocSearch.astro' : 'NoDocSearch.astro');

/**
 * The `virtual:docs/site` module: the site data, one loader per page to render (the MDX file, by absolute path)
 * and which routes those are (`render`: null for all).
 */
export function siteModule(state: SiteState): string {
  const { render } = state;
  const loaders = state.data.pages
    .filter((page) => loadsPage(render, page.route))
    .map((page) => `  ${JSON.stringify(page.route)}: () => import(${JSON.stringify(join(state.sourceDir, page.file))}),`)
    .join('\n');
  // One string literal parsed at run time: a bundler reads it as one token, where the object literal of a
  // 10,000-page site's data is a syntax tree of hundreds of thousands of nodes, bundled again for every batch.
  return `export default JSON.parse(${JSON.stringify(JSON.stringify(state.data))});\nexport const loaders = {\n${loaders}\n};\nexport const render = ${render ? JSON.stringify([...render]) : 'null'};\n`;
}

const CONFIG_FILE = /^docs\.(?:json|ya?ml)$/;

/** Serves the virtual module and hands the MDX compiler prepared page text for files of the docs folder. */
export function docsVitePlugin(state: SiteState): Plugin {
  return {
    name: 'docs-site',
    enforce: 'pre',
    configureServer(server) {
      if (!state.reload) return;
      const reload = state.reload;
      server.watcher.add(state.sourceDir);
      // Live reload: page edits re-run the load hook; docs.json and added/removed pages re-read the whole site.
      const onEvent = (kind: 'add' | 'change' | 'unlink') => async (file: string) => {
        if (!file.startsWith(`${state.sourceDir}/`)) return;
        const relative = file.slice(state.sourceDir.length + 1);
        const isPage = relative.endsWith('.mdx');
        if (!isPage && !CONFIG_FILE.test(relative)) {
          if (kind === 'change') server.environments.client.hot.send({ type: 'full-reload' });
          return;
        }
        await reload();
        for (const environment of Object.values(server.environments)) {
          const graph = environment.moduleGraph;
          const site = graph.getModuleById(RESOLVED_SITE);
          if (site) graph.invalidateModule(site);
          for (const module of graph.idToModuleMap.values()) {
            if (module.file?.startsWith(`${state.sourceDir}/`) && module.file.endsWith('.mdx')) graph.invalidateModule(module);
          }
        }
        server.environments.client.hot.send({ type: 'full-reload' });
      };
      server.watcher.on('add', onEvent('add'));
      server.watcher.on('change', onEvent('change'));
      server.watcher.on('unlink', onEvent('unlink'));
      // The docs folder's assets (logo, images) at their paths under the base path, as in a build.
      server.middlewares.use((req, res, next) => {
        const url = decodeURIComponent((req.url ?? '/').split('?', 1)[0]!);
        const base = state.data.base;
        if (!url.startsWith(`${base}/`)) return next();
        const relative = url.slice(base.length + 1);
        const ext = relative.slice(relative.lastIndexOf('.') + 1).toLowerCase();
        if (!ASSET_EXTENSIONS.has(ext) || relative.split('/').some((part) => part === '..' || part.startsWith('.'))) return next();
        const file = join(state.sourceDir, relative);
        if (!existsSync(file)) return next();
        res.setHeader('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
    resolveId(id) {
      if (id === VIRTUAL_SITE) return RESOLVED_SITE;
      if (id === VIRTUAL_DOCSEARCH) return docSearchComponent(state);
      return undefined;
    },
    load(id) {
      if (id === RESOLVED_SITE) return siteModule(state);
      const file = id.split('?', 1)[0]!;
      if (!file.endsWith('.mdx') || !file.startsWith(`${state.sourceDir}/`)) return undefined;
      const cached = state.prepared.get(file);
      if (cached !== undefined) {
        state.onPageCompile?.(file);
        return cached;
      }
      const relative = file.slice(state.sourceDir.length + 1);
      const fm = validateFrontmatter(relative, readFileSync(file, 'utf8'));
      return preparePage({ file: relative, body: fm.body, bodyLine: fm.bodyLine }, state.data.config.variables, state.sanitize).code;
    },
  };
}

/**
 * The Astro integration: the Vite plugin above, and in Astro's Sätteri pipeline the sanitising MDX plugin and the
 * Markdown extensions (builder/markdown/).
 *
 * For builds (`isolateServerBuild`) it also declares a static-only adapter whose only feature is
 * `preserveBuildServerDir`: Astro then writes its prerender bundle to `build.server` (a folder of this build)
 * instead of `<process.cwd()>/.astro/`, which every build of every process with that working directory shares.
 */
export function docsIntegration(state: SiteState, options: { isolateServerBuild?: boolean } = {}): AstroIntegration {
  return {
    name: 'docs-site',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        if (!options.isolateServerBuild) return;
        setAdapter({
          name: 'docs-static',
          entrypointResolution: 'auto',
          adapterFeatures: { buildOutput: 'static', preserveBuildServerDir: true },
          supportedAstroFeatures: { staticOutput: 'stable', hybridOutput: 'unsupported', serverOutput: 'unsupported', sharpImageService: 'unsupported' },
        });
      },
      'astro:config:setup': async ({ config, updateConfig }) => {
        const processor = config.markdown.processor as { name: string; options: { mdastPlugins?: MdastPluginEntry[]; hastPlugins?: HastPluginEntry[]; features?: Record<string, unknown> } };
        const { mdastPlugins, hastPlugins, features } = processor.options;
        if (processor.name !== 'satteri' || !Array.isArray(mdastPlugins) || !Array.isArray(hastPlugins) || typeof features !== 'object') {
          throw new Error('The docs renderer needs Astro\'s Sätteri Markdown processor (the default)');
        }
        // The sanitiser first, then the Markdown extensions (builder/markdown/), on the features the parse check uses.
        const extensions = await markdownPlugins(LAYOUT_COMPONENTS);
        mdastPlugins.unshift(createSanitizePlugin(state.sanitize), ...extensions.mdastPlugins);
        hastPlugins.push(...extensions.hastPlugins);
        Object.assign(features, MDX_FEATURES);
        updateConfig({ vite: { plugins: [docsVitePlugin(state)], server: { fs: { allow: devServerFolders() } } } });
      },
    },
  };
}
