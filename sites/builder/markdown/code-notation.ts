import {
  transformerNotationDiff,
  transformerNotationErrorLevel,
  transformerNotationFocus,
  transformerNotationHighlight,
  transformerNotationWordHighlight,
  transformerRemoveNotationEscape,
} from '@shikijs/transformers';
import { lineOptionsFromMeta, type LineOptions } from '../../src/components/mdx/code-meta.ts';

/**
 * Code block annotations, as Shiki transformers (Astro highlights every fence with Shiki):
 *
 * - Notation comments (@shikijs/transformers, written in the language's own comment syntax and removed from the
 *   output, so neither the page nor the copy button shows them): `// [!code ++]` and `// [!code --]` (lines
 *   `diff add` / `diff remove`, `<pre>` `has-diff`), `// [!code highlight]` or `[!code hl]` (`highlighted`),
 *   `// [!code focus]` (`focused`, `<pre>` `has-focused`), `// [!code error]` / `[!code warning]`
 *   (`highlighted error` / `highlighted warning`), `// [!code word:name]` (`highlighted-word` spans). `:3` after a
 *   notation applies it to that many lines. `[\!code …]` shows the notation literally.
 * - Meta options (code-meta.ts): `{1,3-4}` / `highlight={1,3-4}` (`highlighted`), `focus={2}` (`focused`),
 *   `lines` / `showLineNumbers` / `lineNumbers` (`<pre>` `line-numbers`, numbers drawn by CSS so they are never
 *   copied; `showLineNumbers=5` starts at 5).
 *
 * Styles: the "Code block annotations" block of src/styles/site.css.
 */

/** The part of Shiki's transformer context this uses (kept structural: `shiki` is not a direct dependency). */
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: unknown[];
}
interface LinesContext {
  options: { meta?: { __raw?: string } };
  meta: Record<string | symbol, unknown>;
  addClassToHast(node: HastElement, className: string | string[]): unknown;
}

const LINE_OPTIONS = Symbol('docs-line-options');

function lineOptions(context: LinesContext): LineOptions {
  let options = context.meta[LINE_OPTIONS] as LineOptions | undefined;
  if (!options) {
    options = lineOptionsFromMeta(context.options.meta?.__raw);
    context.meta[LINE_OPTIONS] = options;
  }
  return options;
}

/** The end of a line after a notation comment went: the space before the comment goes too (never copied). */
function trimLineEnd(line: HastElement): void {
  for (let last = line.children.at(-1) as HastElement | undefined; last?.type === 'element'; last = line.children.at(-1) as HastElement | undefined) {
    const text = last.children.at(-1) as { type: string; value?: string } | undefined;
    if (text?.type !== 'text' || typeof text.value !== 'string') return;
    text.value = text.value.trimEnd();
    if (text.value !== '' || last.children.length > 1) return;
    line.children.pop();
  }
}

/** Meta-string line options: highlighted and focused lines, line numbers; tidies lines that lost a notation. */
export const codeLinesTransformer = {
  name: 'docs:code-lines',
  code(node: HastElement & { data?: { _shiki_notation?: { info?: string[]; line?: HastElement }[] } }): void {
    // @shikijs/transformers keeps what it parsed on the code element: the comments it emptied name their lines.
    for (const comment of node.data?._shiki_notation ?? []) if (comment.info?.[1] === '' && comment.line) trimLineEnd(comment.line);
  },
  line(this: LinesContext, node: HastElement, line: number): void {
    const { highlight, focus } = lineOptions(this);
    if (highlight.has(line)) this.addClassToHast(node, 'highlighted');
    if (focus.has(line)) this.addClassToHast(node, 'focused');
  },
  pre(this: LinesContext, node: HastElement): void {
    const { highlight, focus, lineNumbersFrom } = lineOptions(this);
    if (highlight.size > 0) this.addClassToHast(node, 'has-highlighted');
    if (focus.size > 0) this.addClassToHast(node, 'has-focused');
    if (lineNumbersFrom === undefined) return;
    this.addClassToHast(node, 'line-numbers');
    if (lineNumbersFrom !== 1) {
      const style = typeof node.properties.style === 'string' ? node.properties.style.replace(/;?\s*$/, ';') : '';
      node.properties.style = `${style}--docs-line-start:${lineNumbersFrom - 1}`;
    }
  },
};

/** Every annotation transformer, in the order Shiki runs them. */
export function codeNotationTransformers(): unknown[] {
  return [
    transformerNotationDiff(),
    transformerNotationHighlight(),
    transformerNotationFocus(),
    transformerNotationErrorLevel(),
    transformerNotationWordHighlight(),
    transformerRemoveNotationEscape(),
    codeLinesTransformer,
  ];
}
