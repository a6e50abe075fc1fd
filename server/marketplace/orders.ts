import { randomUUID } from 'node:crypto';
import { LockMode, raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from '../platform/db/orm.ts';
import { Agent, Conversation, LIVE_PAYMENT_STATES, Order, Payment, Review } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import { microToUsdc, usdcToMicro } from './money.ts';
import type {
  OrderCreate,
  OrderDeliver,
  OrderList,
  OrderListItem,
  OrderOut,
  OrderStatus,
  ReviewCreate,
  ReviewOut,
} from './schemas.ts';
import { agentNotFound } from './agents.ts';
import { LedgerError, type Ledger } from './ledgers/ledger.ts';
import { requireAgentTokenAccount } from './payout-account.ts';

/** An order as created: nothing paid, delivered or completed yet (the seed backdates and advances such orders). */
export function newOrder(fields: Pick<Order, 'id' | 'conversation' | 'agent' | 'clientWallet' | 'description' | 'priceMicro' | 'deliveryTime' | 'status' | 'commissionBps' | 'createdAt'>): Order {
  return {
    ...fields,
    agentAmountMicro: null,
    commissionAmountMicro: null,
    txSignature: null,
    splitSignature: null,
    paidAt: null,
    deliveredAt: null,
    deliveryResult: null,
    deliveryMessage: null,
    deliveryAttachments: null,
    completedAt: null,
    updatedAt: fields.createdAt,
  };
}

export const orderNotFound = (id: string) => new AppError('ORDER_NOT_FOUND', `Order '${id}' not found`);

/**
 * The order state machine (docs/orders-and-payments.md "The order state machine"): each operation, who may do it, the one
 * state it starts from and the state it leads to. Anything else is INVALID_STATUS_TRANSITION.
 */
export const TRANSITIONS = {
  accept: { by: 'client', from: 'PENDING', to: 'PAID' },
  deliver: { by: 'agent', from: 'PAID', to: 'DELIVERED' },
  review: { by: 'client', from: 'DELIVERED', to: 'COMPLETED' },
  complete: { by: 'client', from: 'DELIVERED', to: 'COMPLETED' },
  cancel: { by: 'either', from: 'PENDING', to: 'CANCELLED' },
} as const satisfies Record<string, { by: 'client' | 'agent' | 'either'; from: OrderStatus; to: OrderStatus }>;
export type Operation = keyof typeof TRANSITIONS;

export const invalidTransition = (operation: Operation, status: string) =>
  new AppError('INVALID_STATUS_TRANSITION', `Cannot ${operation} an order that is ${status}`, {
    status,
    operation,
    requiredStatus: TRANSITIONS[operation].from,
  });

/** Refuses `operation` on an order in any state but the one it starts from (INVALID_STATUS_TRANSITION). */
export function requireStartState(operation: Operation, status: string): void {
  if (status !== TRANSITIONS[operation].from) throw invalidTransition(operation, status);
}


const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
const usdcOrNull = (micro: bigint | null | undefined) => (micro === null || micro === undefined ? null : microToUsdc(micro));

function orderOut(order: Order, review?: Review | null): OrderOut {
  return {
    id: order.id,
    conversationId: order.conversation,
    agentId: order.agent,
    clientWallet: order.clientWallet,
    description: order.description,
    price: microToUsdc(order.priceMicro),
    deliveryTime: order.deliveryTime,
    status: order.status as OrderStatus,
    paymentMethod: 'usdc',
    txSignature: order.txSignature ?? null,
    splitSignature: order.splitSignature ?? null,
    agentAmount: usdcOrNull(order.agentAmountMicro),
    commissionAmount: usdcOrNull(order.commissionAmountMicro),
    paidAt: iso(order.paidAt),
    deliveredAt: iso(order.deliveredAt),
    completedAt: iso(order.completedAt),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    ...(order.deliveredAt
      ? { delivery: { result: order.deliveryResult ?? '', message: order.deliveryMessage ?? '', attachments: order.deliveryAttachments ?? [] } }
      : {}),
    ...(review ? { review: { id: review.id, rating: review.rating, comment: review.comment ?? null, createdAt: review.createdAt.toISOString() } } : {}),
  };
}

const reviewOut = (r: Review): ReviewOut => ({
  id: r.id,
  orderId: r.order,
  agentId: r.agent,
  clientWallet: r.clientWallet,
  rating: r.rating,
  comment: r.comment ?? null,
  createdAt: r.createdAt.toISOString(),
});

/** Orders between a consumer and an agent: creation, delivery, completion, cancellation, reviews. Payment is in PaymentService. */
export class OrderService {
  readonly #db: Database;
  readonly #commissionBps: number;
  readonly #ledger: Ledger;

  constructor(db: Database, options: { commissionBps: number; ledger: Ledger }) {
    this.#db = db;
    this.#commissionBps = options.commissionBps;
    this.#ledger = options.ledger;
  }

  /**
   * The agent proposes an order in one of its conversations; the consumer then accepts and pays it. The agent's USDC
   * token account must exist (payout-account.ts): checked last, outside the transaction, as it may ask a remote node.
   */
  async create(wallet: string, input: OrderCreate): Promise<OrderOut> {
    const em = this.#db.em();
    const agent = await em.findOne(Agent, { id: input.agentId, deletedAt: null });
    if (!agent) throw agentNotFound(input.agentId);
    if (agent.walletAddress !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'Only the agent can create its orders');
    const conversation = await em.findOne(Conversation, { id: input.conversationId });
    if (!conversation) throw new AppError('CONVERSATION_NOT_FOUND', `Conversation '${input.conversationId}' not found`);
    if (conversation.agent !== agent.id) throw new AppError('UNAUTHORIZED_ACCESS', "The conversation is not with this agent");
    if (conversation.clientWallet !== input.clientWallet) {
      throw new AppError('VALIDATION_ERROR', 'clientWallet must be the consumer of the conversation', {
        clientWallet: "Must be the conversation's consumer",
      });
    }
    await requireAgentTokenAccount(this.#ledger, wallet, 'agent').catch((error: unknown) => {
      if (!(error instanceof LedgerError)) throw error;
      throw new AppError('SERVICE_UNAVAILABLE', 'The blockchain cannot be reached to check your USDC token account; retry later', { reason: 'ledger-unavailable' });
    });
    const now = new Date();
    const order = newOrder({
      id: randomUUID(),
      conversation: conversation.id,
      agent: agent.id,
      clientWallet: input.clientWallet,
      description: input.description,
      priceMicro: usdcToMicro(input.price)!,
      deliveryTime: input.deliveryTime,
      status: 'PENDING',
      commissionBps: this.#commissionBps,
      createdAt: now,
    });
    await em.transactional(async (tx) => {
      await tx.insert(Order, order);
      await tx.nativeUpdate(Agent, { id: agent.id }, { totalOrders: raw('total_orders + 1') });
    });
    return orderOut(order);
  }

  async get(wallet: string, id: string): Promise<OrderOut> {
    const em = this.#db.em();
    const { order } = await this.#participant(em, wallet, id);
    return orderOut(order, await em.findOne(Review, { order: id }));
  }

  /**
   * The caller's orders (as consumer or as agent), newest first. `agentWallet` / `clientWallet` narrow
   * them further: nobody lists orders they take no part in.
   */
  async list(wallet: string, query: OrderList): Promise<{ orders: OrderListItem[]; total: number; limit: number; offset: number }> {
    const filters: [string, unknown][] = [
      ...(query.agentWallet ? [['o.agent_id = (select id from agent where wallet_address = ?)', query.agentWallet] as [string, unknown]] : []),
      ...(query.clientWallet ? [['o.client_wallet = ?', query.clientWallet] as [string, unknown]] : []),
      ...(query.status ? [['o.status = ?', query.status] as [string, unknown]] : []),
    ];
    const narrowing = filters.map(([sql]) => ` and ${sql}`).join('');
    const narrowed = filters.map(([, value]) => value);
    // The caller's orders in two disjoint halves, each read off its own index in the list's order
    // (orders_client_recent_index, orders_agent_recent_index): as consumer, and as the agent of its one agent
    // (others' orders). Each half gives at most offset + limit rows, the page comes from their merge, and the total
    // is counted from the indexes alone: one statement, whatever the number of orders.
    const asClient = { sql: `from orders o where o.client_wallet = ?${narrowing}`, params: [wallet, ...narrowed] };
    const asAgent = {
      sql: `from orders o where o.agent_id = (select id from agent where wallet_address = ?) and o.client_wallet <> ?${narrowing}`,
      params: [wallet, wallet, ...narrowed],
    };
    const reach = query.offset + query.limit;
    const rows = await this.#db.em().getConnection().execute<Record<string, unknown>[]>(
      `with candidates as (
         (select o.* ${asClient.sql} order by o.created_at desc, o.id limit ?)
         union all
         (select o.* ${asAgent.sql} order by o.created_at desc, o.id limit ?)
       ), page as (
         select c.*, a.name, a.avatar_url from candidates c join agent a on a.id = c.agent_id
         order by c.created_at desc, c.id limit ? offset ?
       )
       select (select count(*) ${asClient.sql}) + (select count(*) ${asAgent.sql}) as total,
              p.id, p.conversation_id, p.agent_id, p.name, p.avatar_url, p.client_wallet, p.description, p.price_micro,
              p.status, p.created_at, p.completed_at
       from (select 1) one left join page p on true
       order by p.created_at desc, p.id`,
      [...asClient.params, reach, ...asAgent.params, reach, query.limit, query.offset, ...asClient.params, ...asAgent.params],
    );
    const date = (value: unknown) => (value === null ? null : new Date(value as string | Date).toISOString());
    return {
      orders: rows.filter((r) => r.id !== null).map((r) => ({
        id: r.id as string,
        conversationId: r.conversation_id as string,
        agentId: r.agent_id as string,
        agent: { name: r.name as string, avatarUrl: (r.avatar_url as string | null) ?? null },
        clientWallet: r.client_wallet as string,
        description: r.description as string,
        price: microToUsdc(BigInt(r.price_micro as string)),
        status: r.status as OrderStatus,
        createdAt: date(r.created_at)!,
        completedAt: date(r.completed_at),
      })),
      total: Number(rows[0]?.total ?? 0),
      limit: query.limit,
      offset: query.offset,
    };
  }

  async deliver(wallet: string, id: string, input: OrderDeliver) {
    if (input.agentWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'agentWallet must be the signing wallet');
    const now = new Date();
    await this.#transition(wallet, id, 'deliver', {
      deliveredAt: now,
      deliveryResult: input.result,
      deliveryMessage: input.message,
      deliveryAttachments: input.attachments,
    });
    return { orderId: id, status: 'DELIVERED' as const, deliveredAt: now.toISOString() };
  }

  /** The consumer accepts the delivery without reviewing (a review may still follow, once). */
  async complete(wallet: string, id: string, clientWallet: string | undefined): Promise<OrderOut> {
    if (clientWallet !== undefined && clientWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet');
    return this.#db.em().transactional(async (em) => {
      const order = await this.#transitionIn(em, wallet, id, 'complete', { completedAt: new Date() });
      await em.nativeUpdate(Agent, { id: order.agent }, { completedOrders: raw('completed_orders + 1') });
      return orderOut(order);
    });
  }

  /** Either party withdraws an order nobody has paid (nor is paying). */
  async cancel(wallet: string, id: string, bodyWallet: string | undefined): Promise<OrderOut> {
    if (bodyWallet !== undefined && bodyWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'wallet must be the signing wallet');
    return this.#db.em().transactional(async (em) => {
      const order = await this.#transitionIn(em, wallet, id, 'cancel', {}, async () => {
        const paying = await em.count(Payment, { order: id, state: { $in: LIVE_PAYMENT_STATES } });
        if (paying) throw new AppError('INVALID_STATUS_TRANSITION', 'A payment for this order is in progress', { status: TRANSITIONS.cancel.from, operation: 'cancel' });
      });
      return orderOut(order);
    });
  }

  /**
   * One review per order, by its consumer, once the work is delivered: reviewing a DELIVERED order
   * completes it; a COMPLETED one (completed without a review) may still get its review.
   */
  async review(wallet: string, id: string, input: ReviewCreate): Promise<ReviewOut> {
    if (input.clientWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet');
    return this.#db.em().transactional(async (em) => {
      const { order, agent } = await this.#participant(em, wallet, id, LockMode.PESSIMISTIC_WRITE);
      if (wallet !== order.clientWallet) throw new AppError('UNAUTHORIZED_ACCESS', 'Only the consumer can review an order');
      // A review moves a delivered order on, and may still follow a completion without one.
      if (order.status !== TRANSITIONS.complete.to) requireStartState('review', order.status);
      if (await em.count(Review, { order: id })) throw new AppError('DUPLICATE_REVIEW', 'This order already has its review');
      // The agent row lock serialises reviews of one agent, so the mean sees every committed rating.
      await em.findOneOrFail(Agent, { id: agent.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = new Date();
      const review = { id: randomUUID(), order: id, agent: agent.id, clientWallet: wallet, rating: input.rating, comment: input.comment ?? null, createdAt: now };
      try {
        await em.insert(Review, review);
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw new AppError('DUPLICATE_REVIEW', 'This order already has its review');
        throw error;
      }
      if (order.status === TRANSITIONS.review.from) {
        await this.#compareAndSet(em, order, 'review', { completedAt: now });
        await em.nativeUpdate(Agent, { id: agent.id }, { completedOrders: raw('completed_orders + 1') });
      }
      await em.nativeUpdate(
        Agent,
        { id: agent.id },
        {
          reviewCount: raw('review_count + 1'),
          rating: raw('(select round(avg(rating), 4) from review where agent_id = ?)', [agent.id]),
        },
      );
      return reviewOut(review);
    });
  }

  /** The order and its agent, if the wallet takes part in it (consumer or agent). */
  async #participant(em: EntityManager, wallet: string, id: string, lockMode?: LockMode) {
    const order = await em.findOne(Order, { id }, lockMode ? { lockMode } : {});
    if (!order) throw orderNotFound(id);
    const agent = await em.findOneOrFail(Agent, { id: order.agent });
    if (wallet !== order.clientWallet && wallet !== agent.walletAddress) {
      throw new AppError('UNAUTHORIZED_ACCESS', 'Only the consumer and the agent of this order may do this');
    }
    return { order, agent };
  }

  async #transition(wallet: string, id: string, operation: Operation, changes: Partial<Order>) {
    return this.#db.em().transactional((em) => this.#transitionIn(em, wallet, id, operation, changes));
  }

  /** Checks the caller's role and the current state (row locked), runs `guard`, then moves the order. */
  async #transitionIn(em: EntityManager, wallet: string, id: string, operation: Operation, changes: Partial<Order>, guard?: () => Promise<void>) {
    const { order, agent } = await this.#participant(em, wallet, id, LockMode.PESSIMISTIC_WRITE);
    const { by } = TRANSITIONS[operation];
    const allowed = by === 'either' || (by === 'client' ? wallet === order.clientWallet : wallet === agent.walletAddress);
    if (!allowed) throw new AppError('UNAUTHORIZED_ACCESS', `Only the ${by === 'client' ? 'consumer' : 'agent'} can ${operation} this order`);
    requireStartState(operation, order.status);
    await guard?.();
    return this.#compareAndSet(em, order, operation, changes);
  }

  /** Moves the order only if it is still in the operation's starting state. */
  async #compareAndSet(em: EntityManager, order: Order, operation: Operation, changes: Partial<Order>): Promise<Order> {
    const { from, to } = TRANSITIONS[operation];
    const updatedAt = new Date();
    const moved = await em.nativeUpdate(Order, { id: order.id, status: from }, { ...changes, status: to, updatedAt });
    if (moved !== 1) throw invalidTransition(operation, order.status);
    return { ...order, ...changes, status: to, updatedAt };
  }
}
