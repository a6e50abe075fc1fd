import { z } from 'zod';
import { optionalLink } from './common.ts';

/** `banner`: the site-wide announcement strip. */
export const bannerSchema = z
  .strictObject({
    message: z.string().optional().describe('Announcement text in the site-wide banner strip.'),
    href: optionalLink().optional().describe('Optional link target on click.'),
    backgroundColor: z.string().optional().describe('Banner background colour.'),
    foregroundColor: z.string().optional().describe('Banner text colour.'),
  })
  .default({});
