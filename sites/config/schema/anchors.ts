import { z } from 'zod';
import { linkTarget, text } from './common.ts';

export const anchorSchema = z.strictObject({
  icon: text().describe('Icon-library slug'),
  title: text().describe('Label'),
  href: linkTarget().describe('Root-relative path or external URL'),
  locale: z.string().optional().describe('Show only for the matching locale'),
  tab: z.string().optional().describe('Show only when the active tab matches'),
});

/** `anchors`: shortcut links below the sidebar search box. */
export const anchorsSchema = z.array(anchorSchema).default([]);
