/**
 * Shiki transformer: a copy button inside every highlighted code block (`<pre>`), so it is part of the built
 * HTML and travels with the block (CodeGroup moves whole `<pre>` elements). Hidden until the page's script runs
 * (`.js` on `<html>`); left out of the search index.
 */
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: unknown[];
}

export const copyButtonTransformer = {
  name: 'docs:copy-button',
  pre(node: HastElement): void {
    node.children.push({
      type: 'element',
      tagName: 'button',
      properties: { type: 'button', className: ['copy-code'], ariaLabel: 'Copy code', dataPagefindIgnore: '' },
      children: [{ type: 'text', value: 'Copy' }],
    });
  },
};
