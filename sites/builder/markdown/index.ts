import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AstroInlineConfig } from 'astro';
import type { HastPluginEntry, MdastPluginEntry } from 'satteri';
import { codeTitleTransformer } from '../../src/components/mdx/code-meta.ts';
import { copyButtonTransformer } from '../../src/lib/code.ts';
import { createAlertsPlugin } from './alerts.ts';
import { codeNotationTransformers } from './code-notation.ts';
import { createCodeTitlePlugin } from './code-title.ts';
import { createLanguagesPlugin, LANGUAGE_ALIASES, languageLabelTransformer, shikiLanguageNames } from './languages.ts';
import { createKatexPlugin, createMathPlugin } from './math.ts';
import { createMermaidPlugin } from './mermaid.ts';

/**
 * Markdown that docs.page and Mintlify both support, for the MDX compiler (Astro 7's Sätteri processor) and
 * Shiki: one module per extension in this folder.
 *
 * - alerts.ts: GitHub alerts (`> [!NOTE]`…) as callouts.
 * - languages.ts: `npm`, `pnpm`, `curl`… fences highlighted as shell; unknown languages as plain text, quietly.
 * - code-notation.ts: Shiki's `[!code …]` notations, line highlight and focus, line numbers.
 * - code-title.ts: a titled fence outside <CodeGroup> gets its title as a header.
 * - mermaid.ts: Mermaid diagrams (client-side, own origin, only on pages with one).
 * - math.ts: `$…$` and `$$…$$` with KaTeX at build time (its stylesheet only on pages with math).
 */

/** `astroConfig().markdown`: Shiki with both themes as CSS variables, our aliases and transformers. */
export function markdownConfig(): NonNullable<AstroInlineConfig['markdown']> {
  return {
    syntaxHighlight: { type: 'shiki', excludeLangs: ['math', 'mermaid'] },
    shikiConfig: {
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-default' },
      defaultColor: false,
      langAlias: { ...LANGUAGE_ALIASES },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      transformers: [...codeNotationTransformers(), codeTitleTransformer, languageLabelTransformer, copyButtonTransformer] as any[],
    },
  };
}

/**
 * Folders the dev server must serve files from besides the project and the docs folder: KaTeX's fonts, which its
 * stylesheet names by relative URL (a build emits them into `_astro/`).
 */
export function devServerFolders(): string[] {
  return [join(dirname(createRequire(import.meta.url).resolve('katex/package.json')), 'dist', 'fonts')];
}

let languages: Promise<Set<string>> | undefined;

/**
 * The Sätteri plugins of the extensions, run after the sanitiser (mdast) and after Shiki (hast).
 * `layoutComponents`: the absolute folder of src/components/layout (the per-page asset components).
 */
export async function markdownPlugins(layoutComponents: string): Promise<{ mdastPlugins: MdastPluginEntry[]; hastPlugins: HastPluginEntry[] }> {
  const known = await (languages ??= shikiLanguageNames());
  return {
    mdastPlugins: [
      createAlertsPlugin(),
      createLanguagesPlugin(known),
      createMermaidPlugin(join(layoutComponents, 'MermaidDiagrams.astro')),
      createMathPlugin(join(layoutComponents, 'MathStyles.astro')),
    ],
    hastPlugins: [createKatexPlugin(), createCodeTitlePlugin()],
  };
}
