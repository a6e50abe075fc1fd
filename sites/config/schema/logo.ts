import { z } from 'zod';
import { mediaUrl } from './common.ts';

/** `logo`: header logo per mode; paths resolve against the repository root. */
export const logoSchema = z
  .strictObject({
    light: mediaUrl().optional().describe('Logo URL for light mode. Paths resolve relative to the repository root.'),
    dark: mediaUrl().optional().describe('Logo URL for dark mode. The light logo is reused when omitted.'),
  })
  .default({});
