import type { HastPluginDefinition, MdastPluginDefinition } from 'satteri';
import { htmlToHast } from 'satteri';
import { addPageAsset, type PageAsset } from './page-assets.ts';

/**
 * LaTeX math, rendered at build time with KaTeX (no script in the page):
 *
 * - `$…$` inline and `$$…$$` blocks are parsed by Sätteri itself (`features.math`, the same syntax as remark-math:
 *   content/mdx.ts's MDX_FEATURES, which the parse check shares), and so is a ```` ```math ```` fence (a block).
 *   Inline math that looks like prices ({@link looksLikePrices}) stays text.
 *   Sätteri turns them into `<code class="language-math math-inline">` and
 *   `<pre><code class="language-math math-display">`; the hast plugin replaces those with KaTeX's HTML and
 *   MathML (the TeX source kept in its `<annotation>`), as rehype-katex does.
 * - KaTeX runs with its defaults for untrusted input (`trust: false`: no `\href`, `\url`, `\htmlClass`…; size and
 *   macro-expansion limits). An expression KaTeX cannot parse is shown as its source, in KaTeX's error colour,
 *   with the reason in a `title`.
 * - A page with math renders src/components/layout/MathStyles.astro once: a link to KaTeX's stylesheet, whose
 *   fonts Vite emits into the site's own `_astro/` folder. Pages without math do not load it.
 *
 * KaTeX is this package's own `katex` (the stylesheet's version): rehype-katex pins an older KaTeX of its own,
 * and Astro 7 compiles MDX with Sätteri, which runs no remark or rehype plugins.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

/**
 * Pandoc's rule for `$…$`, so that prices stay text: the opening `$` is followed by a non-space, the closing one
 * preceded by a non-space and not followed by a digit ("$5 and $10", "from $5 to \$10" are not math).
 */
export function looksLikePrices(value: string, after: string): boolean {
  return /^\s|\s$/.test(value) || /^\d/.test(after);
}

/** `styles`: the component that links KaTeX's stylesheet (src/components/layout/MathStyles.astro). */
export function createMathPlugin(styles: string): () => MdastPluginDefinition {
  const asset: PageAsset = { name: 'DocsSiteMathStyles__', file: styles, at: 'start' };
  return () => {
    let math = false;
    const seen = () => {
      math = true;
    };
    return {
      name: 'docs-math',
      math: seen,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      inlineMath(node: AnyNode, ctx: any) {
        const parent = ctx.parent(node);
        const next = parent?.children?.[(ctx.indexOf(node) ?? -1) + 1];
        if (looksLikePrices(node.value ?? '', next?.type === 'text' ? next.value : '')) {
          ctx.replaceNode(node, { type: 'text', value: `$${node.value}$`.replace(/\\\$/g, '$') });
          return;
        }
        seen();
      },
      code(node: AnyNode) {
        if (typeof node.lang === 'string' && node.lang.toLowerCase() === 'math') seen();
      },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      after(root: AnyNode, ctx: any) {
        if (math) addPageAsset(root, ctx, asset);
      },
    } as MdastPluginDefinition;
  };
}

type Katex = typeof import('katex').default;
let katex: Promise<Katex> | undefined;
/** KaTeX is loaded on the first page with math (most sites have none). */
const loadKatex = () => (katex ??= import('katex').then((module) => module.default));

function classesOf(node: AnyNode): string[] {
  const value = node?.properties?.className;
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\s+/) : [];
}

/** KaTeX's markup for one expression, as hast, its visual half left out of the search index. */
export async function renderMath(tex: string, displayMode: boolean): Promise<AnyNode[]> {
  const html = (await loadKatex()).renderToString(tex, { displayMode, throwOnError: false, strict: 'ignore', trust: false, output: 'htmlAndMathml' });
  const root = htmlToHast(html, { fragment: true }) as AnyNode;
  const mark = (node: AnyNode) => {
    if (node.type !== 'element') return;
    // `<math>` is MathML in HTML without its `xmlns` (which the HTML parser hands over as `:xmlns`).
    if (node.tagName === 'math') node.properties = Object.fromEntries(Object.entries(node.properties ?? {}).filter(([name]) => !/^:?xmlns/.test(name)));
    // The MathML (with the TeX source) is what search and assistive technology read; the HTML is aria-hidden.
    if (classesOf(node).includes('katex-html')) node.properties = { ...node.properties, dataPagefindIgnore: '' };
    for (const child of node.children ?? []) mark(child);
  };
  for (const child of root.children) mark(child);
  return root.children;
}

export function createKatexPlugin(): HastPluginDefinition {
  return {
    name: 'docs-katex',
    element: {
      filter: ['pre', 'code'],
      async visit(node: AnyNode, ctx: AnyNode) {
        if (node.tagName === 'pre') {
          const code = (node.children ?? []).find((child: AnyNode) => child.type === 'element' && child.tagName === 'code');
          if (!classesOf(code).includes('language-math')) return;
          ctx.replaceNode(node, await renderMath(ctx.textContent(code).replace(/\n$/, ''), true));
          return;
        }
        const classes = classesOf(node);
        if (!classes.includes('math-inline') || ctx.parent(node)?.tagName === 'pre') return;
        ctx.replaceNode(node, await renderMath(ctx.textContent(node), false));
      },
    },
  } as HastPluginDefinition;
}
