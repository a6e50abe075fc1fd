/**
 * A fenced code block's meta string (what follows the language on the opening fence; Astro 7 passes it to Shiki
 * only, as `options.meta.__raw`), read the way docs.page and Mintlify pages write it.
 *
 * Title, for Shiki's `pre` hook: copied onto the `<pre>` as `data-title`, which <CodeGroup> uses as the tab label
 * and which a block outside a group shows as a header (builder/markdown/code-title.ts).
 *
 *   import { codeTitleTransformer } from './components/mdx/code-meta.ts';
 *   markdown: { shikiConfig: { transformers: [codeTitleTransformer] } }
 *
 * Accepted forms:   ```ts title="api.ts"    ```ts title='api.ts'    ```ts title=api.ts    ```ts api.ts    ```ts "api.ts"
 * The last two (Mintlify style) take the bare words left after removing `{1,3-4}` ranges, `key=value` pairs and
 * known flags; one quoted string is taken without its quotes.
 *
 * Lines ({@link lineOptionsFromMeta}): `{1,3-4}` or `highlight={1,3-4}` highlights lines, `focus={2}` focuses
 * them, `lines` / `showLineNumbers` / `lineNumbers` number them (`showLineNumbers=5` or `showLineNumbers{5}` from 5).
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
  const title = words.join(' ');
  const quoted = /^"([^"]*)"$|^'([^']*)'$/.exec(title);
  const text = quoted ? (quoted[1] ?? quoted[2] ?? '').trim() : title;
  return text !== '' ? text : undefined;
}

export interface LineOptions {
  /** 1-based line numbers to highlight. */
  highlight: Set<number>;
  /** 1-based line numbers to focus (the others are dimmed). */
  focus: Set<number>;
  /** The number of the first line when lines are numbered, else undefined. */
  lineNumbersFrom: number | undefined;
}

/** `1,3-4` -> {1, 3, 4}; ranges are capped so a typo cannot make a huge set. */
function parseRanges(text: string): Set<number> {
  const lines = new Set<number>();
  for (const part of text.split(',')) {
    const range = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!range) continue;
    const from = Number(range[1]);
    const to = Math.min(range[2] === undefined ? from : Number(range[2]), from + 10_000);
    for (let line = from; line <= to; line++) lines.add(line);
  }
  return lines;
}

/** Meta string tokens: `key=value` (value without its quotes or braces), `key{value}`, `{ranges}`, bare words. */
const TOKEN = /([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{([^}]*)\}|(\S+))|([\w-]+)\{([^}]*)\}|\{([^}]*)\}|"[^"]*"|'[^']*'|(\S+)/g;
const LINE_NUMBER_FLAGS = new Set(['lines', 'linenumbers', 'showlinenumbers']);

/** Highlighted, focused and numbered lines from a code block's meta string. */
export function lineOptionsFromMeta(meta: string | undefined): LineOptions {
  const options: LineOptions = { highlight: new Set(), focus: new Set(), lineNumbersFrom: undefined };
  for (const m of (meta ?? '').matchAll(TOKEN)) {
    const key = (m[1] ?? m[6])?.toLowerCase();
    const value = m[1] !== undefined ? (m[2] ?? m[3] ?? m[4] ?? m[5] ?? '') : m[7];
    if (key === 'highlight' || key === 'focus') {
      for (const line of parseRanges(value ?? '')) (key === 'focus' ? options.focus : options.highlight).add(line);
    } else if (key !== undefined && LINE_NUMBER_FLAGS.has(key)) {
      const text = (value ?? '').trim().toLowerCase();
      options.lineNumbersFrom = text === 'false' ? undefined : /^\d+$/.test(text) ? Number(text) : 1;
    } else if (m[8] !== undefined) {
      for (const line of parseRanges(m[8])) options.highlight.add(line);
    } else if (m[9] !== undefined && LINE_NUMBER_FLAGS.has(m[9].toLowerCase())) {
      options.lineNumbersFrom = 1;
    }
  }
  return options;
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
