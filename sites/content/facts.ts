import GithubSlugger from 'github-slugger';
import type { Nodes, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { decodeTokens } from './variables.ts';

/**
 * What the site checks (sites/check) need of a page body, read from the tree the page preparation parses
 * (content/mdx.ts), so a build parses each page once. Text is read as the renderer shows it: placeholder tokens
 * decoded, heading text with the compiler's smart punctuation. Offsets are in the body as written.
 */

export interface Heading {
  depth: number;
  text: string;
  /** The `id` the renderer gives it: GitHub-style slug, `-1`, `-2`... for repeats (as Astro does). */
  slug: string;
  /** Offset of the heading in the body as written. */
  offset: number;
}

export interface BodyLink {
  href: string;
  /** Offset in the body as written. */
  offset: number;
  /** `link`, `definition`, or the JSX element's name (`a`, `Card`...). */
  source: string;
}

/** Whether a page body parses, its anchors and its links (plain data). */
export interface BodyFacts {
  ok: boolean;
  /** The fragment ids it offers: heading slugs, then `id` attributes of JSX elements; empty when it does not parse. */
  anchors: string[];
  /**
   * Markdown links and reference definitions, and string `href` attributes of JSX elements (`<a>`, `<Card>`...);
   * empty when it does not parse.
   */
  links: BodyLink[];
}

export const UNPARSED: BodyFacts = Object.freeze({ ok: false, anchors: [], links: [] });

/** Where the parsed text came from: the text itself and the map of its offsets back to the body as written. */
export interface ParsedText {
  text: string;
  toSource(offset: number): number;
}

const headingText = (node: Parameters<typeof toString>[0]) => decodeTokens(toString(node, { includeImageAlt: false }));

/** The headings of a parsed body, in order, with their slugs. */
export function headingsOf(tree: Root, source: ParsedText): Heading[] {
  const slugger = new GithubSlugger();
  const headings: Heading[] = [];
  walk(tree, (node) => {
    if (node.type !== 'heading') return;
    const text = headingText(node);
    headings.push({ depth: node.depth, text, slug: slugger.slug(text), offset: source.toSource(node.position?.start.offset ?? 0) });
  });
  return headings;
}

/** One walk of the tree for all the facts: a walk costs about what the parse does. */
export function factsOf(tree: Root, source: ParsedText): BodyFacts {
  const slugger = new GithubSlugger();
  const slugs: string[] = [];
  const ids: string[] = [];
  const links: BodyLink[] = [];
  const at = (offset: number | undefined) => source.toSource(offset ?? 0);
  walk(tree, (node) => {
    if (node.type === 'heading') slugs.push(slugger.slug(headingText(node)));
    else if (node.type === 'link' || node.type === 'definition') links.push({ href: decodeTokens(node.url), offset: at(node.position?.start.offset), source: node.type });
    else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of node.attributes) {
        if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') continue;
        if (attribute.name === 'id') ids.push(decodeTokens(attribute.value));
        else if (attribute.name === 'href') links.push({ href: decodeTokens(attribute.value), offset: at(hrefOffset(source.text, node)), source: node.name ?? 'fragment' });
      }
    }
  });
  return { ok: true, anchors: [...new Set([...slugs, ...ids])], links };
}

/**
 * Every node, depth first, in document order. unist-util-visit, which this replaced, cost as much as the parse
 * (~0.15 ms a page: it tracks each node's ancestors, which nothing here needs).
 */
function walk(node: Nodes, visitor: (node: Nodes) => void): void {
  visitor(node);
  if ('children' in node) for (const child of node.children) walk(child, visitor);
}

/** Where the `href=` of an element's opening tag is (Sätteri gives attributes no position), else where it starts. */
function hrefOffset(text: string, node: { position?: { start: { offset?: number }; end: { offset?: number } } }): number | undefined {
  const start = node.position?.start.offset;
  if (start === undefined) return undefined;
  const found = /\shref\s*=/.exec(text.slice(start, node.position?.end.offset));
  return found ? start + found.index + 1 : start;
}
