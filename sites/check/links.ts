import { posix } from 'node:path';
import { isExternal, normalizeRoute } from '../config/routes.ts';

export interface ResolvedHref {
  /** The page route it names (`/guides/start`), normalized like the routes of pages. */
  route: string;
  /** The resolved path as written (extension kept, decoded): `/images/a.png`. For static files. */
  path: string;
  /** The fragment without `#` (decoded), or null. */
  hash: string | null;
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Where an internal link of a page goes: root-relative paths from the site root, relative paths from the page
 * file's folder (`./other`, `../api`, `other`), `#anchor` to the page itself. External URLs (`https:`, `//`,
 * `mailto:`...) and empty hrefs give null. Renderers that rewrite relative links should resolve them the same way.
 */
export function resolveHref(href: string, fromFile: string): ResolvedHref | null {
  const trimmed = href.trim();
  if (trimmed === '' || isExternal(trimmed)) return null;
  const hashAt = trimmed.indexOf('#');
  const hash = hashAt === -1 ? null : decode(trimmed.slice(hashAt + 1));
  const pathPart = (hashAt === -1 ? trimmed : trimmed.slice(0, hashAt)).split('?', 1)[0] ?? '';
  const from = fromFile.replace(/\\/g, '/');
  let path: string;
  if (pathPart === '') path = `/${from}`;
  else if (pathPart.startsWith('/')) path = pathPart;
  else path = posix.join('/', posix.dirname(`/${from}`), pathPart);
  path = posix.normalize(decode(path));
  if (!path.startsWith('/')) path = `/${path}`;
  return { route: normalizeRoute(path), path, hash };
}
