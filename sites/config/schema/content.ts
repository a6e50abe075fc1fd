import { z } from 'zod';

/** `content`: table of contents, images, previous/next and the page hero. */
export const contentSchema = z
  .strictObject({
    headerDepth: z.number().int().min(1).max(6).default(3).describe('Deepest heading level in the on-page table of contents (## through ### by default).'),
    zoomImages: z.boolean().default(false).describe('Click-to-zoom on images site-wide.'),
    automaticallyInferNextPrevious: z.boolean().default(true).describe('Infer previous/next footer links from sidebar order.'),
    showPageTitle: z.boolean().default(true).describe('Render frontmatter title and description as a page hero.'),
    showPageImage: z.boolean().default(true).describe('Render frontmatter image below the title block.'),
  })
  .default({ headerDepth: 3, zoomImages: false, automaticallyInferNextPrevious: true, showPageTitle: true, showPageImage: true });
