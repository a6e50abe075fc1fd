/**
 * `variables`: `{{ dotted.path }}` placeholders in MDX bodies (never frontmatter) take the string leaf at that
 * path; intermediate objects are traversed by dotted path; a missing path or a non-string leaf leaves the
 * placeholder unchanged.
 *
 * MDX would read a literal `{{ x }}` as a JavaScript expression (and fail on `{{ a.b }}`), so a placeholder that
 * stays is first swapped for an inert alphanumeric token ({@link encodeToken}) that survives Markdown parsing
 * anywhere (text, code, link URLs, attribute values); the sanitising plugin turns tokens back into the literal
 * placeholder text inside the parsed tree, where it is plain text and can no longer be mistaken for code.
 */

const PLACEHOLDER = /\{\{\s*([^{}\s]+?)\s*\}\}/g;
const TOKEN = /zzdocsvar([0-9a-f]+)zz/g;

export interface Unresolved {
  /** The dotted path inside the braces. */
  path: string;
  /** Offset of the placeholder in the input text. */
  offset: number;
  /** Why it stays: no such path, or the leaf is not a string. */
  reason: 'missing' | 'not-a-string';
}

/** The string leaf of `variables` at `path` (`a.b.c`), or why there is none. */
function lookupVariable(variables: Record<string, unknown>, path: string): { value: string } | { reason: Unresolved['reason'] } {
  let value: unknown = variables;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return { reason: 'missing' };
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' ? { value } : { reason: 'not-a-string' };
}

export interface Substitution {
  text: string;
  unresolved: Unresolved[];
  /** Offset in `text` -> offset in the input (inside a replacement: its placeholder's), so problems point at what the author typed. */
  toSource(offset: number): number;
}

/**
 * Replaces every resolvable placeholder with its value. Unresolved placeholders are kept as they are
 * (`keep: 'literal'`, for Markdown output) or replaced by an inert token (`keep: 'token'`, for MDX compilation).
 */
export function substituteVariables(text: string, variables: Record<string, unknown>, keep: 'literal' | 'token'): Substitution {
  const unresolved: Unresolved[] = [];
  /** Each replacement: where it starts in the output and in the input, and both lengths. */
  const edits: { out: number; src: number; outLength: number; srcLength: number }[] = [];
  let delta = 0;
  const out = text.replace(PLACEHOLDER, (whole: string, path: string, offset: number) => {
    const found = lookupVariable(variables, path);
    let value: string;
    if ('value' in found) value = found.value;
    else {
      unresolved.push({ path, offset, reason: found.reason });
      value = keep === 'token' ? encodeToken(whole) : whole;
    }
    edits.push({ out: offset + delta, src: offset, outLength: value.length, srcLength: whole.length });
    delta += value.length - whole.length;
    return value;
  });
  const toSource = (offset: number) => {
    let shift = 0;
    for (const edit of edits) {
      if (offset < edit.out) break;
      if (offset < edit.out + edit.outLength) return edit.src;
      shift = edit.src + edit.srcLength - (edit.out + edit.outLength);
    }
    return offset + shift;
  };
  return { text: out, unresolved, toSource };
}

/** Every dotted path of `variables` that has a string value (what a misspelt placeholder may have meant). */
export function variableNames(variables: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(variables).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [prefix + key]
      : typeof value === 'object' && value !== null && !Array.isArray(value)
        ? variableNames(value as Record<string, unknown>, `${prefix}${key}.`)
        : [],
  );
}

export function encodeToken(placeholder: string): string {
  return `zzdocsvar${Buffer.from(placeholder, 'utf8').toString('hex')}zz`;
}

export function hasToken(value: string): boolean {
  return value.includes('zzdocsvar');
}

/** Turns tokens back into the placeholder text they stand for. */
export function decodeTokens(value: string): string {
  return value.replace(TOKEN, (_whole, hex: string) => Buffer.from(hex, 'hex').toString('utf8'));
}
