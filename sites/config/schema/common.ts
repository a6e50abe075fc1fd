import { z } from 'zod';

/** A non-empty string ("string, min length 1" in docs/docs-site-config.md). */
export const text = () => z.string().min(1, 'Must not be empty');

/** `#RRGGBB`. */
export const hexColor = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour in the form #RRGGBB');

/**
 * URL schemes links may use (http(s), mailto, irc(s), xmpp) and media may use (http(s)): anything else
 * (`javascript:`, `data:`, `vbscript:`...) could run code on the site's origin, which every hosted site shares.
 * One rule for docs.json, frontmatter and page bodies (source/sanitize.ts).
 */
export const LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto', 'irc', 'ircs', 'xmpp']);
export const MEDIA_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/** The scheme of a URL, lower case, as a browser reads it (ASCII whitespace and controls inside are ignored). */
export function schemeOf(url: string): string | undefined {
  const compact = Array.from(url)
    .filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('');
  return /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
}

/** Paths (root-relative or relative, fragments) and URLs of an allowed scheme. */
export function isAllowedUrl(url: string, kind: 'link' | 'media'): boolean {
  const scheme = schemeOf(url.trim());
  return scheme === undefined || (kind === 'link' ? LINK_SCHEMES : MEDIA_SCHEMES).has(scheme);
}

/** A link target: a root-relative path (`/guides/start`) or a URL of an allowed scheme (`https://`, `//`, `mailto:`). */
export const linkTarget = () => text().refine((v) => isAllowedUrl(v, 'link'), 'Must be a path or an http(s), mailto, irc or xmpp URL');

/** An optional link (may be empty, as `banner.href` and `social.*` were always allowed to be). */
export const optionalLink = () => z.string().refine((v) => isAllowedUrl(v, 'link'), 'Must be a path or an http(s), mailto, irc or xmpp URL');

/** An image or icon: a path in the repository or an http(s) URL. */
export const mediaUrl = () => z.string().refine((v) => isAllowedUrl(v, 'media'), 'Must be a path in the repository or an http(s) URL');

/** True for URLs that leave the site: `http://`, `https://`, protocol-relative `//`, `mailto:`. */
export const isExternal = (href: string) => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(href);
