import { z } from 'zod';

/** `og`: the generated social preview image (used when no page or site image is set). */
export const ogSchema = z
  .strictObject({
    logo: z.string().optional().describe('Logo URL embedded in generated social preview images'),
    codeHost: z.boolean().default(true).describe('Include the code-host repository name in generated preview images'),
  })
  .default({ codeHost: true });
