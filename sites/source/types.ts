import type { Frontmatter } from '../config/schema/index.ts';

export type { Problem } from '../config/problems.ts';

/** One MDX page of a site as read from disk (the same shape as `sites/check/types.ts`). */
export interface SourcePage {
  /** Relative to the site's folder, `/` separators: `guides/start.mdx`. */
  file: string;
  /** `/guides/start`; `index.mdx` -> `/`, `guides/index.mdx` -> `/guides`. */
  route: string;
  frontmatter: Frontmatter;
  /** The MDX after the frontmatter, variables not yet substituted. */
  body: string;
  /** The line of the file `body` starts on. */
  bodyLine: number;
}
