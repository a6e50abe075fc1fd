import { z } from 'zod';

/** `favicon`: one icon for both modes, or one per mode. */
export const faviconSchema = z
  .union([z.string(), z.strictObject({ light: z.string().optional(), dark: z.string().optional() })])
  .optional()
  .describe('A string applies to both modes. An object has optional light and dark strings.');
