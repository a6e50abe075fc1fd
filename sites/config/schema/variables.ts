import { z } from 'zod';

/** `variables`: nested object; string leaves replace `{{ dotted.path }}` in MDX bodies. */
export const variablesSchema = z
  .record(z.string(), z.unknown())
  .default({})
  .describe('String leaf values replace {{ dotted.path }} in page bodies (never frontmatter).');
