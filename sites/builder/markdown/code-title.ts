import type { HastPluginDefinition } from 'satteri';

/**
 * Fence titles on plain code blocks: a highlighted block with a title (`data-title`, from its meta string:
 * src/components/mdx/code-meta.ts) becomes
 *
 *   <figure class="code-block"><figcaption class="code-title">api.ts</figcaption><pre data-title="api.ts">…</pre></figure>
 *
 * A Sätteri hast plugin, after Shiki. Inside <CodeGroup> the title is the block's tab label instead, so those
 * blocks are left as they are (the group moves whole `<pre>` elements).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

function insideCodeGroup(node: AnyNode, ctx: { parent(node: AnyNode): AnyNode }): boolean {
  for (let parent = ctx.parent(node); parent; parent = ctx.parent(parent)) {
    if ((parent.type === 'mdxJsxFlowElement' || parent.type === 'mdxJsxTextElement') && parent.name === 'CodeGroup') return true;
  }
  return false;
}

export function createCodeTitlePlugin(): HastPluginDefinition {
  return {
    name: 'docs-code-title',
    element: {
      filter: ['pre'],
      visit(node: AnyNode, ctx: AnyNode) {
        const title = node.properties?.dataTitle;
        if (typeof title !== 'string' || title === '' || insideCodeGroup(node, ctx)) return;
        ctx.replaceNode(node, {
          type: 'element',
          tagName: 'figure',
          properties: { className: ['code-block'] },
          children: [
            { type: 'element', tagName: 'figcaption', properties: { className: ['code-title'] }, children: [{ type: 'text', value: title }] },
            node,
          ],
        });
      },
    },
  } as HastPluginDefinition;
}
