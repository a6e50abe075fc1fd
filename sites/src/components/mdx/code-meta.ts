/**
 * Shiki transformer for the renderer: copies a fenced code block's title from its meta string onto the `<pre>` as
 * `data-title`, which <CodeGroup> uses as the tab label (Astro 7 drops the meta string otherwise).
 *
 *   import { codeTitleTransformer } from './components/mdx/code-meta.ts';
 *   markdown: { shikiConfig: { transformers: [codeTitleTransformer] } }
 *
 * Accepted forms:   ```ts title="api.ts"    ```ts title='api.ts'    ```ts title=api.ts    ```ts api.ts
 * The last (Mintlify style) takes the bare words left after removing `{1,3-4}` ranges, `key=value` pairs and
 * known flags.
 */

const FLAGS = new Set(['showlinenumbers', 'linenumbers', 'lines', 'wrap', 'expandable', 'twoslash', 'nocopy', 'copy', 'collapse']);

/** The title in a code block's meta string, or undefined. */
export function titleFromMeta(meta: string | undefined): string | undefined {
  if (!meta) return undefined;
  const explicit = /(?:^|\s)title\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))/i.exec(meta);
  if (explicit) return (explicit[1] ?? explicit[2] ?? explicit[3] ?? '').trim() || undefined;
  const words = meta
    .replace(/[\w-]+\s*=\s*(?:"[^"]*"|'[^']*'|\{[^}]*\}|\S+)/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !FLAGS.has(word.toLowerCase()));
  return words.length > 0 ? words.join(' ') : undefined;
}

/** The part of Shiki's transformer interface this uses (kept structural: `shiki` is not a direct dependency). */
interface PreNode {
  properties: Record<string, unknown>;
}
interface TransformerContext {
  options: { meta?: { __raw?: string } };
}

export const codeTitleTransformer = {
  name: 'docs:code-title',
  pre(this: TransformerContext, node: PreNode): void {
    const title = titleFromMeta(this.options.meta?.__raw);
    if (title !== undefined) node.properties.dataTitle = title;
  },
};
