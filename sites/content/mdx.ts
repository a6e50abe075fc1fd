import type { Root } from 'mdast';
import { mdxToMdast } from 'satteri';
import { suggest } from '../config/fallback.ts';
import { factsOf, headingsOf, UNPARSED, type BodyFacts, type Heading } from './facts.ts';
import { auditTree, type SanitizeOptions } from './sanitize.ts';
import type { Problem } from './types.ts';
import { decodeTokens, substituteVariables, variableNames, type Substitution } from './variables.ts';

/**
 * The Markdown features of the MDX compiler (GFM, smart punctuation, `$…$`/`$$…$$` math: the integration gives Astro's
 * Sätteri processor these): the parse check must parse the same way.
 */
export const MDX_FEATURES = { gfm: true, smartPunctuation: true, math: true } as const;

export interface PreparedPage {
  /** MDX handed to the compiler: frontmatter lines blanked (line numbers kept), variables substituted. */
  code: string;
  /** Markdown for agents: the body with variables substituted and removed code left out. */
  markdown: string;
  /** False when the page is not valid MDX: `code` is then a short notice page. */
  ok: boolean;
  problems: Problem[];
  /** What the site checks need of the body (its anchors and links), from the same parse. */
  facts: BodyFacts;
}

/**
 * Substitutes variables into a page body (unresolved placeholders become inert tokens: content/variables.ts) and
 * parses it as the compiler will. `error` is Sätteri's message when the body is not valid MDX.
 */
export function parseBody(body: string, variables: Record<string, unknown>): Substitution & ({ tree: Root } | { tree?: undefined; error: string }) {
  const substitution = substituteVariables(body, variables, 'token');
  try {
    return { ...substitution, tree: mdxToMdast(substitution.text, { features: MDX_FEATURES }) as Root };
  } catch (error) {
    return { ...substitution, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A page body's facts for the site checks (what {@link preparePage} gives too), for checking without building. */
export function bodyFacts(body: string, variables: Record<string, unknown> = {}): BodyFacts {
  const parsed = parseBody(body, variables);
  return parsed.tree ? factsOf(parsed.tree, parsed) : UNPARSED;
}

/** The headings of a page body (variables substituted first); `[]` when the body does not parse. */
export function extractHeadings(body: string, variables: Record<string, unknown> = {}): Heading[] {
  const parsed = parseBody(body, variables);
  return parsed.tree ? headingsOf(parsed.tree, parsed) : [];
}

/** The heading slugs of a page body, in order (what the table of contents links to). */
export const headingSlugs = (body: string, variables: Record<string, unknown> = {}) => extractHeadings(body, variables).map((h) => h.slug);

/**
 * Turns a page body (frontmatter split off) into what the MDX compiler sees. Runs in the Vite `load` hook (so `{{ variables }}` are in
 * place before MDX parses) and before the build (problems, Markdown output). Never throws on bad MDX: the page
 * becomes a notice and an error problem points at the line and column.
 */
export function preparePage(
  page: { file: string; body: string; bodyLine: number },
  variables: Record<string, unknown>,
  options: SanitizeOptions,
): PreparedPage {
  const { file, body, bodyLine } = page;
  const offsetLines = bodyLine - 1;
  const problems: Problem[] = [];
  const parsed = parseBody(body, variables);
  const { text, unresolved } = parsed;
  for (const item of unresolved) {
    const before = body.slice(0, item.offset);
    const line = before.split('\n').length;
    problems.push({
      severity: 'warning',
      file,
      line: line + offsetLines,
      column: item.offset - before.lastIndexOf('\n'),
      path: '',
      message:
        item.reason === 'missing'
          ? `variable \`${item.path}\` is not defined; the placeholder is shown as is`
          : `variable \`${item.path}\` is not a string; the placeholder is shown as is`,
      ...(item.reason === 'missing' ? suggest(item.path, variableNames(variables)) : {}),
    });
  }
  if (!parsed.tree) {
    const at = /^(\d+):(\d+):\s*/.exec(parsed.error);
    problems.push({
      severity: 'error',
      file,
      line: at ? Number(at[1]) + offsetLines : bodyLine,
      column: at ? Number(at[2]) : 1,
      path: '',
      // Positions inside the message are the body's: make them the file's.
      message: `not valid MDX, the page shows a notice instead: ${decodeTokens(at ? parsed.error.slice(at[0].length) : parsed.error).replace(/\((\d+):(\d+)\)/g, (_m, l: string, c: string) => `(line ${Number(l) + offsetLines}, column ${c})`)}`,
    });
    return { code: failedPage(), markdown: substituteVariables(body, variables, 'literal').text, ok: false, problems, facts: UNPARSED };
  }
  const { tree } = parsed;
  const findings = auditTree(tree, options, file);
  const removed: { start: number; end: number }[] = [];
  for (const finding of findings) {
    if (finding.removed) removed.push(finding.removed);
    if (finding.message) {
      problems.push({
        severity: finding.severity,
        file,
        line: (finding.line ?? 1) + offsetLines,
        column: finding.column ?? 1,
        path: '',
        message: finding.message,
      });
    }
  }
  return { code: '\n'.repeat(offsetLines) + text, markdown: decodeTokens(cut(text, removed)).trim(), ok: true, problems, facts: factsOf(tree, parsed) };
}

function cut(text: string, spans: { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < at) continue;
    out += text.slice(at, span.start);
    at = span.end;
  }
  return (out + text.slice(at)).replace(/\n{3,}/g, '\n\n');
}

function failedPage(): string {
  return [
    '<Danger>',
    '',
    'This page could not be rendered: its MDX is not valid. The build reported where.',
    '',
    '</Danger>',
    '',
  ].join('\n');
}
