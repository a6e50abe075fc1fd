/**
 * Prop helpers shared by the built-in MDX components.
 *
 * The renderer strips JavaScript expressions from user MDX, so `cols={2}` may arrive as `cols="2"` (or not at all):
 * every numeric or boolean prop accepts its string form too.
 */

/** `true`, `"true"`, `""` (a bare attribute: `<Accordion defaultOpen>`), `"1"`, `"yes"` → true; `false`, `"false"`, `"0"`, `"no"` → false. */
export function toBool(value: unknown, fallback = false): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === '' || v === 'true' || v === '1' || v === 'yes') return true;
    if (v === 'false' || v === '0' || v === 'no') return false;
  }
  return fallback;
}

/** An integer in [min, max] from a number or a numeric string; anything else gives the fallback. */
export function toInt(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}

/** A non-empty trimmed string, or undefined. */
export function toText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  return v === '' ? undefined : v;
}

/**
 * A link target authors may use: relative paths, `#fragments`, `/root` paths, http(s) and mailto URLs.
 * Everything else (`javascript:`, `data:`, `vbscript:`, protocol-relative `//host`) is dropped.
 */
export function safeHref(value: unknown): string | undefined {
  const href = toText(value);
  if (href === undefined) return undefined;
  // Browsers ignore tabs and newlines inside URLs ("java\tscript:"): judge the scheme on the cleaned string.
  const cleaned = Array.from(href)
    .filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('');
  if (cleaned.startsWith('//')) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
  if (scheme === undefined) return href;
  return scheme === 'http' || scheme === 'https' || scheme === 'mailto' ? href : undefined;
}

/** An image source: like safeHref but without mailto. */
export function safeSrc(value: unknown): string | undefined {
  const src = safeHref(value);
  return src !== undefined && !/^mailto:/i.test(src) ? src : undefined;
}

let counter = 0;
/** An id unique within one build (so within every page). */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter.toString(36)}`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references an HTML serializer puts in attribute values. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** The value of one attribute in an HTML start tag, decoded; undefined when absent. */
export function attribute(startTag: string, name: string): string | undefined {
  const re = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i');
  const m = re.exec(startTag);
  if (!m) return undefined;
  return decodeEntities(m[1] ?? m[2] ?? m[3] ?? '');
}

/** A CSS colour an author may give (`#rgb`…`#rrggbbaa`, `rgb()`/`hsl()`/`oklch()` with plain numbers, or a colour name). */
export function toColor(value: unknown): string | undefined {
  const color = toText(value);
  if (color === undefined) return undefined;
  if (/^#[0-9a-f]{3,8}$/i.test(color)) return color;
  if (/^(?:rgba?|hsla?|oklch|oklab|lab|lch)\(\s*[-0-9.%\s,/a-z]*\)$/i.test(color) && !/[;:{}<>"'\\]/.test(color) && !/url|var|expression/i.test(color)) return color;
  if (/^[a-z]{3,20}$/i.test(color)) return color.toLowerCase();
  return undefined;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text for HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * A prop written in inline Markdown (Mintlify's Frame captions, Color.Row titles, Prompt descriptions) as HTML:
 * `code`, **bold**, *italic* or _italic_, ~~strikethrough~~ and [links](url). Everything is escaped first; a link keeps
 * only a {@link safeHref} target (root-relative paths get `base`), else it is plain text.
 */
export function inlineMarkdown(text: string, base = ''): string {
  const codes: string[] = [];
  let html = escapeHtml(text.replace(/[\uE000\uE001]/g, '')).replace(/`([^`]+)`/g, (_m, code: string) => `\uE000${codes.push(code) - 1}\uE001`);
  html = html
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/~~(.+?)~~/g, '<del>$1</del>')
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, url: string) => {
      const href = safeHref(decodeEntities(url));
      if (href === undefined) return label;
      const target = href.startsWith('/') && !href.startsWith('//') ? `${base}${href}` : href;
      const external = /^https?:/i.test(target);
      return `<a href="${escapeHtml(target)}"${external ? ' rel="noopener noreferrer"' : ''}>${label}</a>`;
    });
  return html.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => `<code>${codes[Number(i)]}</code>`);
}

/** An anchor id from text: lowercase letters, digits and hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The props <Property>, <ParamField> and <ResponseField> share (Field.astro renders them). */
export interface FieldProps {
  name?: string;
  type?: string;
  required?: boolean | string;
  optional?: boolean | string;
  default?: string;
  deprecated?: boolean | string;
}

/** Mintlify's fields (<ParamField>, <ResponseField>) add these. */
export interface MintlifyFieldProps extends FieldProps {
  hidden?: boolean | string;
  id?: string;
  pre?: string;
  post?: string;
}
