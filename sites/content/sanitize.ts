import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { defaultSchema } from 'hast-util-sanitize';
import JSON5 from 'json5';
import type { MdastPluginDefinition } from 'satteri';
import { LINK_SCHEMES, MEDIA_SCHEMES, schemeOf } from '../config/schema/common.ts';
import { decodeTokens, hasToken } from './variables.ts';
import { embedAsComponent, type JsxAttribute } from './embeds.ts';
import { iconProblem, isIconName } from '../src/components/mdx/icons.ts';

/**
 * Building a repository must never run its code. MDX pages are JavaScript modules, so every page goes through
 * one set of rules, used twice: {@link auditTree} lists what a page loses (problems with positions, and the
 * spans the Markdown output leaves out), {@link createSanitizePlugin} applies the same verdicts inside the MDX
 * compiler (a Sätteri mdast plugin, Astro 7's Markdown pipeline).
 *
 * - `import`/`export` (MDX ESM) and `{expressions}` are removed (`{/* comments *\/}` silently).
 * - JSX elements: our MDX component names and hast-util-sanitize's default tag names are kept; `script`,
 *   `style`, `iframe`, `object`, forms and other active content are removed with their content; any other
 *   element (unknown components, `video`…) is unwrapped: its children stay, the tag goes.
 * - Attributes: kept when hast-util-sanitize's default schema allows them on that tag (plus `class`, `id`,
 *   `data-*`, `aria-*`); on components, the props the component documents ({@link MDX_COMPONENTS}), nothing else.
 *   Spread attributes and expression values are removed, except literal values (`{2}`, `{true}`, `{"x"}`) and
 *   the data literals the vendors document for a few props ({@link DATA_PROPS}).
 * - URLs (links, images, `href`/`src`…): only http(s), mailto, irc(s), xmpp (links) and http(s) (images) schemes,
 *   relative and root-relative paths; anything else (`javascript:`, `data:`, `vbscript:`…) is removed.
 *   Root-relative paths get the site's base path; relative paths are resolved against the page's folder (a
 *   page link's `.mdx` extension is dropped; images become base-absolute paths of the copied file).
 */

/**
 * Author-facing components (sites/src/components/mdx), usable without imports, and the props each documents: any
 * other attribute (an Astro directive such as `set:html`, `is:raw`, `client:load`, `define:vars`, a handler, a
 * style) is removed, so repository content reaches a component only through props it renders safely.
 */
export const MDX_COMPONENTS: Readonly<Record<string, readonly string[]>> = {
  // Callouts (docs.page: Info, Warning, Error, Success; Mintlify: Note, Warning, Info, Tip, Check, Danger, Callout).
  Note: ['title'],
  Tip: ['title'],
  Info: ['title'],
  Warning: ['title'],
  Danger: ['title'],
  Error: ['title'],
  Success: ['title'],
  Check: ['title'],
  Callout: ['type', 'title', 'icon', 'iconType', 'color'],
  // Tabs: Mintlify <Tabs><Tab title>, docs.page <Tabs groupId defaultValue><TabItem value label>.
  Tabs: ['label', 'groupId', 'defaultValue', 'values', 'sync', 'borderBottom'],
  Tab: ['title', 'icon', 'iconType'],
  TabItem: ['value', 'label'],
  CodeGroup: ['label', 'title', 'dropdown', 'defaultLanguage'],
  RequestExample: ['dropdown'],
  ResponseExample: ['dropdown'],
  Steps: ['titleSize'],
  Step: ['title', 'icon', 'iconType', 'stepNumber', 'titleSize'],
  Card: ['title', 'href', 'icon', 'iconType', 'color', 'horizontal', 'img', 'cta', 'arrow', 'type'],
  CardGroup: ['cols'],
  Columns: ['cols'],
  Tile: ['href', 'title', 'description'],
  Accordion: ['title', 'description', 'defaultOpen', 'icon', 'iconType'],
  AccordionGroup: [],
  Expandable: ['title', 'defaultOpen', 'lazy'],
  // Parameter fields: docs.page Property; Mintlify ParamField, ResponseField.
  Property: ['name', 'type', 'required', 'optional', 'default', 'deprecated'],
  ParamField: ['query', 'path', 'body', 'header', 'name', 'type', 'required', 'optional', 'default', 'deprecated', 'placeholder', 'hidden', 'id', 'pre', 'post'],
  ResponseField: ['name', 'type', 'required', 'optional', 'default', 'deprecated', 'hidden', 'id', 'pre', 'post'],
  Icon: ['icon', 'name', 'iconType', 'size', 'color'],
  Badge: ['color', 'size', 'shape', 'icon', 'iconType', 'stroke', 'disabled'],
  Tooltip: ['tip', 'headline', 'cta', 'href'],
  Update: ['label', 'description', 'tags'],
  Heading: ['type', 'id'],
  Panel: [],
  View: ['title', 'icon', 'iconType'],
  Visibility: ['for'],
  Prompt: ['description', 'actions', 'icon', 'iconType'],
  Tree: [],
  'Tree.Folder': ['name', 'defaultOpen', 'openable'],
  'Tree.File': ['name'],
  Color: ['variant'],
  'Color.Row': ['title'],
  'Color.Item': ['name', 'value'],
  // Media: shown as facades that load nothing from another site until the reader asks.
  Image: ['src', 'alt', 'caption', 'zoom', 'width', 'height', 'theme'],
  Frame: ['caption', 'hint'],
  YouTube: ['id', 'title', 'start'],
  Vimeo: ['id', 'video', 'title'],
  Video: ['src', 'type', 'poster', 'title', 'autoPlay', 'muted', 'loop', 'controls', 'playsInline'],
  Tweet: ['id', 'cards', 'conversation'],
  Zapp: ['id', 'lazy'],
};
/** Components that need a live service of the tool they come from: each use is a warning (they render a placeholder). */
const LIVE_COMPONENTS: Readonly<Record<string, string>> = {
  Zapp: 'a Zapp! sandbox runs on zapp.run, which a built site does not embed: a link to it is shown instead',
};
export const MDX_COMPONENT_NAMES = Object.keys(MDX_COMPONENTS);
const COMPONENT_PROPS = new Map(Object.entries(MDX_COMPONENTS).map(([name, props]) => [name, new Set(props)]));

const ALLOWED_TAGS = new Set<string>([...(defaultSchema.tagNames ?? []), 'figure', 'figcaption', 'mark', 'small', 'abbr', 'cite']);
ALLOWED_TAGS.delete('input');
/** Removed together with their content. */
const DROPPED_TAGS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noscript', 'template', 'link', 'meta',
  'base', 'form', 'input', 'button', 'textarea', 'select', 'option', 'svg', 'math', 'canvas', 'portal', 'title', 'head',
  'html', 'body',
]);

/** hast property names (`ariaLabel`, `acceptCharset`) -> the attribute names authors write. */
function attributeName(property: string): string {
  if (property === 'className') return 'class';
  if (property === 'htmlFor') return 'for';
  if (property === 'acceptCharset') return 'accept-charset';
  if (/^(aria|data)[A-Z]/.test(property)) return property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return property.toLowerCase();
}
const GLOBAL_ATTRIBUTES = new Set(['class', 'id', 'title', 'lang', 'dir', 'role', 'hidden']);
const ATTRIBUTES_BY_TAG = new Map<string, Set<string>>();
for (const [tag, list] of Object.entries(defaultSchema.attributes ?? {})) {
  const names = new Set<string>();
  for (const entry of list) names.add(attributeName(typeof entry === 'string' ? entry : entry[0]));
  if (tag === '*') for (const name of names) GLOBAL_ATTRIBUTES.add(name);
  else ATTRIBUTES_BY_TAG.set(tag, names);
}
GLOBAL_ATTRIBUTES.delete('action');
ATTRIBUTES_BY_TAG.set('img', new Set([...(ATTRIBUTES_BY_TAG.get('img') ?? []), 'loading', 'decoding']));

/** Attributes that hold URLs. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'cite', 'longdesc', 'srcset', 'img', 'image', 'poster']);
/**
 * Props whose documented form is a data literal (docs.page `<Tabs values={[{ label: 'JS', value: 'js' }]}>`,
 * Mintlify `tags={["Feature", "Fix"]}`): read as JSON5 (data, nothing runs) and passed as the string the component
 * takes. A literal that is not of the expected shape is removed like any expression.
 */
const DATA_PROPS: Readonly<Record<string, Readonly<Record<string, (data: unknown) => string | undefined>>>> = {
  Tabs: { values: tabValues },
  Update: { tags: commaList },
  ParamField: { pre: commaList, post: commaList },
  ResponseField: { pre: commaList, post: commaList },
  Prompt: { actions: commaList },
};
const MAX_DATA_LITERAL = 10_000;

/** `["a", 1]` -> `a, 1`. */
function commaList(data: unknown): string | undefined {
  if (!Array.isArray(data) || !data.every((item) => typeof item === 'string' || typeof item === 'number')) return undefined;
  return data.join(', ');
}

/** docs.page's tab list, `[{ label, value }]` -> the JSON <Tabs> reads. */
function tabValues(data: unknown): string | undefined {
  if (!Array.isArray(data)) return undefined;
  const tabs = data.filter((item): item is { label: string; value: string } => typeof item?.label === 'string' && typeof item?.value === 'string');
  return tabs.length === data.length ? JSON.stringify(tabs.map(({ label, value }) => ({ label, value }))) : undefined;
}

/** An expression attribute's value as a {@link DATA_PROPS} string, or undefined. */
function dataProp(tag: string, name: string, expression: string): string | undefined {
  const convert = DATA_PROPS[tag]?.[name];
  if (!convert || expression.length > MAX_DATA_LITERAL) return undefined;
  try {
    return convert(JSON5.parse(expression));
  } catch {
    return undefined;
  }
}

const LITERAL_EXPRESSION = /^\s*(?:true|false|null|-?\d+(?:\.\d+)?|"[^"\\\n]*"|'[^'\\\n]*')\s*$/;
const COMMENT_EXPRESSION = /^\s*\/\*[\s\S]*\*\/\s*$/;

function normaliseAttributeName(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'classname') return 'class';
  if (lower === 'htmlfor') return 'for';
  return lower;
}

export interface SanitizeOptions {
  /** URL base path without trailing slash: `''` for the root, `/owner/repo` otherwise. */
  base: string;
  zoomImages: boolean;
  /** Absolute docs folder. */
  sourceDir: string;
  /** Whether a file a page names exists (default existsSync): a build that keeps prepared pages records the answers. */
  exists?: ((path: string) => boolean) | undefined;
}

interface PageContext {
  options: SanitizeOptions;
  /** Folder of the page inside the docs folder, posix, '' for the root. */
  pageDir: string;
}

export interface Finding {
  severity: 'error' | 'warning';
  message: string;
  /** Offsets of the node in the compiled text (for the Markdown output), when the node goes entirely. */
  removed?: { start: number; end: number } | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

type UrlVerdict = { ok: true; url: string; message?: string } | { ok: false; message: string };

/** Judges one URL and rewrites internal ones for the base path. */
export function checkUrl(raw: string, kind: 'link' | 'media', page: PageContext): UrlVerdict {
  const url = raw.trim();
  if (url === '') return { ok: true, url };
  if (url.startsWith('//')) return { ok: true, url };
  const scheme = schemeOf(url);
  if (scheme !== undefined) {
    const allowed = kind === 'link' ? LINK_SCHEMES : MEDIA_SCHEMES;
    return allowed.has(scheme) ? { ok: true, url } : { ok: false, message: `a \`${scheme}:\` URL is not allowed` };
  }
  if (url.startsWith('#') || url.startsWith('?')) return { ok: true, url };
  const { base } = page.options;
  if (url.startsWith('/')) return { ok: true, url: base + url };
  // Relative: resolve against the page's folder in the docs folder.
  const match = /^([^?#]*)(.*)$/.exec(url)!;
  // A trailing slash names the folder's page: `../` from guides/setup is the home page, not `/./`.
  const resolved = posix.normalize(posix.join(page.pageDir || '.', match[1]!)).replace(/(.)\/$/, '$1');
  if (resolved === '..' || resolved.startsWith('../')) return { ok: false, message: `\`${url}\` points outside the docs folder` };
  if (kind === 'media') {
    const exists = (page.options.exists ?? existsSync)(join(page.options.sourceDir, resolved));
    const target = `${base}/${resolved}`;
    return exists ? { ok: true, url: target } : { ok: true, url: target, message: `\`${url}\` does not exist` };
  }
  let route = resolved === '.' ? '' : resolved.replace(/\.mdx$/, '');
  route = route === 'index' ? '' : route.replace(/\/index$/, '');
  return { ok: true, url: `${base}/${route}${match[2]}` };
}

/** Filters one element's attributes; returns the kept list (tokens decoded, URLs rewritten) and what went. */
function filterAttributes(tag: string, component: boolean, attributes: JsxAttribute[], page: PageContext) {
  const kept: JsxAttribute[] = [];
  const messages: string[] = [];
  for (const attribute of attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || attribute.name === undefined) {
      messages.push(`spread attribute \`{${String(attribute.value)}}\` removed from <${tag}>`);
      continue;
    }
    if (component && !COMPONENT_PROPS.get(tag)!.has(attribute.name)) {
      const props = [...COMPONENT_PROPS.get(tag)!];
      messages.push(`\`${attribute.name}\` is not a prop of <${tag}> and was removed (${props.length ? `its props: ${props.join(', ')}` : 'it takes none'})`);
      continue;
    }
    const name = normaliseAttributeName(attribute.name);
    let value = attribute.value;
    /** A literal that is not a string (`{2}`, `{true}`): kept as the expression it is, once its name passes. */
    let literal: JsxAttribute | undefined;
    if (value !== null && value !== undefined && typeof value === 'object') {
      const text = value.value.trim();
      // A string literal is judged as the same attribute written with quotes (the pattern allows no backslash: the
      // text between the quotes is the value); `{2}`, `{true}`, `{null}` stay as written once the name passes.
      if (LITERAL_EXPRESSION.test(text)) {
        if (/^["']/.test(text)) value = text.slice(1, -1);
        else literal = attribute;
      } else {
        const data = component ? dataProp(tag, attribute.name, value.value) : undefined;
        if (data === undefined) {
          messages.push(`expression attribute \`${attribute.name}={${value.value}}\` removed from <${tag}>`);
          continue;
        }
        value = data;
      }
    }
    if (/^on/.test(name) || name === 'style' || name === 'srcdoc' || name === 'formaction') {
      messages.push(`attribute \`${attribute.name}\` removed from <${tag}>`);
      continue;
    }
    // `set:html`, `is:raw`, `client:load`… are Astro directives; `data-docs-*` marks our own components' parts
    // (csp.ts reads them). A page's HTML takes neither.
    if (!component && (name.includes(':') || name.startsWith('data-docs-'))) {
      messages.push(`attribute \`${attribute.name}\` is not allowed on <${tag}> and was removed`);
      continue;
    }
    if (!component && !name.startsWith('data-') && !name.startsWith('aria-') && !GLOBAL_ATTRIBUTES.has(name) && !ATTRIBUTES_BY_TAG.get(tag)?.has(name)) {
      messages.push(`attribute \`${attribute.name}\` is not allowed on <${tag}> and was removed`);
      continue;
    }
    if (literal) {
      if (URL_ATTRIBUTES.has(name)) {
        messages.push(`attribute \`${attribute.name}\` removed from <${tag}>: a URL must be a string`);
        continue;
      }
      kept.push(literal);
      continue;
    }
    if (typeof value === 'string') {
      if (hasToken(value)) value = decodeTokens(value);
      if (URL_ATTRIBUTES.has(name) || (component && name === 'icon' && /[/.]/.test(value))) {
        const kind = name === 'href' || name === 'cite' ? 'link' : 'media';
        if (name === 'srcset') {
          const parts = value.split(',').map((candidate) => {
            const [url = '', ...rest] = candidate.trim().split(/\s+/);
            const verdict = checkUrl(url, 'media', page);
            return verdict.ok ? [verdict.url, ...rest].join(' ') : undefined;
          });
          if (parts.some((part) => part === undefined)) {
            messages.push(`attribute \`srcset\` removed from <${tag}>: a URL is not allowed`);
            continue;
          }
          value = parts.join(', ');
        } else {
          const verdict = checkUrl(value, kind, page);
          if (!verdict.ok) {
            messages.push(`attribute \`${attribute.name}\` removed from <${tag}>: ${verdict.message}`);
            continue;
          }
          if (verdict.message) messages.push(`<${tag} ${attribute.name}>: ${verdict.message}`);
          value = verdict.url;
        }
      }
    }
    kept.push({ type: 'mdxJsxAttribute', name: attribute.name, value });
  }
  if (component) messages.push(...componentMessages(tag, kept));
  if (tag === 'img' && page.options.zoomImages && !kept.some((a) => a.name !== undefined && normaliseAttributeName(a.name) === 'data-zoom')) {
    kept.push({ type: 'mdxJsxAttribute', name: 'data-zoom', value: 'true' });
  }
  return { kept, messages };
}

/** What a component's props mean that it cannot show: an icon name that draws nothing, a live service. */
function componentMessages(tag: string, kept: JsxAttribute[]): string[] {
  const text = (name: string) => {
    const value = kept.find((a) => a.name === name)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const messages: string[] = [];
  const icon = text('icon') ?? (tag === 'Icon' ? text('name') : undefined);
  const problem = icon !== undefined && isIconName(icon) ? iconProblem(icon, text('iconType')) : undefined;
  if (problem) messages.push(`<${tag}>: ${problem}`);
  if (LIVE_COMPONENTS[tag]) messages.push(`<${tag}> needs a live service: ${LIVE_COMPONENTS[tag]}`);
  return messages;
}

function sameAttributes(a: JsxAttribute[], b: JsxAttribute[]) {
  return a.length === b.length && a.every((attribute, i) => attribute.name === b[i]!.name && attribute.value === b[i]!.value);
}

/** What happens to one node. `messages` become warnings; `set` lists fields to overwrite. */
type Verdict =
  | { action: 'remove'; messages: string[] }
  | { action: 'unwrap'; messages: string[] }
  | { action: 'attributes'; attributes: JsxAttribute[]; messages: string[] }
  /** The element becomes this component, without its children (embeds.ts). */
  | { action: 'component'; name: string; attributes: JsxAttribute[]; messages: string[] }
  | { action: 'set'; set: Record<string, unknown>; messages: string[] }
  | { action: 'keep'; messages: string[] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

function judge(node: AnyNode, page: PageContext): Verdict {
  switch (node.type) {
    case 'mdxjsEsm':
      return { action: 'remove', messages: [`\`import\`/\`export\` statements are not run; removed: ${firstLine(node.value)}`] };
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      if (COMMENT_EXPRESSION.test(node.value ?? '')) return { action: 'remove', messages: [] };
      return { action: 'remove', messages: [`JavaScript expression \`{${firstLine(node.value)}}\` is not run; removed`] };
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement': {
      const name: string | null = node.name;
      if (name === null || name === '') return { action: 'unwrap', messages: [] };
      const component = /^[A-Z]/.test(name) || name.includes('.');
      if (component && !COMPONENT_PROPS.has(name)) return { action: 'unwrap', messages: [`unknown component <${name}>: its content is shown without it`] };
      const tag = name.toLowerCase();
      const embed = component ? undefined : embedAsComponent(tag, node);
      if (embed) {
        const { kept, messages } = filterAttributes(embed.name, true, embed.attributes, page);
        return { action: 'component', name: embed.name, attributes: kept, messages };
      }
      if (!component && DROPPED_TAGS.has(tag)) return { action: 'remove', messages: [`<${name}> is not allowed; removed with its content`] };
      if (!component && !ALLOWED_TAGS.has(tag)) return { action: 'unwrap', messages: [`<${name}> is not allowed; its content is kept`] };
      const { kept, messages } = filterAttributes(component ? name : tag, component, node.attributes ?? [], page);
      return sameAttributes(kept, node.attributes ?? []) ? { action: 'keep', messages } : { action: 'attributes', attributes: kept, messages };
    }
    case 'text':
    case 'code':
    case 'inlineCode':
      return typeof node.value === 'string' && hasToken(node.value)
        ? { action: 'set', set: { value: decodeTokens(node.value) }, messages: [] }
        : { action: 'keep', messages: [] };
    case 'link':
    case 'definition': {
      const verdict = checkUrl(decodeTokens(node.url ?? ''), 'link', page);
      if (!verdict.ok) {
        return node.type === 'link'
          ? { action: 'unwrap', messages: [`link removed: ${verdict.message}`] }
          : { action: 'remove', messages: [`link definition removed: ${verdict.message}`] };
      }
      return verdict.url === node.url ? { action: 'keep', messages: [] } : { action: 'set', set: { url: verdict.url }, messages: [] };
    }
    case 'image': {
      const verdict = checkUrl(decodeTokens(node.url ?? ''), 'media', page);
      if (!verdict.ok) return { action: 'remove', messages: [`image removed: ${verdict.message}`] };
      const set: Record<string, unknown> = {};
      if (verdict.url !== node.url) set.url = verdict.url;
      if (typeof node.alt === 'string' && hasToken(node.alt)) set.alt = decodeTokens(node.alt);
      if (page.options.zoomImages) set.data = { ...node.data, hProperties: { ...node.data?.hProperties, 'data-zoom': 'true' } };
      return { action: Object.keys(set).length ? 'set' : 'keep', set, messages: verdict.message ? [`image ${verdict.message}`] : [] } as Verdict;
    }
    default:
      return { action: 'keep', messages: [] };
  }
}

function firstLine(value: string | undefined): string {
  const line = (value ?? '').trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

function pageContext(options: SanitizeOptions, pageFile: string): PageContext {
  const dir = posix.dirname(pageFile.replace(/\\/g, '/'));
  return { options, pageDir: dir === '.' ? '' : dir };
}

/**
 * Lists what the sanitiser will do to a parsed page (`mdxToMdast` output, positions on). Findings carry
 * positions; nodes removed entirely carry their offsets so the Markdown output can leave them out too.
 */
export function auditTree(tree: AnyNode, options: SanitizeOptions, pageFile: string): Finding[] {
  const page = pageContext(options, pageFile);
  const findings: Finding[] = [];
  const walk = (node: AnyNode) => {
    const verdict = judge(node, page);
    const start = node.position?.start;
    const end = node.position?.end;
    for (const message of verdict.messages) {
      findings.push({
        severity: 'warning',
        message,
        line: start?.line,
        column: start?.column,
        removed: verdict.action === 'remove' && start && end ? { start: start.offset, end: end.offset } : undefined,
      });
    }
    if (verdict.action === 'remove') {
      if (verdict.messages.length === 0 && start && end) findings.push({ severity: 'warning', message: '', removed: { start: start.offset, end: end.offset } });
      return;
    }
    if (verdict.action === 'component') return;
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return findings;
}

/** Applies the verdicts to a whole subtree, returning plain replacement nodes. */
function clean(node: AnyNode, page: PageContext): AnyNode[] {
  const verdict = judge(node, page);
  const children = (): AnyNode[] => (node.children ?? []).flatMap((child: AnyNode) => clean(child, page));
  switch (verdict.action) {
    case 'remove':
      return [];
    case 'unwrap':
      return children();
    case 'attributes':
      return [{ type: node.type, name: node.name, attributes: verdict.attributes, children: children() }];
    case 'component':
      return [{ type: node.type, name: verdict.name, attributes: verdict.attributes, children: [] }];
    default: {
      const copy = { ...node, ...(verdict.action === 'set' ? verdict.set : {}) };
      if (Array.isArray(node.children)) copy.children = children();
      return [copy];
    }
  }
}

/**
 * The same rules as a Sätteri mdast plugin, run by the MDX compiler on every page. It walks the tree once
 * before the compiler goes on and replaces each node that changes with its cleaned subtree (Sätteri drops
 * transforms queued inside a replaced node, so a replaced subtree is cleaned whole, here).
 */
export function createSanitizePlugin(options: SanitizeOptions): (ctx: { fileURL: URL | undefined }) => MdastPluginDefinition {
  return ({ fileURL }) => {
    const file = fileURL ? decodeURIComponent(fileURL.pathname) : '';
    const relative = file.startsWith(options.sourceDir) ? file.slice(options.sourceDir.length).replace(/^\/+/, '') : '';
    const page = pageContext(options, relative);
    return {
      name: 'docs-sanitize',
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      before(root: AnyNode, ctx: any) {
        const walk = (node: AnyNode) => {
          for (const child of node.children ?? []) {
            const verdict = judge(child, page);
            if (verdict.action === 'keep') walk(child);
            else ctx.replaceNode(child, clean(child, page));
          }
        };
        walk(root);
      },
    } as MdastPluginDefinition;
  };
}
