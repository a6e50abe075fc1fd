import type { PageData, SiteData } from './types.ts';

const byRoute = new WeakMap<SiteData, Map<string, PageData>>();

/**
 * The site's pages by route, made once per build: every page's render finds itself and names its neighbours by
 * route, and looking them up in the list made a build's time grow with the square of its pages.
 */
export function pagesByRoute(site: SiteData): ReadonlyMap<string, PageData> {
  let pages = byRoute.get(site);
  if (!pages) byRoute.set(site, (pages = new Map(site.pages.map((page) => [page.route, page]))));
  return pages;
}
