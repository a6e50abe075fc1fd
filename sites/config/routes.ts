import { isExternal } from './schema/common.ts';

/**
 * Internal paths compared the way the sites serve them: leading and trailing slashes are tolerated
 * (`guides/start/` = `/guides/start`), `.mdx`/`.md` and a final `/index` name the page itself, the query and
 * fragment are not part of the path.
 */
export function normalizeRoute(path: string): string {
  let p = path.split(/[?#]/, 1)[0] ?? '';
  try {
    p = decodeURI(p);
  } catch {
    // keep it as written
  }
  p = `/${p}`.replace(/\/{2,}/g, '/').replace(/\.mdx?$/i, '');
  p = p.replace(/\/index$/i, '/').replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** The route of a page file: `guides/start.mdx` -> `/guides/start`, `index.mdx` -> `/`, `guides/index.mdx` -> `/guides`. */
export const routeOfFile = (file: string) => normalizeRoute(file.replace(/\\/g, '/'));

/** True for links that stay on the site (root-relative, relative, or only a fragment). */
export const isInternal = (href: string) => !isExternal(href);

export { isExternal };
