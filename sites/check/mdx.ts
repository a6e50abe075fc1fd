import GithubSlugger from 'github-slugger';
import type { Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { mdxToMdast } from 'satteri';
import { visit } from 'unist-util-visit';
import { MDX_FEATURES } from '../content/mdx.ts';
import { lookupVariable, PLACEHOLDER } from '../content/variables.ts';

/**
 * Page bodies as the renderer reads them: `{{ variables }}` substituted in the raw text first, then MDX parsed by
 * Sätteri with the compiler's features (content/mdx.ts), as the compiler will: math's braces are TeX, smart
 * punctuation is in heading text (and so in slugs). Offsets in the substituted text map back to the body as
 * written, so problems point at what the author typed.
 */

export interface Placeholder {
  /** The dotted path inside the braces. */
  name: string;
  /** Offset of `{{` in the text given. */
  offset: number;
  length: number;
}

export interface Substitution {
  /** The text with every placeholder that has a string value replaced; the others stay as written. */
  text: string;
  /** Placeholders with no string value (missing, or an object, number... leaf). */
  unresolved: Placeholder[];
  /** Offset in `text` -> offset in the original. */
  toSource(offset: number): number;
}

/** Every dotted path of `variables` that has a string value. */
export function variableNames(variables: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(variables).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [prefix + key]
      : typeof value === 'object' && value !== null && !Array.isArray(value)
        ? variableNames(value as Record<string, unknown>, `${prefix}${key}.`)
        : [],
  );
}

/** Substitutes string variables into a page body (never its frontmatter); other placeholders stay as they are. */
export function substituteVariables(text: string, variables: Record<string, unknown>): Substitution {
  const unresolved: Placeholder[] = [];
  /** Replacements: where each starts in the output and in the source, and both lengths. */
  const edits: { out: number; src: number; outLength: number; srcLength: number }[] = [];
  let delta = 0;
  const out = text.replace(PLACEHOLDER, (match: string, name: string, offset: number) => {
    const value = lookupVariable(variables, name);
    if (value === undefined) {
      unresolved.push({ name, offset, length: match.length });
      return match;
    }
    edits.push({ out: offset + delta, src: offset, outLength: value.length, srcLength: match.length });
    delta += value.length - match.length;
    return value;
  });
  const toSource = (offset: number) => {
    let shift = 0;
    for (const edit of edits) {
      if (offset < edit.out) break;
      if (offset < edit.out + edit.outLength) return edit.src; // inside a substituted value: its placeholder
      shift = edit.src + edit.srcLength - (edit.out + edit.outLength);
    }
    return offset + shift;
  };
  return { text: out, unresolved, toSource };
}

export type ParsedBody = { ok: true; tree: Root; substitution: Substitution } | { ok: false; substitution: Substitution };

/**
 * Substitutes variables and parses the body as MDX. Placeholders left unresolved are masked (same length) so
 * that MDX does not read them as expressions. Why a body does not parse is the page preparation's problem to
 * report (content/mdx.ts), with the compiler's own message.
 */
export function parseBody(body: string, variables: Record<string, unknown> = {}): ParsedBody {
  const substitution = substituteVariables(body, variables);
  const masked = substitution.text.replace(PLACEHOLDER, (match) => match.replace(/\{/g, MASK_OPEN).replace(/\}/g, MASK_CLOSE));
  try {
    return { ok: true, tree: mdxToMdast(masked, { features: MDX_FEATURES }) as Root, substitution };
  } catch {
    return { ok: false, substitution };
  }
}

/** Stand-ins for the braces of unresolved placeholders while parsing (private-use characters). */
export const MASK_OPEN = '\uE000';
export const MASK_CLOSE = '\uE001';


export interface Heading {
  depth: number;
  text: string;
  /** The `id` the renderer gives it: GitHub-style slug, `-1`, `-2`... for repeats (as Astro does). */
  slug: string;
  /** Offset of the heading in the body as written. */
  offset: number;
}

/** The headings of a parsed body, in order, with their slugs. */
export function headingsOf(tree: Root, substitution?: Substitution): Heading[] {
  const slugger = new GithubSlugger();
  const headings: Heading[] = [];
  visit(tree, 'heading', (node) => {
    const text = toString(node, { includeImageAlt: false });
    const start = node.position?.start.offset ?? 0;
    headings.push({ depth: node.depth, text, slug: slugger.slug(text), offset: substitution ? substitution.toSource(start) : start });
  });
  return headings;
}

/** The headings of a page body (variables substituted first); `[]` when the body does not parse. */
export function extractHeadings(body: string, variables: Record<string, unknown> = {}): Heading[] {
  const parsed = parseBody(body, variables);
  return parsed.ok ? headingsOf(parsed.tree, parsed.substitution) : [];
}

/** The heading slugs of a page body, in order (what the table of contents links to). */
export const headingSlugs = (body: string, variables: Record<string, unknown> = {}) => extractHeadings(body, variables).map((h) => h.slug);

export interface BodyLink {
  href: string;
  /** Offset in the body as written. */
  offset: number;
  /** `link`, `definition`, or the JSX element's name (`a`, `Card`...). */
  source: string;
}

/** What the site checks need of a page body: whether it parses, its anchors and its links (plain data, cacheable). */
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

/** One walk of the parsed tree for all of them: a walk costs about what the parse does. */
export function bodyFacts(body: string, variables: Record<string, unknown> = {}): BodyFacts {
  const parsed = parseBody(body, variables);
  if (!parsed.ok) return { ok: false, anchors: [], links: [] };
  const { tree, substitution } = parsed;
  const slugger = new GithubSlugger();
  const slugs: string[] = [];
  const ids: string[] = [];
  const links: BodyLink[] = [];
  const at = (offset: number | undefined) => substitution.toSource(offset ?? 0);
  visit(tree, (node) => {
    if (node.type === 'heading') slugs.push(slugger.slug(toString(node, { includeImageAlt: false })));
    else if (node.type === 'link' || node.type === 'definition') links.push({ href: node.url, offset: at(node.position?.start.offset), source: node.type });
    else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of node.attributes) {
        if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') continue;
        if (attribute.name === 'id') ids.push(attribute.value);
        else if (attribute.name === 'href') links.push({ href: attribute.value, offset: at(hrefOffset(substitution.text, node)), source: node.name ?? 'fragment' });
      }
    }
  });
  return { ok: true, anchors: [...new Set([...slugs, ...ids])], links };
}

/** Where the `href=` of an element's opening tag is (Sätteri gives attributes no position), else where it starts. */
function hrefOffset(text: string, node: { position?: { start: { offset?: number }; end: { offset?: number } } }): number | undefined {
  const start = node.position?.start.offset;
  if (start === undefined) return undefined;
  const found = /\shref\s*=/.exec(text.slice(start, node.position?.end.offset));
  return found ? start + found.index + 1 : start;
}
