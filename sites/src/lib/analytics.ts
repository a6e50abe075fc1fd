import type { DocsConfig } from '../../config/schema/index.ts';
import type { HostedCondition } from '../../builder/hosted.ts';
import type { RenderContext } from './types.ts';

/**
 * `scripts` (analytics) as a page carries them: the one place that decides, read by the layout (Analytics.astro),
 * which renders them, and by the Content-Security-Policy (builder/csp.ts), which allows their origins and no others.
 *
 * Third-party script runs only on a site's own origin: a mapped custom domain or a vanity subdomain, served from
 * the default branch. Never on the service host's `/{owner}/{repo}` paths (one origin shared by every repository
 * and by the service: a tag-manager container there would run whatever its owner publishes on all of them), never on
 * a preview (whose `docs.json` is whoever pushed it), never in a local build.
 */
export interface AnalyticsScripts {
  /** `vendorTagManager`: a Google Tag Manager container ID. */
  tagManager?: string | undefined;
  /** `vendorAnalytics` (without a tag manager): a Google Analytics measurement ID. */
  analytics?: string | undefined;
  /** `altAnalytics`: a Plausible-compatible script URL. */
  alt?: string | undefined;
  /** Hosted builds: the condition the host resolves (sites/builder/hosted.ts) for the scripts to be served. */
  condition?: HostedCondition | undefined;
  /** Origins the scripts load from and report to: the policy's only third-party origins. */
  origins: string[];
}

/** Origins Google Tag Manager and Google Analytics load from and report to. */
const GOOGLE = ['https://www.googletagmanager.com', 'https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com'];

/** Plausible's hosted script (`altAnalytics: true`). */
const PLAUSIBLE = 'https://plausible.io/js/script.js';

/** The script URL of `altAnalytics`: `true` -> Plausible's, an instance -> its `/js/script.js`, a `.js` URL as it is. */
function altScript(altAnalytics: string | boolean | undefined): string | undefined {
  if (altAnalytics === true) return PLAUSIBLE;
  if (typeof altAnalytics !== 'string' || !/^https?:\/\//i.test(altAnalytics)) return undefined;
  const url = /\.js(\?.*)?$/i.test(altAnalytics) ? altAnalytics : `${altAnalytics.replace(/\/+$/, '')}/js/script.js`;
  return URL.canParse(url) ? url : undefined;
}

/** The analytics scripts a page of this build carries, and where they may be served. */
export function analyticsScripts(config: Pick<DocsConfig, 'scripts'>, context: RenderContext): AnalyticsScripts {
  const none: AnalyticsScripts = { origins: [] };
  // A hosted build is rendered for every way it is served: the host keeps the scripts where the condition holds.
  if (!context.published || !(context.hosted || (context.defaultBranch && context.customDomain))) return none;
  const { vendorTagManager, vendorAnalytics, altAnalytics } = config.scripts;
  const tagManager = vendorTagManager || undefined;
  const analytics = tagManager ? undefined : vendorAnalytics || undefined;
  const alt = altScript(altAnalytics);
  const origins = [...(tagManager || analytics ? GOOGLE : []), ...(alt ? [new URL(alt).origin] : [])];
  if (origins.length === 0) return none;
  return { tagManager, analytics, alt, origins, condition: context.hosted ? 'default-branch+custom-domain' : undefined };
}
