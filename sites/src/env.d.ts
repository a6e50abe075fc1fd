/// <reference types="astro/client" />

declare module 'virtual:docs/site' {
  import type { SiteData } from './lib/types.ts';
  const site: SiteData;
  export default site;
  /** The routes this build renders (the others come from the build cache); null: every page. */
  export const render: string[] | null;
  export const loaders: Record<string, () => Promise<{ default: (props: Record<string, unknown>) => unknown; getHeadings: () => { depth: number; slug: string; text: string }[] }>>;
}

declare module 'virtual:docs/docsearch' {
  /** components/layout/DocSearch.astro, or an empty component for a site without `search.docsearch`. */
  const DocSearch: import('astro/runtime/server/index.js').AstroComponentFactory;
  export default DocSearch;
}
