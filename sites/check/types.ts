import type { Frontmatter } from '../config/schema/index.ts';

/** One MDX page of a site, as the renderer reads it (`validateFrontmatter` gives the last three). */
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
