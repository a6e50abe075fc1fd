/**
 * Problems found in a site: docs.json/docs.yaml, frontmatter, page bodies. Every problem names a file (relative
 * to the site's folder), a 1-based line and column, and the JSON path of the value (`''` for the whole file).
 *
 * Severities: `error` (the site cannot be what the author wrote; fails `docs build` and hosting), `warning` (a value
 * is ignored or repaired; fails `--strict`), `info` (nothing is wrong with the site: another tool's name for one of
 * our keys, or another tool's key with no equivalent here; never fails, not even `--strict`).
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Problem {
  severity: Severity;
  /** Relative to the site's folder, with `/` separators (`docs.json`, `guides/start.mdx`). */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** JSON path such as `theme.primary` or `sidebar[0].pages[2].href`; `''` for the file itself. */
  path: string;
  message: string;
  /** A likely intended value (an unknown key's closest known key, a misspelt tab id...). */
  suggestion?: string;
}

export type PathSegment = string | number;

/** A position in a file. */
export interface Location {
  file: string;
  line: number;
  column: number;
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** `['sidebar', 0, 'pages', 2, 'href']` -> `sidebar[0].pages[2].href`; keys that are not identifiers are quoted. */
export function pathToString(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** One line: `docs.json:12:5  warning  theme.primary  Must be a colour in the form #RRGGBB (the default is used)`. */
export function formatProblem(p: Problem): string {
  const suggestion = p.suggestion === undefined ? '' : `; did you mean \`${p.suggestion}\`?`;
  return [`${p.file}:${p.line}:${p.column}`, p.severity, ...(p.path ? [p.path] : []), `${p.message}${suggestion}`].join('  ');
}

/** `2 errors, 1 warning` / `no problems` / `no problems, 2 notes` (`info` problems are notes). */
export function formatSummary(problems: readonly Problem[]): string {
  const count = (severity: Severity) => problems.filter((p) => p.severity === severity).length;
  const [errors, warnings, notes] = [count('error'), count('warning'), count('info')];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const failing = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean);
  return [failing.length > 0 ? failing.join(', ') : 'no problems', ...(notes ? [plural(notes, 'note')] : [])].join(', ');
}

/** Every problem on its own line (sorted by file, line, column), then the summary. */
export function formatProblems(problems: readonly Problem[]): string {
  return [...sortProblems(problems).map(formatProblem), formatSummary(problems)].join('\n');
}

/** By file (`docs.json`/`docs.yaml` first), then line and column; stable otherwise. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  const rank = (file: string) => (/^docs\.(json|ya?ml)$/.test(file) ? 0 : 1);
  return [...problems].sort((a, b) => rank(a.file) - rank(b.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column);
}

export const hasErrors = (problems: readonly Problem[]) => problems.some((p) => p.severity === 'error');

/** Whether a build fails: any error or warning with `strict`, otherwise only errors; `info` never fails. */
export const shouldFail = (problems: readonly Problem[], options: { strict?: boolean } = {}) =>
  options.strict ? problems.some((p) => p.severity !== 'info') : hasErrors(problems);
