import { z } from 'zod';
import { hexColor } from './common.ts';

/** Presets: component-library codes mapped to theme CSS variables (sites/src/lib/theme.ts). */
export const THEME_PRESETS = ['default', 'zinc', 'slate', 'ocean', 'forest', 'sunset', 'violet', 'rose'] as const;

/** `theme`: accent and background colours per mode, and a preset. */
export const themeSchema = z
  .strictObject({
    preset: z.string().optional().describe(`Component-library preset code mapped to theme CSS variables: ${THEME_PRESETS.join(', ')}.`),
    primary: hexColor().optional().describe('Accent colour in both modes when mode-specific colours are omitted.'),
    primaryLight: hexColor().optional().describe('Accent colour in light mode.'),
    primaryDark: hexColor().optional().describe('Accent colour in dark mode.'),
    backgroundLight: hexColor().optional().describe('Page background, light mode.'),
    backgroundDark: hexColor().optional().describe('Page background, dark mode.'),
    defaultTheme: z.enum(['light', 'dark']).optional().describe('Starting mode. Schema-only: readers get the platform default and can toggle.'),
  })
  .default({});
