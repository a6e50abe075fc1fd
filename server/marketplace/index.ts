import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DatabaseConfig, LedgerConfig } from '../platform/config.ts';
import type { Database } from '../platform/db/orm.ts';
import type { Logger } from '../platform/logger.ts';
import { AgentService } from './agents.ts';
import { ConversationService } from './conversations.ts';
import { EventBus, type EventBusOptions } from './events/bus.ts';
import { IdempotencyService } from './idempotency.ts';
import { createLedger, createSolanaRpcHandler, LiteSvmLedger, type AnyLedger } from './ledgers/index.ts';
import { OrderService } from './orders.ts';
import { PaymentService } from './payments.ts';
import { WalletAuthService } from './wallet-auth.ts';

/** What the marketplace's routers call. */
export interface MarketplaceServices {
  walletAuth: WalletAuthService;
  agents: AgentService;
  conversations: ConversationService;
  orders: OrderService;
  payments: PaymentService;
  idempotency: IdempotencyService;
  /** Live provider events: `poke()` after committing a transaction that recorded events. */
  events: EventBus;
}

export interface MarketplaceOptions {
  database: DatabaseConfig;
  ledger: LedgerConfig;
  commissionBps: number;
  publicBaseUrl?: string | undefined;
  events?: EventBusOptions;
}

export interface Marketplace {
  services: MarketplaceServices;
  ledger: AnyLedger;
  /** Answers the embedded ledger's development JSON-RPC (`/dev/solana-rpc`); false for everything else. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Settles what a dead process left unsettled, then starts live events and the periodic reconciliation. */
  start(): Promise<void>;
  /** Ends the reconciliation and live events (with them the subscriptions that would keep HTTP from draining). */
  stop(): Promise<void>;
  /** Closes the ledger: once in-flight requests are done. */
  close(): Promise<void>;
}

/**
 * The marketplace as one piece: its ledger (the embedded LiteSVM one, or a Solana cluster), the live-event bus,
 * the services, and the reconciliation that finishes payments an outage or a crash left half-done.
 */
export async function createMarketplace(db: Database, options: MarketplaceOptions, log: Logger): Promise<Marketplace> {
  const events = new EventBus(db, {
    ...(options.database.kind === 'postgresql' ? { listenUrl: options.database.url } : {}),
    onError: (err, during) => log.warn({ err }, `events: ${during} failed`),
    ...options.events,
  });
  const ledger = await createLedger(options.ledger, log);
  const logCleanup = (err: unknown) => log.warn({ err }, 'background cleanup failed');
  const services: MarketplaceServices = {
    walletAuth: new WalletAuthService(db, { ...(options.publicBaseUrl ? { publicBaseUrl: options.publicBaseUrl } : {}), log: logCleanup }),
    agents: new AgentService(db),
    conversations: new ConversationService(db, events),
    orders: new OrderService(db, { commissionBps: options.commissionBps, ledger }),
    payments: new PaymentService(db, ledger, { commissionBps: options.commissionBps, onEvents: () => events.poke(), log: logCleanup }),
    idempotency: new IdempotencyService(db),
    events,
  };
  // The embedded ledger answers Solana JSON-RPC for clients (a real cluster has its own RPC).
  const solanaRpc = ledger instanceof LiteSvmLedger ? createSolanaRpcHandler(ledger) : undefined;

  const reconcile = (olderThanMs: number) =>
    services.payments.reconcile(olderThanMs).then(
      (result) => result.settled + result.failed + result.pending > 0 && log.info({ payments: result }, 'reconciled payments'),
      (err: unknown) => log.warn({ err }, 'payment reconciliation failed'),
    );
  let reconciler: NodeJS.Timeout | undefined;

  return {
    services,
    ledger,
    async handle(req, res) {
      if (!solanaRpc || (req.url ?? '').split('?', 1)[0] !== '/dev/solana-rpc') return false;
      await solanaRpc(req, res);
      return true;
    },
    async start() {
      // Payments a previous process left unsettled (it died mid-way) are finished before serving; later, any
      // an outage of the chain left behind.
      await reconcile(0);
      reconciler = setInterval(() => void reconcile(60_000), 30_000).unref();
      await events.start();
    },
    async stop() {
      clearInterval(reconciler);
      await events.close(); // ends tRPC-over-HTTP (SSE) subscriptions too
    },
    close: () => ledger.close(),
  };
}
