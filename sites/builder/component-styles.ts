import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import postcss, { type AtRule, type ChildNode, type Container, type Root, type Rule } from 'postcss';

/** Astro's scoping attribute: every element a component with a scoped `<style>` renders carries its id. */
const SCOPE = /\[data-astro-cid-([a-z0-9]+)\]/g;
const SCOPE_IN_HTML = / data-astro-cid-([a-z0-9]+)/g;
/** A stylesheet Astro links from a page (its own bundles only: `_astro/`). */
const STYLESHEET_LINK = /<link rel="stylesheet" href="([^"]*\/_astro\/)([^"/]+)\.css">/g;

/** One of Astro's stylesheets, split: the rules every page needs, and each component's own rules. */
interface SplitSheet {
  /** File name (in `_astro/`) of what is left once the components' rules are out. */
  baseName: string;
  /** Each component's rules (minified, as in the bundle), by scope id, in the bundle's order. */
  scoped: Map<string, string>;
}

/**
 * Component styles only on the pages that show the components. A site's pages are one Astro route, so Astro puts
 * every MDX component's scoped `<style>` into the one stylesheet every page loads: ~30 of its 47 kB (4.4 of 8.3 kB
 * gzipped), for components most pages never use. After each render, that stylesheet is split: rules scoped to one
 * component (`[data-astro-cid-…]`) leave it (the rest is written next to it as `<name>.base-<hash>.css`), and each
 * page carries the rules of the components it shows in a `<style>` just before its link to the rest, which keeps
 * the bundle's order (Astro puts component styles before the layout's). A page without components gets none.
 */
export class ComponentStyles {
  readonly #out: string;
  /** Sheets split so far, by file name. */
  readonly #sheets = new Map<string, Promise<SplitSheet | undefined>>();

  constructor(out: string) {
    this.#out = out;
  }

  /** Splits the stylesheets `html` links (once per build each), then answers the page with its components' rules. */
  async inPage(html: string): Promise<string> {
    const links = [...html.matchAll(STYLESHEET_LINK)];
    if (links.length === 0) return html;
    const sheets = await Promise.all(links.map(([, , name]) => this.#sheet(name!)));
    if (sheets.every((sheet) => sheet === undefined)) return html;
    const used = new Set([...html.matchAll(SCOPE_IN_HTML)].map(([, id]) => id!));
    let n = 0;
    return html.replace(STYLESHEET_LINK, (link, dir: string) => {
      const sheet = sheets[n++];
      if (!sheet) return link;
      const rules = [...sheet.scoped].filter(([id]) => used.has(id)).map(([, css]) => css).join('');
      return `${rules ? `<style>${rules}</style>` : ''}<link rel="stylesheet" href="${dir}${sheet.baseName}">`;
    });
  }

  #sheet(name: string): Promise<SplitSheet | undefined> {
    let sheet = this.#sheets.get(name);
    if (!sheet) {
      sheet = this.#split(name);
      this.#sheets.set(name, sheet);
    }
    return sheet;
  }

  async #split(name: string): Promise<SplitSheet | undefined> {
    const css = await readFile(join(this.#out, '_astro', `${name}.css`), 'utf8').catch(() => undefined);
    if (css === undefined) return undefined;
    const { base, scoped } = splitStylesheet(css);
    if (scoped.size === 0) return undefined;
    // Named after the bundle (whose name already tells its content) and what is left, so a change to either is a new URL.
    const baseName = `${name}.base-${createHash('sha256').update(base).digest('base64url').slice(0, 8)}.css`;
    await writeFile(join(this.#out, '_astro', baseName), base);
    return { baseName, scoped };
  }
}

/**
 * `css` without the rules scoped to exactly one component, and those rules by scope id (each inside the at-rules
 * that held it, `@media` and the like; consecutive rules under the same at-rule share one). Rules naming no
 * component or several, and at-rules without selectors (`@keyframes`, `@font-face`), stay in `base`.
 */
export function splitStylesheet(css: string): { base: string; scoped: Map<string, string> } {
  const root = postcss.parse(css);
  const scoped = new Map<string, Root>();
  const rules: Rule[] = [];
  root.walkRules((rule) => void rules.push(rule));
  for (const rule of rules) {
    const ids = new Set([...rule.selector.matchAll(SCOPE)].map(([, id]) => id!));
    if (ids.size !== 1 || insideKeyframes(rule)) continue;
    const id = [...ids][0]!;
    let sheet = scoped.get(id);
    if (!sheet) scoped.set(id, (sheet = postcss.root()));
    appendWithin(sheet, rule.clone(), atRulesAround(rule));
    removeEmptying(rule);
  }
  return { base: root.toString(), scoped: new Map([...scoped].map(([id, sheet]) => [id, sheet.toString()])) };
}

/** The at-rules holding `node`, outermost first. */
function atRulesAround(node: ChildNode): AtRule[] {
  const around: AtRule[] = [];
  for (let parent = node.parent; parent?.type === 'atrule'; parent = (parent as AtRule).parent) around.unshift(parent as AtRule);
  return around;
}

const insideKeyframes = (node: ChildNode) => atRulesAround(node).some((at) => at.name.endsWith('keyframes'));

/** Appends `node` to `sheet` inside copies of `around`, reusing the last ones when they are the same at-rules. */
function appendWithin(sheet: Container, node: ChildNode, around: AtRule[]): void {
  let container: Container = sheet;
  for (const at of around) {
    const last = container.last;
    if (last?.type === 'atrule' && last.name === at.name && last.params === at.params) container = last;
    else {
      const copy = at.clone({ nodes: [] });
      container.append(copy);
      container = copy;
    }
  }
  container.append(node);
}

/** Removes `node`, and the at-rules it leaves empty. */
function removeEmptying(node: ChildNode): void {
  let parent = node.parent;
  node.remove();
  while (parent?.type === 'atrule' && (parent.nodes?.length ?? 0) === 0) {
    const emptied = parent as AtRule;
    parent = emptied.parent;
    emptied.remove();
  }
}
