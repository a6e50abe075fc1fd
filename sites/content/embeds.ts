/**
 * Mintlify documents media as HTML: `<iframe src="https://www.youtube.com/embed/…">` for YouTube and Vimeo, and
 * `<video src autoPlay muted loop playsInline>`. Iframes and video tags are not allowed in a page (sanitize.ts), so
 * these are read as the built-in media components, which load nothing from another site until the reader asks.
 * Any other iframe stays refused.
 */

/** An attribute of an MDX JSX element as the parser gives it (sanitize.ts filters the same shape). */
export interface JsxAttribute {
  type: 'mdxJsxAttribute' | 'mdxJsxExpressionAttribute';
  name?: string;
  value?: string | { type: string; value: string } | null;
}

interface EmbedNode {
  attributes?: JsxAttribute[];
  children?: { type?: string; name?: string | null; attributes?: JsxAttribute[] }[];
}

const PLAYERS: readonly { host: RegExp; component: 'YouTube' | 'Vimeo' }[] = [
  { host: /^https:\/\/(?:www\.)?(?:youtube\.com|youtube-nocookie\.com)\/embed\/[\w-]{6,20}(?:[?#]|$)/i, component: 'YouTube' },
  { host: /^https:\/\/player\.vimeo\.com\/video\/\d{3,15}(?:[/?#]|$)/i, component: 'Vimeo' },
];

/** `<video>` attributes (HTML or React spelling) -> the Video component's props. */
const VIDEO_PROPS: Readonly<Record<string, string>> = {
  src: 'src', poster: 'poster', title: 'title', type: 'type', autoplay: 'autoPlay', muted: 'muted', loop: 'loop', controls: 'controls',
  playsinline: 'playsInline',
};

const text = (attributes: JsxAttribute[] | undefined, name: string): string | undefined => {
  const found = attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name?.toLowerCase() === name);
  return typeof found?.value === 'string' ? found.value : undefined;
};
const attribute = (name: string, value: string | null): JsxAttribute => ({ type: 'mdxJsxAttribute', name, value });

/** The component an `<iframe>` or `<video>` element is read as, with its props; undefined when it is not one. */
export function embedAsComponent(tag: string, node: EmbedNode): { name: string; attributes: JsxAttribute[] } | undefined {
  if (tag === 'iframe') {
    const src = text(node.attributes, 'src')?.trim();
    const player = src ? PLAYERS.find(({ host }) => host.test(src)) : undefined;
    if (!player || !src) return undefined;
    const title = text(node.attributes, 'title');
    return { name: player.component, attributes: [attribute('id', src), ...(title ? [attribute('title', title)] : [])] };
  }
  if (tag === 'video') {
    const attributes: JsxAttribute[] = [];
    for (const a of node.attributes ?? []) {
      const prop = a.type === 'mdxJsxAttribute' && a.name ? VIDEO_PROPS[a.name.toLowerCase()] : undefined;
      if (prop && (a.value === null || a.value === undefined || typeof a.value === 'string')) attributes.push(attribute(prop, a.value ?? null));
    }
    if (!attributes.some((a) => a.name === 'src')) {
      // <video><source src type></video>: the first source.
      const source = node.children?.find((child) => child.name === 'source');
      const src = text(source?.attributes, 'src');
      if (!src) return undefined;
      const type = text(source?.attributes, 'type');
      attributes.push(attribute('src', src), ...(type && !attributes.some((a) => a.name === 'type') ? [attribute('type', type)] : []));
    }
    return { name: 'Video', attributes };
  }
  return undefined;
}
