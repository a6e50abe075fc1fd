import type { DocsHostingServices } from './docs-hosting/index.ts';
import type { MarketplaceServices } from './marketplace/index.ts';
import type { OrganizationService } from './platform/organizations/service.ts';
import type { RateLimiter } from './platform/rate-limiter.ts';
import type { ResourceService } from './resources/service.ts';

/**
 * The domain services every call reaches through its context (`ctx.services`), built once per server by the
 * composition root (server/app.ts): the platform's, then each product's.
 */
export interface Services extends MarketplaceServices {
  /** Organizations and their API keys (the resource API and docs hosting authenticate with them). */
  organizations: OrganizationService;
  rateLimiter: RateLimiter;
  resources: ResourceService;
  /** Documentation hosting: repositories, publishing, builds, domains, chat agents. */
  docs: DocsHostingServices;
}
