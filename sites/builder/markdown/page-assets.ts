/**
 * Per-page assets for Markdown extensions: a page that needs one (a Mermaid diagram's script, KaTeX's
 * stylesheet) imports an Astro component of the layout (src/components/layout/) and renders it once. The
 * import is ours, added by the compiler after the sanitiser (which removes every `import` a page writes), with a
 * name no page can write (the sanitiser unwraps unknown components); pages without the extension never import
 * the component, so its script or stylesheet is on no other page and sites without it never bundle it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

export interface PageAsset {
  /** The component's local name in the compiled page: not a built-in component's name. */
  name: string;
  /** Absolute path of the `.astro` component. */
  file: string;
  /** Where the element goes: first in the content (a stylesheet) or last (a script). */
  at: 'start' | 'end';
}

/** Adds the component's import and one `<Name />` to a page's tree (mdast, in a plugin's `after` hook). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function addPageAsset(root: AnyNode, ctx: any, asset: PageAsset): void {
  const element = { type: 'mdxJsxFlowElement', name: asset.name, attributes: [], children: [] };
  const importLine = { raw: `import ${asset.name} from ${JSON.stringify(asset.file)};\n`, mdxExpressions: true };
  if (asset.at === 'start') {
    ctx.prependChild(root, [importLine, element]);
  } else {
    ctx.prependChild(root, importLine);
    ctx.appendChild(root, element);
  }
}
