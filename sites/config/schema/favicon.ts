import { z } from 'zod';
import { mediaUrl } from './common.ts';

/** `favicon`: one icon for both modes, or one per mode. */
export const faviconSchema = z
  .union([mediaUrl(), z.strictObject({ light: mediaUrl().optional(), dark: mediaUrl().optional() })])
  .optional()
  .describe('A string applies to both modes. An object has optional light and dark strings.');
