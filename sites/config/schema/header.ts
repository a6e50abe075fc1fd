import { z } from 'zod';
import { linkTarget, text } from './common.ts';

export const headerLinkSchema = z.strictObject({
  title: text().describe('Button label'),
  href: linkTarget().describe('Link target'),
  cta: z.boolean().default(false).describe('Style as primary call-to-action when true'),
  locale: z.string().optional().describe('Show only for this locale. Schema-only: all links render on every locale.'),
});

/** `header`: name beside the logo and custom buttons. */
export const headerSchema = z
  .strictObject({
    showName: z.boolean().default(true).describe('Show the site name beside the logo.'),
    showThemeToggle: z.boolean().default(true).describe('Schema-only: the theme toggle always renders.'),
    showCodeHostCard: z.boolean().default(true).describe('Schema-only: the code-host link always renders.'),
    links: z.array(headerLinkSchema).default([]).describe('Custom header buttons.'),
  })
  .default({ showName: true, showThemeToggle: true, showCodeHostCard: true, links: [] });
