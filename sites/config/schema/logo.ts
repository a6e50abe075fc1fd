import { z } from 'zod';

/** `logo`: header logo per mode; paths resolve against the repository root. */
export const logoSchema = z
  .strictObject({
    light: z.string().optional().describe('Logo URL for light mode. Paths resolve relative to the repository root.'),
    dark: z.string().optional().describe('Logo URL for dark mode. The light logo is reused when omitted.'),
  })
  .default({});
