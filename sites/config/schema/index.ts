import { z } from 'zod';
import { agentSchema } from './agent.ts';
import { anchorsSchema } from './anchors.ts';
import { bannerSchema } from './banner.ts';
import { mediaUrl, text } from './common.ts';
import { contentSchema } from './content.ts';
import { faviconSchema } from './favicon.ts';
import { headerSchema } from './header.ts';
import { logoSchema } from './logo.ts';
import { mcpSchema } from './mcp.ts';
import { ogSchema } from './og.ts';
import { redirectsSchema } from './redirects.ts';
import { scriptsSchema } from './scripts.ts';
import { searchSchema } from './search.ts';
import { seoSchema } from './seo.ts';
import { sidebarSchema } from './sidebar.ts';
import { socialSchema } from './social.ts';
import { tabsSchema } from './tabs.ts';
import { themeSchema } from './theme.ts';
import { variablesSchema } from './variables.ts';

/**
 * `docs.json` / `docs.yaml` (docs/docs-site-config.md). One module per top-level key; every key
 * has a default, so `{}` is valid. The same schema validates files and generates `/schema.json`.
 */
export const docsConfigSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Schema URL for editor support; not read at runtime.'),
    name: text().default('Documentation').describe('Site title (header, browser tab, generated social images).'),
    description: text().optional().describe('Default description for metadata and social previews.'),
    socialPreview: z.union([mediaUrl(), z.literal(false)]).optional().describe('Site-wide social preview image URL; false disables the generated one.'),
    logo: logoSchema,
    favicon: faviconSchema,
    banner: bannerSchema,
    theme: themeSchema,
    header: headerSchema,
    tabs: tabsSchema,
    sidebar: sidebarSchema,
    anchors: anchorsSchema,
    content: contentSchema,
    seo: seoSchema,
    variables: variablesSchema,
    redirects: redirectsSchema,
    search: searchSchema,
    scripts: scriptsSchema,
    social: socialSchema,
    og: ogSchema,
    agent: agentSchema,
    mcp: mcpSchema,
  })
  .meta({ title: 'Documentation site configuration (docs.json / docs.yaml)' });

export type DocsConfig = z.output<typeof docsConfigSchema>;
export type DocsConfigInput = z.input<typeof docsConfigSchema>;

export { frontmatterSchema, type Frontmatter, type Neighbour } from './frontmatter.ts';
export { isSidebarGroup, type SidebarGroup, type SidebarPage } from './sidebar.ts';
export { isExternal } from './common.ts';
export { THEME_PRESETS } from './theme.ts';
export { SOCIAL_KEYS } from './social.ts';
export { MODEL_PROVIDERS } from './agent.ts';
