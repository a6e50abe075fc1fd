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

/** What answers a request for a site path, and why. */
export type PathAnswer<File> = { by: 'page-redirect'; to: string } | { by: 'file'; file: File } | { by: 'redirects'; to: string };

/**
 * Redirect precedence, the one rule the check, the build's outputs and hosting all follow: a page whose
 * frontmatter has `redirect` governs its own path; elsewhere a file at the path (a page, or any file of the
 * site) is served; a `redirects` entry applies only where there is neither. Undefined: nothing answers.
 */
export function pathAnswer<File>(at: { pageRedirect?: string | undefined; file?: File | undefined; redirect?: string | undefined }): PathAnswer<File> | undefined {
  if (at.pageRedirect !== undefined) return { by: 'page-redirect', to: at.pageRedirect };
  if (at.file !== undefined) return { by: 'file', file: at.file };
  if (at.redirect !== undefined) return { by: 'redirects', to: at.redirect };
  return undefined;
}

/** True for links that stay on the site (root-relative, relative, or only a fragment). */
export const isInternal = (href: string) => !isExternal(href);

export { isExternal };
