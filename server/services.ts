import type { Database } from './platform/db/orm.ts';
import type { EventBus } from './marketplace/events/bus.ts';
import type { RateLimiter } from './platform/rate-limiter.ts';
import { AgentService } from './marketplace/agents.ts';
import type { DocsHostingServices } from './docs-hosting/index.ts';
import { ConversationService } from './marketplace/conversations.ts';
import { IdempotencyService } from './marketplace/idempotency.ts';
import { OrderService } from './marketplace/orders.ts';
import { PaymentService } from './marketplace/payments.ts';
import type { Ledger } from './marketplace/ledgers/ledger.ts';
import { OrganizationService } from './platform/organizations/service.ts';
import { ResourceService } from './resources/service.ts';
import { WalletAuthService } from './marketplace/wallet-auth.ts';

/** The domain services, built once per server and shared by every request. */
export interface Services {
  organizations: OrganizationService;
  resources: ResourceService;
  walletAuth: WalletAuthService;
  rateLimiter: RateLimiter;
  agents: AgentService;
  conversations: ConversationService;
  orders: OrderService;
  payments: PaymentService;
  idempotency: IdempotencyService;
  /** Live provider events: `poke()` after committing a transaction that recorded events. */
  events: EventBus;
  /** Documentation hosting: repositories, publishing, builds, domains, chat agents. */
  docs: DocsHostingServices;
}

export function createServices(
  db: Database,
  options: { rateLimiter: RateLimiter; events: EventBus; ledger: Ledger; commissionBps: number; docs: DocsHostingServices; publicBaseUrl?: string; log?: (error: unknown) => void },
): Services {
  return {
    organizations: new OrganizationService(db),
    resources: new ResourceService(db),
    walletAuth: new WalletAuthService(db, options),
    rateLimiter: options.rateLimiter,
    agents: new AgentService(db),
    conversations: new ConversationService(db, options.events),
    orders: new OrderService(db, options),
    payments: new PaymentService(db, options.ledger, {
      commissionBps: options.commissionBps,
      onEvents: () => options.events.poke(),
      ...(options.log ? { log: options.log } : {}),
    }),
    idempotency: new IdempotencyService(db),
    events: options.events,
    docs: options.docs,
  };
}
