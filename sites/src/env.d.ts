/// <reference types="astro/client" />

declare module 'virtual:docs/site' {
  import type { SiteData } from './lib/types.ts';
  const site: SiteData;
  export default site;
  export const loaders: Record<string, () => Promise<{ default: (props: Record<string, unknown>) => unknown; getHeadings: () => { depth: number; slug: string; text: string }[] }>>;
}
