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

export const PLACEHOLDER = /\{\{\s*([^{}\s]+?)\s*\}\}/g;
const TOKEN = /zzdocsvar([0-9a-f]+)zz/g;

/** The string leaf of `variables` at `path` (`a.b.c`), or undefined (missing path, non-string leaf). */
export function lookupVariable(variables: Record<string, unknown>, path: string): string | undefined {
  let value: unknown = variables;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' ? value : undefined;
}

export interface Unresolved {
  /** The dotted path inside the braces. */
  path: string;
  /** Offset of the placeholder in the input text. */
  offset: number;
  /** Why it stays: no such path, or the leaf is not a string. */
  reason: 'missing' | 'not-a-string';
}

function reasonFor(variables: Record<string, unknown>, path: string): Unresolved['reason'] {
  let value: unknown = variables;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return 'missing';
    value = (value as Record<string, unknown>)[key];
  }
  return 'not-a-string';
}

/**
 * Replaces every resolvable placeholder with its value. Unresolved placeholders are kept as they are
 * (`keep: 'literal'`, for Markdown output) or replaced by an inert token (`keep: 'token'`, for MDX compilation).
 */
export function substituteVariables(
  text: string,
  variables: Record<string, unknown>,
  keep: 'literal' | 'token',
): { text: string; unresolved: Unresolved[] } {
  const unresolved: Unresolved[] = [];
  const out = text.replace(PLACEHOLDER, (whole: string, path: string, offset: number) => {
    const value = lookupVariable(variables, path);
    if (value !== undefined) return value;
    unresolved.push({ path, offset, reason: reasonFor(variables, path) });
    return keep === 'token' ? encodeToken(whole) : whole;
  });
  return { text: out, unresolved };
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
