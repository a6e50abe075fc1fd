import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A service an agent offers; price in micro-USDC. Kept inside the agent row: it is always read with it. */
export interface StoredService {
  name: string;
  description: string;
  priceMicro: string; // bigint as a decimal string: jsonb has no integer type wide enough to be safe in JS
  unit: string;
  deliveryTime: number;
}

/**
 * A provider's agent. Counters and the rating are kept on the row (updated with orders and reviews),
 * so search can filter and sort on them without aggregating per request.
 */
export const Agent = defineEntity({
  name: 'Agent',
  indexes: [
    { name: 'agent_search_vector_index', expression: 'create index "agent_search_vector_index" on "agent" using gin ("search_vector")' },
    // Substring search (ILIKE '%...%') over the same text, through trigrams (extension pg_trgm).
    {
      name: 'agent_search_text_index',
      expression: `create index "agent_search_text_index" on "agent" using gin ((name || ' ' || tagline || ' ' || description) gin_trgm_ops)`,
    },
    { properties: ['status', 'rating', 'completedOrders'] },
  ],
  properties: {
    id: p.uuid().primary(),
    walletAddress: p.string().length(44).unique(),
    name: p.string().length(100),
    tagline: p.string().length(200),
    description: p.text(),
    avatarUrl: p.text().nullable(),
    bannerUrl: p.text().nullable(),
    categories: p.json<string[]>(),
    basePriceMicro: p.bigint(),
    endpoint: p.text(),
    stakeAmountMicro: p.bigint(),
    services: p.json<StoredService[]>(),
    status: p.string().length(16),
    /** Mean review rating, 0 with none; kept exact to 4 decimals (reviews update it). */
    rating: p.decimal('number').precision(6).scale(4).default(0),
    reviewCount: p.integer().default(0),
    totalOrders: p.integer().default(0),
    completedOrders: p.integer().default(0),
    /** Sum and count of minutes from a conversation's first consumer message to the agent's first reply. */
    responseMinutesSum: p.decimal('number').precision(18).scale(6).default(0),
    responseCount: p.integer().default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
    /** Full-text search over name, tagline and description, kept by PostgreSQL itself. */
    searchVector: p
      .type('unknown')
      .columnType('tsvector')
      .generated(`(to_tsvector('english', name || ' ' || tagline || ' ' || description)) stored`)
      .nullable()
      .lazy()
      .hidden(),
  },
});
export type Agent = InferEntity<typeof Agent>;

export const Conversation = defineEntity({
  name: 'Conversation',
  indexes: [{ properties: ['agent', 'createdAt'] }, { properties: ['clientWallet', 'createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    agent: () => p.manyToOne(Agent).mapToPk(),
    clientWallet: p.string().length(44),
    status: p.string().length(16),
    /** Set by the agent's first message; the response time counts from createdAt (the initial message). */
    firstReplyAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Conversation = InferEntity<typeof Conversation>;

export const Message = defineEntity({
  name: 'Message',
  indexes: [{ properties: ['conversation', 'createdAt'] }],
  properties: {
    seq: p.bigint('number').primary().autoincrement(),
    id: p.uuid().unique(),
    conversation: () => p.manyToOne(Conversation).mapToPk(),
    senderWallet: p.string().length(44),
    content: p.text(),
    messageType: p.string().length(16),
    createdAt: p.datetime(),
  },
});
export type Message = InferEntity<typeof Message>;

/** An order an agent proposes in a conversation; the consumer pays it (see Payment), the agent delivers. */
export const Order = defineEntity({
  name: 'Order',
  tableName: 'orders',
  indexes: [
    { properties: ['agent', 'status'] },
    // A wallet's orders newest first (OrderService.list), as consumer and as agent: the page is read off these in
    // the list's own order, and the totals counted from them alone (status included).
    {
      name: 'orders_client_recent_index',
      expression: 'create index "orders_client_recent_index" on "orders" ("client_wallet", "created_at" desc, "id") include ("status")',
    },
    {
      name: 'orders_agent_recent_index',
      expression: 'create index "orders_agent_recent_index" on "orders" ("agent_id", "created_at" desc, "id") include ("status", "client_wallet")',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    conversation: () => p.manyToOne(Conversation).mapToPk(),
    agent: () => p.manyToOne(Agent).mapToPk(),
    clientWallet: p.string().length(44),
    description: p.text(),
    priceMicro: p.bigint(),
    deliveryTime: p.integer(),
    status: p.string().length(16),
    commissionBps: p.integer(),
    agentAmountMicro: p.bigint().nullable(),
    commissionAmountMicro: p.bigint().nullable(),
    txSignature: p.string().length(100).nullable().unique(),
    /** The marketplace's transfer of the agent's share. */
    splitSignature: p.string().length(100).nullable(),
    paidAt: p.datetime().nullable(),
    deliveryResult: p.text().nullable(),
    deliveryMessage: p.text().nullable(),
    deliveryAttachments: p.json<string[]>().nullable(),
    deliveredAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Order = InferEntity<typeof Order>;

export const Review = defineEntity({
  name: 'Review',
  properties: {
    id: p.uuid().primary(),
    order: () => p.manyToOne(Order).mapToPk().unique(),
    agent: () => p.manyToOne(Agent).mapToPk().index(),
    clientWallet: p.string().length(44),
    rating: p.integer(),
    comment: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export type Review = InferEntity<typeof Review>;

/**
 * A payment in flight: recorded before anything is sent to the chain, so start-up reconciliation can
 * finish (or fail) every payment a dead process left behind. The transaction signature is the key: a
 * signature pays at most one order, ever. At most one payment per order is not FAILED.
 */
export const Payment = defineEntity({
  name: 'Payment',
  indexes: [
    {
      name: 'payment_live_order_unique',
      expression: `create unique index "payment_live_order_unique" on "payment" ("order_id") where "state" <> 'FAILED'`,
    },
    { properties: ['state', 'updatedAt'] },
  ],
  properties: {
    txSignature: p.string().length(100).primary(),
    order: () => p.manyToOne(Order).mapToPk(),
    /** The consumer's signed transaction (base64 wire format), resubmitted by recovery if it never landed. */
    transaction: p.text(),
    amountMicro: p.bigint(),
    agentAmountMicro: p.bigint(),
    commissionAmountMicro: p.bigint(),
    /** SUBMITTED -> CONFIRMED -> SPLIT_SENT -> DONE, or FAILED (the order stays PENDING). */
    state: p.string().length(16),
    /** The marketplace's signed transfer to the agent, recorded before it is sent (base64 wire format). */
    splitSignature: p.string().length(100).nullable(),
    splitTransaction: p.text().nullable(),
    failure: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Payment = InferEntity<typeof Payment>;
/** Payments neither settled nor failed: their order may not change (cancel, agent deletion) meanwhile. */
export const LIVE_PAYMENT_STATES = ['SUBMITTED', 'CONFIRMED', 'SPLIT_SENT'];

/**
 * The durable outbox of provider events: written in the transaction that causes the event, read by
 * every server process (LISTEN/NOTIFY wakes them) and replayed to reconnecting providers (`since`).
 */
export const ProviderEvent = defineEntity({
  name: 'ProviderEvent',
  tableName: 'provider_event',
  indexes: [{ properties: ['wallet', 'id'] }, { properties: ['createdAt'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    /** The agent wallet the event is for. */
    wallet: p.string().length(44),
    event: p.string().length(32),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});
export type ProviderEvent = InferEntity<typeof ProviderEvent>;

/**
 * `Idempotency-Key` records: the first outcome of a POST, replayed for the same key and body. A row
 * without an outcome is a call in progress; it can be taken over once `lockedUntil` has passed.
 */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  properties: {
    /** sha256 of caller + key. */
    keyHash: p.string().length(64).primary(),
    /** sha256 of procedure + body. */
    requestHash: p.string().length(64),
    outcome: p.json<Record<string, unknown>>().nullable(),
    lockedUntil: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});
export type IdempotencyRecord = InferEntity<typeof IdempotencyRecord>;

/**
 * Signed non-GET requests already accepted, so the same signature is refused within its 5-minute window
 * by every server process. Rows past `expiresAt` are deleted as new ones arrive.
 */
export const UsedSignature = defineEntity({
  name: 'UsedSignature',
  properties: {
    keyHash: p.string().length(64).primary(),
    expiresAt: p.datetime().index(),
  },
});
export type UsedSignature = InferEntity<typeof UsedSignature>;
