import { z } from 'zod';
import { mediaUrl } from './common.ts';

/** `og`: the generated social preview image (used when no page or site image is set). */
export const ogSchema = z
  .strictObject({
    logo: mediaUrl().optional().describe('Logo URL embedded in generated social preview images'),
    codeHost: z.boolean().default(true).describe('Include the code-host repository name in generated preview images'),
  })
  .default({ codeHost: true });
