import { z } from 'zod';
import { linkTarget, optionalLink, text } from './common.ts';

export const sidebarPageSchema = z.strictObject({
  title: text(),
  href: linkTarget().describe('Root-relative path or external URL'),
  icon: text().optional().describe('Icon-library slug'),
});

export interface SidebarGroupInput {
  group?: string;
  tab?: string | string[];
  href?: string;
  icon?: string;
  pages: (z.input<typeof sidebarPageSchema> | SidebarGroupInput)[];
}
export interface SidebarGroup {
  group?: string;
  tab?: string | string[];
  href?: string;
  icon?: string;
  pages: (SidebarPage | SidebarGroup)[];
}
export type SidebarPage = z.output<typeof sidebarPageSchema>;

export const sidebarGroupSchema: z.ZodType<SidebarGroup, SidebarGroupInput> = z.strictObject({
  group: z.string().optional().describe('Section label'),
  tab: z.union([z.string(), z.array(z.string())]).optional().describe('Tab id(s) the group belongs to'),
  href: optionalLink().optional().describe('Makes the group label link to this internal path'),
  icon: z.string().optional().describe('Icon-library slug'),
  get pages() {
    return z.array(z.union([sidebarPageSchema, sidebarGroupSchema])).describe('Page items or nested groups');
  },
}).meta({ id: 'SidebarGroup', title: 'Sidebar group' });

export const isSidebarGroup = (item: SidebarPage | SidebarGroup): item is SidebarGroup => 'pages' in item;

/** `sidebar`: flat (an array of groups) or locale-keyed (locale code, or `default`, -> groups). */
export const sidebarSchema = z
  .union([z.array(sidebarGroupSchema), z.record(z.string(), z.array(sidebarGroupSchema))])
  .default({})
  .describe('An array of groups, or an object of locale code (plus optional "default") to an array of groups.');
