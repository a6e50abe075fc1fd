import { z } from 'zod';
import { linkTarget, mediaUrl, text } from './common.ts';

/** A previous/next override: a page path, `{ title, href }`, or `false` to show none. */
const neighbour = z.union([z.literal(false), linkTarget(), z.strictObject({ title: text(), href: linkTarget() })]);

/** Per-page frontmatter: the keys that override site-wide settings. */
export const frontmatterSchema = z.strictObject({
  title: text().optional(),
  description: text().optional(),
  image: mediaUrl().min(1, 'Must not be empty').optional().describe('Page image (below the title) and social preview image'),
  noindex: z.boolean().optional(),
  redirect: linkTarget().optional().describe('Internal path or external URL this page redirects to'),
  previous: neighbour.optional(),
  next: neighbour.optional(),
  showPageTitle: z.boolean().optional(),
  showPageImage: z.boolean().optional(),
});

export type Frontmatter = z.output<typeof frontmatterSchema>;
export type Neighbour = z.output<typeof neighbour>;
