import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { validateFrontmatter } from '../config/load.ts';
import { preparePage } from '../source/mdx.ts';
import { createSanitizePlugin, type SanitizeOptions } from '../source/sanitize.ts';
import type { SiteData } from '../src/lib/types.ts';

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
}

const VIRTUAL_SITE = 'virtual:docs/site';
const RESOLVED_SITE = `\0${VIRTUAL_SITE}`;

/** The `virtual:docs/site` module: the site data and one loader per page (the MDX file, by absolute path). */
export function siteModule(state: SiteState): string {
  const loaders = state.data.pages
    .map((page) => `  ${JSON.stringify(page.route)}: () => import(${JSON.stringify(join(state.sourceDir, page.file))}),`)
    .join('\n');
  return `export default ${JSON.stringify(state.data)};\nexport const loaders = {\n${loaders}\n};\n`;
}

/** Serves the virtual module and hands the MDX compiler prepared page text for files of the docs folder. */
export function docsVitePlugin(state: SiteState): Plugin {
  return {
    name: 'docs-site',
    enforce: 'pre',
    resolveId(id) {
      if (id === VIRTUAL_SITE) return RESOLVED_SITE;
      return undefined;
    },
    load(id) {
      if (id === RESOLVED_SITE) return siteModule(state);
      const file = id.split('?', 1)[0]!;
      if (!file.endsWith('.mdx') || !file.startsWith(`${state.sourceDir}/`)) return undefined;
      const cached = state.prepared.get(file);
      if (cached !== undefined) return cached;
      const relative = file.slice(state.sourceDir.length + 1);
      const fm = validateFrontmatter(relative, readFileSync(file, 'utf8'));
      return preparePage({ file: relative, body: fm.body, bodyLine: fm.bodyLine }, state.data.config.variables, state.sanitize).code;
    },
  };
}

/** The Astro integration: the Vite plugin above and the sanitising MDX plugin in Astro's Sätteri pipeline. */
export function docsIntegration(state: SiteState): AstroIntegration {
  return {
    name: 'docs-site',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        const processor = config.markdown.processor as { name: string; options: { mdastPlugins?: unknown[] } };
        if (processor.name !== 'satteri' || !Array.isArray(processor.options.mdastPlugins)) {
          throw new Error('The docs renderer needs Astro\'s Sätteri Markdown processor (the default)');
        }
        processor.options.mdastPlugins.unshift(createSanitizePlugin(state.sanitize));
        updateConfig({ vite: { plugins: [docsVitePlugin(state)] } });
      },
    },
  };
}
