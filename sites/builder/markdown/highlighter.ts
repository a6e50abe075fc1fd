import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { markdownConfig } from './index.ts';

/**
 * Languages whose grammars a warmed highlighter has loaded: those docs pages use most. Loading TypeScript's took
 * ~135 ms of the first page that had a block of it.
 */
const COMMON_LANGUAGES = ['typescript', 'tsx', 'javascript', 'jsx', 'json', 'shellscript', 'yaml', 'python', 'html', 'css', 'diff', 'toml', 'go', 'rust', 'sql'];

/**
 * Makes Astro's Shiki highlighter ahead of a build, with the grammars of {@link COMMON_LANGUAGES}: a hosting
 * server's spare build process does it while it waits for its build (the highlighter and a grammar or two took
 * ~0.3 s of a one-page build). Astro keeps one highlighter per theme, themes and aliases in
 * `@astrojs/internal-helpers/shiki` (`createShikiHighlighter`); made here through that same module (resolved as
 * Astro's Markdown processor resolves it) with the options Astro passes, it is the one a build in this process
 * highlights with. Each block is still highlighted with the build's own options (transformers, colours): the pages
 * are the same either way.
 */
export async function warmHighlighter(): Promise<void> {
  // Each package resolved from the one that depends on it: ours -> @astrojs/mdx -> its Markdown processor.
  const requireBeside = (module: string, parent: NodeJS.Require) => createRequire(parent.resolve(module));
  const processor = requireBeside('@astrojs/markdown-satteri', requireBeside('@astrojs/mdx', createRequire(import.meta.url)));
  const load = async <T>(specifier: string) => (await import(pathToFileURL(processor.resolve(specifier)).href)) as T;
  const [{ createShikiHighlighter }, { markdownConfigDefaults }] = await Promise.all([
    load<{ createShikiHighlighter: (options: object) => Promise<unknown> }>('@astrojs/internal-helpers/shiki'),
    load<{ markdownConfigDefaults: { shikiConfig: { theme: string } } }>('@astrojs/internal-helpers/markdown'),
  ]);
  const { shikiConfig } = markdownConfig();
  await createShikiHighlighter({ langs: COMMON_LANGUAGES, theme: markdownConfigDefaults.shikiConfig.theme, themes: shikiConfig?.themes, langAlias: shikiConfig?.langAlias });
}
