/** How hosted sites are named: the registry's key of a repository, and a site's base path in each routing mode. */

/** `owner/name` lower-cased: repositories are matched case-insensitively. */
export const slugOf = (owner: string, repo: string) => `${owner}/${repo}`.toLowerCase();

export type RoutingMode = 'path' | 'vanity' | 'domain';

/**
 * The base path of a repository's site for a ref (undefined: the default branch), no trailing slash:
 * `/acme/widgets~beta` on the service host, `/widgets~beta` on a vanity subdomain, `/~beta` (or `''`) on a custom
 * domain. A ref with `/` is encoded (`~feature%2Fx`).
 */
export function siteBase(mode: RoutingMode, repository: { owner: string; name: string }, ref: string | undefined): string {
  const suffix = ref === undefined ? '' : `~${encodeURIComponent(ref)}`;
  if (mode === 'domain') return suffix && `/${suffix}`;
  return `${mode === 'path' ? `/${repository.owner}` : ''}/${repository.name}${suffix}`;
}
