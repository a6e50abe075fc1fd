import type { MdastPluginDefinition } from 'satteri';
import { addPageAsset, type PageAsset } from './page-assets.ts';

/**
 * Mermaid diagrams: a ```` ```mermaid ```` fence becomes
 *
 *   <figure class="mermaid-diagram" data-mermaid>
 *     <details class="mermaid-source"><summary>Diagram source (Mermaid)</summary><pre><code class="language-mermaid">…</code></pre></details>
 *   </figure>
 *
 * and the page renders src/components/layout/MermaidDiagrams.astro once: its script (mermaid, bundled by Vite into
 * the site's own files) draws each diagram as an SVG in the figure, in the site's light or dark colours, and
 * redraws it when the theme changes. The source stays in the page as the diagram's text alternative (the SVG's
 * `aria-describedby`) and as what readers without JavaScript see. Only pages with a diagram load the script.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

export const MERMAID_SUMMARY = 'Diagram source (Mermaid)';

function diagram(source: string): AnyNode {
  const attribute = (name: string, value: string) => ({ type: 'mdxJsxAttribute', name, value });
  return {
    type: 'mdxJsxFlowElement',
    name: 'figure',
    attributes: [attribute('class', 'mermaid-diagram'), attribute('data-mermaid', '')],
    children: [
      {
        type: 'mdxJsxFlowElement',
        name: 'details',
        attributes: [attribute('class', 'mermaid-source')],
        children: [
          { type: 'mdxJsxFlowElement', name: 'summary', attributes: [], children: [{ type: 'text', value: MERMAID_SUMMARY }] },
          { type: 'code', lang: 'mermaid', meta: null, value: source },
        ],
      },
    ],
  };
}

/** `script`: the component that loads the diagrams' script (src/components/layout/MermaidDiagrams.astro). */
export function createMermaidPlugin(script: string): () => MdastPluginDefinition {
  const asset: PageAsset = { name: 'DocsSiteMermaidDiagrams__', file: script, at: 'end' };
  return () => {
    let diagrams = 0;
    return {
      name: 'docs-mermaid',
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      code(node: AnyNode, ctx: any) {
        if (typeof node.lang !== 'string' || node.lang.toLowerCase() !== 'mermaid') return;
        diagrams += 1;
        ctx.replaceNode(node, diagram(node.value ?? ''));
      },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      after(root: AnyNode, ctx: any) {
        if (diagrams > 0) addPageAsset(root, ctx, asset);
      },
    } as MdastPluginDefinition;
  };
}
