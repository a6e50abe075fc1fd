import { isExternal } from '../../config/schema/index.ts';
import { normalizeRoute } from '../../config/routes.ts';

/**
 * normalizeRoute, remembered: every page's layout normalises every link of its sidebar, which for a 1,000-page site
 * is a million calls (1.6 s of its build). Only links of the site's own config and pages come here (requests to a
 * host do not), and the bound makes a long-running dev server forget them all when full.
 */
export function routeOf(path: string): string {
  let route = routes.get(path);
  if (route === undefined) {
    route = normalizeRoute(path);
    if (routes.size >= ROUTES_KEPT) routes.clear();
    routes.set(path, route);
  }
  return route;
}
const routes = new Map<string, string>();
const ROUTES_KEPT = 50_000;

/** A config link (`/guides/a`, `guides/a#x`, `https://…`) as a URL of the site: internal paths get the base path. */
export function href(base: string, link: string): string {
  if (isExternal(link) || link.startsWith('#')) return link;
  const at = link.search(/[?#]/);
  const path = at === -1 ? link : link.slice(0, at);
  const rest = at === -1 ? '' : link.slice(at);
  const route = routeOf(path);
  return (route === '/' ? `${base}/` : `${base}${route}`) + rest;
}

/** True when a link leaves the site. */
export const external = (link: string) => isExternal(link) && !link.startsWith('mailto:');

/** Is `link` the page at `route`? */
export function isCurrent(link: string, route: string): boolean {
  return !isExternal(link) && routeOf(link) === routeOf(route);
}

/** A CSS colour from config, or undefined when it could escape its declaration. */
export function cssColor(value: string | undefined): string | undefined {
  return value !== undefined && /^[#a-zA-Z0-9(),.%\s-]+$/.test(value) ? value.trim() : undefined;
}

/** A language tag for `<html lang>` from a sidebar locale (`en`, `fr-CA`), else `en`. */
export function htmlLang(locale: string | undefined): string {
  return locale !== undefined && /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(locale) ? locale : 'en';
}

/** JSON for an inline `<script>`: `<` escaped so no `</script>` can close it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
