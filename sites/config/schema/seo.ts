import { z } from 'zod';

/** `seo`: site-wide noindex (frontmatter `noindex` overrides per page). */
export const seoSchema = z
  .strictObject({ noindex: z.boolean().default(false).describe('Adds noindex to every page.') })
  .default({ noindex: false });
