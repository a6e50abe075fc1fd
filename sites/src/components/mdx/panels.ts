/**
 * Server-side splitting of rendered slot HTML into tab panels, for <Tabs> and <CodeGroup>.
 *
 * <Tab> wraps its rendered content in two HTML comments. Author MDX cannot produce HTML comments (they are a syntax
 * error in MDX) and code blocks escape their text, so the markers cannot be forged by page content. A nested <Tabs>
 * has already consumed its own markers when the outer one sees the HTML; depth counting covers a stray <Tab> in a <Tab>.
 */
import { attribute } from './props.ts';

export interface Split {
  panels: Panel[];
  /** Everything outside the panels, in order (usually whitespace; kept so no author content is lost). */
  rest: string;
}

export interface Panel {
  /** Plain text label (escaped when rendered). */
  label: string;
  /** Rendered HTML of the panel body. */
  html: string;
  /** docs.page <TabItem value>: what `defaultValue` and `groupId` synchronisation match. */
  value?: string | undefined;
  /** An icon name for the tab (icons.ts) and its Mintlify `iconType`. */
  icon?: string | undefined;
  iconType?: string | undefined;
  /** A code block's language (CodeGroup's `defaultLanguage` matches it). */
  lang?: string | undefined;
}

/** What a <Tab> or <TabItem> tells its <Tabs> about itself. */
export type TabMeta = Omit<Panel, 'html' | 'lang'>;

const OPEN = 'docs-tab:';
const CLOSE = '/docs-tab';

export function tabStart(meta: TabMeta): string {
  return `<!--${OPEN}${encodeURIComponent(JSON.stringify(meta))}-->`;
}
export const tabEnd = `<!--${CLOSE}-->`;

function decodeMeta(encoded: string): TabMeta {
  try {
    const meta = JSON.parse(decodeURIComponent(encoded)) as Partial<TabMeta>;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return { label: text(meta.label) ?? '', value: text(meta.value), icon: text(meta.icon), iconType: text(meta.iconType) };
  } catch {
    return { label: '' };
  }
}

/** docs.page's Tabs `values` (JSON `[{ label, value }]`) as value -> label; empty when absent or not that shape. */
export function valueLabels(json: string | undefined): Map<string, string> {
  const labels = new Map<string, string>();
  if (json === undefined) return labels;
  try {
    const list: unknown = JSON.parse(json);
    if (Array.isArray(list)) for (const item of list) if (typeof item?.value === 'string' && typeof item.label === 'string') labels.set(item.value, item.label);
  } catch {
    // Not JSON: no labels.
  }
  return labels;
}

/** Top-level <Tab> sections of the HTML. */
export function splitTabs(html: string): Split {
  const panels: Panel[] = [];
  let rest = '';
  const marker = /<!--(docs-tab:([^>]*?)|\/docs-tab)-->/g;
  let depth = 0;
  let meta: TabMeta = { label: '' };
  let start = 0;
  let outside = 0;
  for (let m = marker.exec(html); m !== null; m = marker.exec(html)) {
    if (m[1] === CLOSE) {
      if (depth === 0) continue;
      depth -= 1;
      if (depth === 0) {
        panels.push({ ...meta, html: html.slice(start, m.index) });
        outside = m.index + m[0].length;
      }
    } else {
      if (depth === 0) {
        rest += html.slice(outside, m.index);
        meta = decodeMeta(m[2] ?? '');
        start = m.index + m[0].length;
      }
      depth += 1;
    }
  }
  rest += depth === 0 ? html.slice(outside) : html.slice(start);
  return { panels, rest };
}

const LANGUAGE_NAMES: Record<string, string> = {
  bash: 'Bash', sh: 'Shell', shell: 'Shell', shellscript: 'Shell', zsh: 'Zsh', powershell: 'PowerShell', ps1: 'PowerShell',
  js: 'JavaScript', javascript: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JSX',
  ts: 'TypeScript', typescript: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript', tsx: 'TSX',
  py: 'Python', python: 'Python', rb: 'Ruby', ruby: 'Ruby', go: 'Go', rs: 'Rust', rust: 'Rust', java: 'Java',
  kt: 'Kotlin', kotlin: 'Kotlin', swift: 'Swift', c: 'C', cpp: 'C++', 'c++': 'C++', cs: 'C#', csharp: 'C#', php: 'PHP',
  json: 'JSON', jsonc: 'JSON', yaml: 'YAML', yml: 'YAML', toml: 'TOML', xml: 'XML', html: 'HTML', css: 'CSS',
  sql: 'SQL', graphql: 'GraphQL', md: 'Markdown', markdown: 'Markdown', mdx: 'MDX', dockerfile: 'Dockerfile',
  diff: 'Diff', http: 'HTTP', curl: 'cURL', plaintext: 'Text', text: 'Text', txt: 'Text',
};

/** Tab label of a code block: its title (`data-title`, else `title`), else a language name, else "Code N". */
export function codeLabel(preStartTag: string, index: number): string {
  const title = attribute(preStartTag, 'data-title') ?? attribute(preStartTag, 'title');
  if (title !== undefined && title.trim() !== '') return title.trim();
  const lang = attribute(preStartTag, 'data-language')?.trim();
  if (lang) return LANGUAGE_NAMES[lang.toLowerCase()] ?? lang;
  return `Code ${index + 1}`;
}

/**
 * Top-level <pre> elements of the HTML (fenced code blocks: Shiki's `<pre class="astro-code" data-language="…">`,
 * Prism's `<pre class="language-…" data-language="…">` or a plain `<pre>`). Code text is escaped, so the first
 * `</pre>` closes the block.
 */
export function splitCodeBlocks(html: string): Split {
  const panels: Panel[] = [];
  let rest = '';
  let outside = 0;
  const block = /(<pre\b[^>]*>)[\s\S]*?<\/pre>/gi;
  for (let m = block.exec(html); m !== null; m = block.exec(html)) {
    rest += html.slice(outside, m.index);
    outside = m.index + m[0].length;
    panels.push({ label: codeLabel(m[1] ?? '<pre>', panels.length), html: m[0], lang: attribute(m[1] ?? '', 'data-language')?.trim().toLowerCase() });
  }
  return { panels, rest: rest + html.slice(outside) };
}
