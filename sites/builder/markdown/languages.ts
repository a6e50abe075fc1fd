import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { MdastPluginDefinition } from 'satteri';

/**
 * Code block languages. A fence's language names its highlighting and its label (`data-language` on the `<pre>`,
 * which <CodeGroup> shows as the tab label when the block has no title):
 *
 * - Package managers and command-line tools that docs.page and Mintlify pages put on fences (```` ```npm ````,
 *   ```` ```pnpm ````, ```` ```curl ````…) are highlighted as shell and keep their own name as the label (Shiki
 *   already knows `sh`, `shell`, `zsh`, `bash`, and `console`/`shellsession` for sessions with prompts).
 * - A language Shiki does not know is highlighted as plain text, without Astro's warning for every block, and
 *   labelled with the name written on the fence.
 */

/** Fence names highlighted as shell (Shiki's `shellscript`), beyond Shiki's own aliases. */
export const SHELL_ALIASES = ['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'deno', 'curl', 'wget', 'terminal', 'cli', 'command'] as const;

/** `markdown.shikiConfig.langAlias`: our aliases, resolved by Astro's Shiki highlighter. */
export const LANGUAGE_ALIASES: Readonly<Record<string, string>> = Object.fromEntries(SHELL_ALIASES.map((name) => [name, 'shellscript']));

/** Languages handled without Shiki (Astro leaves `math` out of highlighting; `mermaid` becomes a diagram). */
const NOT_HIGHLIGHTED = new Set(['math', 'mermaid', 'plaintext', 'text', 'txt', 'plain', 'ansi']);

/** The key in a fence's meta string that carries the name written on the fence when the block falls back. */
export const LANGUAGE_META_KEY = 'data-docs-language';

/**
 * Every language id and alias the Shiki that Astro highlights with knows, lower-cased. Shiki is Astro's
 * dependency (not ours): it is resolved from Astro's package, so the list is always the highlighter's own.
 */
export async function shikiLanguageNames(): Promise<Set<string>> {
  const fromAstro = createRequire(createRequire(import.meta.url).resolve('astro/package.json'));
  const { bundledLanguagesInfo } = (await import(pathToFileURL(fromAstro.resolve('shiki/langs')).href)) as {
    bundledLanguagesInfo: { id: string; aliases?: string[] }[];
  };
  const names = new Set<string>();
  for (const info of bundledLanguagesInfo) {
    names.add(info.id.toLowerCase());
    for (const alias of info.aliases ?? []) names.add(alias.toLowerCase());
  }
  return names;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

/**
 * Mdast plugin: a fence's language as Shiki will read it. Known names (any case) are lower-cased; unknown ones
 * become `plaintext` with the written name kept in the meta string for {@link languageLabelTransformer}.
 */
export function createLanguagesPlugin(known: ReadonlySet<string>): MdastPluginDefinition {
  return {
    name: 'docs-code-languages',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    code(node: AnyNode, ctx: any) {
      const lang: string | null | undefined = node.lang;
      if (!lang) return;
      const lower = lang.toLowerCase();
      if (known.has(lower) || NOT_HIGHLIGHTED.has(lower) || Object.hasOwn(LANGUAGE_ALIASES, lower)) {
        if (lower !== lang) ctx.setProperty(node, 'lang', lower);
        return;
      }
      ctx.setProperty(node, 'lang', 'plaintext');
      ctx.setProperty(node, 'meta', `${node.meta ?? ''} ${LANGUAGE_META_KEY}=${encodeURIComponent(lang)}`.trim());
    },
  } as MdastPluginDefinition;
}

interface PreNode {
  properties: Record<string, unknown>;
}
interface TransformerContext {
  options: { meta?: { __raw?: string } };
}

const LANGUAGE_META = new RegExp(`(?:^|\\s)${LANGUAGE_META_KEY}=(\\S+)`);

/** Shiki transformer: the label of a block that fell back to plain text is the name its fence wrote. */
export const languageLabelTransformer = {
  name: 'docs:language-label',
  pre(this: TransformerContext, node: PreNode): void {
    const written = LANGUAGE_META.exec(this.options.meta?.__raw ?? '')?.[1];
    if (written === undefined) return;
    try {
      node.properties.dataLanguage = decodeURIComponent(written);
    } catch {
      node.properties.dataLanguage = written;
    }
  },
};
