import { z } from 'zod';
import { linkTarget, text } from './common.ts';

export const tabSchema = z.strictObject({
  id: text().describe('Identifier referenced by sidebar tab'),
  title: text().describe('Label in the tab bar'),
  href: linkTarget().describe('Root-relative path opened when the tab is selected'),
  locale: z.string().optional().describe('Show the tab only for the matching locale sidebar'),
});

/** `tabs`: top-level navigation; sidebar groups join a tab through their `tab` field. */
export const tabsSchema = z.array(tabSchema).default([]);
