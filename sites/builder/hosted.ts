/**
 * Hosted builds: a commit is built once and served under any base path (`/owner/repo`, `/owner/repo~ref`, a
 * vanity subdomain's `/repo`, a custom domain's root), origin and host mode. The build writes placeholders for
 * what depends on where a page is served, and the host resolves them per response ({@link resolveHosted}):
 * - every internal URL starts with {@link HOSTED_BASE}; absolute URLs (canonical, og:url, og:image, the sitemap)
 *   with {@link HOSTED_ORIGIN};
 * - the parts that depend on where a page is served (docs/docs-hosting.md) are kept between markers: the
 *   site-verification meta tag and the analytics and tag-manager scripts (`default-branch`: only when served from
 *   the repository's default branch, never on a preview, whose `docs.json` is whoever pushed it), and
 *   `scripts.altAnalytics` (`default-branch+custom-domain`: also only on a mapped custom domain or a vanity subdomain).
 */

export const HOSTED_BASE = '/__DOCS_BASE__';
export const HOSTED_HOST = 'docs-origin.invalid';
export const HOSTED_ORIGIN = `https://${HOSTED_HOST}`;

export type HostedCondition = 'default-branch' | 'custom-domain' | 'default-branch+custom-domain';

/** The markers around a part of a page that only some ways of serving it show. */
export const conditionStart = (condition: HostedCondition) => `<!--docs:if ${condition}-->`;
export const CONDITION_END = '<!--docs:end-->';

const BLOCK = /<!--docs:if (default-branch\+custom-domain|default-branch|custom-domain)-->([\s\S]*?)<!--docs:end-->/g;

export interface Served {
  /** Base path without a trailing slash: `''` at a host's root. */
  base: string;
  /** `https://docs.example.com` */
  origin: string;
  defaultBranch: boolean;
  customDomain: boolean;
}

/** True when a built text file has anything to resolve (most assets do not). */
export const needsResolving = (text: string) => text.includes(HOSTED_BASE) || text.includes(HOSTED_HOST) || text.includes('<!--docs:if ');

/** A built text file as served at `served`. */
export function resolveHosted(text: string, served: Served): string {
  const host = new URL(served.origin).host;
  return text
    .replace(BLOCK, (_, condition: HostedCondition, inner: string) =>
      condition.split('+').every((part) => (part === 'default-branch' ? served.defaultBranch : served.customDomain)) ? inner : '',
    )
    .replaceAll(HOSTED_ORIGIN, served.origin)
    .replaceAll(HOSTED_HOST, host)
    .replaceAll(`${HOSTED_BASE}/`, `${served.base}/`)
    .replaceAll(HOSTED_BASE, served.base || '/');
}
