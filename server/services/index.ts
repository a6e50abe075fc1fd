import type { Database } from '../db/orm.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { AgentService } from './agents.ts';
import { ConversationService } from './conversations.ts';
import { OrganizationService } from './organizations.ts';
import { ResourceService } from './resources.ts';
import { WalletAuthService } from './wallet-auth.ts';

/** The domain services, built once per server and shared by every request. */
export interface Services {
  organizations: OrganizationService;
  resources: ResourceService;
  walletAuth: WalletAuthService;
  rateLimiter: RateLimiter;
  agents: AgentService;
  conversations: ConversationService;
}

export function createServices(
  db: Database,
  options: { rateLimiter: RateLimiter; publicBaseUrl?: string; log?: (error: unknown) => void },
): Services {
  return {
    organizations: new OrganizationService(db),
    resources: new ResourceService(db),
    walletAuth: new WalletAuthService(db, options),
    rateLimiter: options.rateLimiter,
    agents: new AgentService(db),
    conversations: new ConversationService(db),
  };
}
