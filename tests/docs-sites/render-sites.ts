/**
 * The sites the render tests read, each built once per test process on first use (buildFixture caches by
 * options), and the small readers those tests share.
 */
import type { BuiltSite, El, Page } from '../helpers/docs.ts';
import { buildFixture } from '../helpers/docs.ts';

export const BASE = '/acme/widgets';
export const ORIGIN = 'https://docs.example.com';
const PUBLISHED = { published: true, defaultBranch: true, customDomain: true, codeHost: { name: 'acme/widgets', url: 'https://github.com/acme/widgets' } };

export const sites = {
  /** Every key, published on the default branch of a custom domain, under a base path. */
  full: (): Promise<BuiltSite> => buildFixture('docs-full', { base: BASE, site: ORIGIN, context: PUBLISHED }),
  /** The same repository built locally: no base, no origin, nothing injected. */
  local: (): Promise<BuiltSite> => buildFixture('docs-full'),
  /** `{}`. */
  empty: (): Promise<BuiltSite> => buildFixture('docs-empty'),
  /** Published on a branch preview of the default path. */
  branch: (): Promise<BuiltSite> => buildFixture('docs-empty', {
    config: {
      theme: { primary: '#7c3aed' },
      scripts: { vendorAnalytics: 'G-ONLY1', vendorSiteVerification: 'branch-token', altAnalytics: 'https://stats.example.com' },
    },
    context: { published: true, defaultBranch: false, customDomain: true },
    site: 'https://acme.example.org',
  }),
  /** Analytics without a tag manager, published from the default branch on a domain of its own. */
  analytics: (): Promise<BuiltSite> => buildFixture('docs-empty', {
    config: { scripts: { vendorAnalytics: 'G-ONLY1', altAnalytics: 'https://stats.example.com' } },
    context: { published: true, defaultBranch: true, customDomain: true },
    site: 'https://acme.example.org',
  }),
  /** Flat sidebar, site-wide noindex, socialPreview false, DocSearch off.... */
  variant: (): Promise<BuiltSite> => buildFixture('docs-empty', {
    config: {
      name: 'Variant',
      socialPreview: false,
      seo: { noindex: true },
      logo: { light: 'picture.png' },
      favicon: 'picture.png',
      header: { showName: false },
      theme: { preset: 'forest' },
      content: { automaticallyInferNextPrevious: false },
      scripts: { altAnalytics: true, vendorSiteVerification: 'variant-token' },
      sidebar: [
        { group: 'First', pages: [{ title: 'Home', href: '/' }, { title: 'Guide', href: '/guide' }] },
        { group: 'Second', pages: [{ title: 'Open', href: '/open' }] },
      ],
    },
    files: { 'open.mdx': '---\ntitle: Open page\nnoindex: false\n---\n\nIndexable despite the site-wide setting.\n' },
    context: { published: true, defaultBranch: true, customDomain: false },
  }),
  /** Frontmatter and per-image overrides of site-wide `false`s, a banner without a link. */
  overrides: (): Promise<BuiltSite> => buildFixture('docs-empty', {
    config: {
      banner: { message: 'Plain notice' },
      content: { showPageImage: false, automaticallyInferNextPrevious: false },
      redirects: { '/cdn': '//cdn.example.com/file', '/docs-old': '/guide/' },
    },
    files: {
      'shown.mdx': '---\ntitle: Shown\nimage: picture.png\nshowPageImage: true\nprevious: /guide\nnext: { title: Home page, href: / }\n---\n\n<img src="picture.png" alt="Zoom me" data-zoom />\n',
    },
  }),
};

export type SiteName = keyof typeof sites;

/** The named sites, built in parallel. */
export async function loadSites<const N extends SiteName>(...names: N[]): Promise<Record<N, BuiltSite>> {
  const built = await Promise.all(names.map((name) => sites[name]()));
  return Object.fromEntries(names.map((name, i) => [name, built[i]])) as Record<N, BuiltSite>;
}

export const css = (page: Page) => page.selectAll('style').map((s) => s.text).join('\n');
export const hrefs = (page: Page, selector: string) => page.selectAll(selector).map((a) => a.attr('href'));
export const texts = (page: El, selector: string) => page.selectAll(selector).map((e) => e.text.trim());
