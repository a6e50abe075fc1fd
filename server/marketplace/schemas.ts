import bs58 from 'bs58';
import { z } from 'zod';
import { MAX_MICRO_USDC, microToUsdc, USDC_DECIMALS, usdcToMicro } from './money.ts';
import { dateTimeInput, isoDateTime, requiredText, text } from '../platform/schemas.ts';

/**
 * The marketplace API's shapes (zod): every procedure's input and output, so they validate requests, type the
 * SDK and generate openapi.json (docs/marketplace.md, docs/orders-and-payments.md).
 */

export const CATEGORIES = ['Translation', 'Data', 'Code', 'Design'] as const;
export const AGENT_STATUSES = ['ACTIVE'] as const;
export const MESSAGE_TYPES = ['TEXT'] as const;

const BASE58_DIGIT = '[1-9A-HJ-NP-Za-km-z]';
/**
 * base58 of a 32-byte key as a pattern (openapi.json's, and the X-Wallet-Address header's): not every base58
 * string of 32-44 digits decodes to 32 bytes, so these are the forms of which every string does (digits are
 * 0-57, 1 is 0), by the key's value. They miss about 1 key in 1,600, which the server still takes: it decodes.
 */
export const BASE58_ADDRESS = new RegExp(
  `^(?:${[
    `[5-9A-HJ-NP-Za-km-z]${BASE58_DIGIT}{42}`, // 43 digits from 4·58^42 (≥ 2^248) to 58^43
    `[2-9A-H]${BASE58_DIGIT}{43}`, // 44 digits from 58^43 to 17·58^43
    `J[1-9A-D]${BASE58_DIGIT}{42}`, // 44 digits from 17·58^43 to 999·58^42 (< 2^256)
    `1[2-9A-HJ-NP-Za-km-z]${BASE58_DIGIT}{41}`, // a first byte of 0: "1", then 31 bytes in 42 digits (≥ 58^41 > 2^240)
    `1[23]${BASE58_DIGIT}{42}`, // ... or in 43 digits below 3·58^42 (< 2^248)
  ].join('|')})$`,
);

/** A Solana address: base58 of a 32-byte public key. */
export const walletAddress = z
  .string()
  .max(44)
  .refine((value) => {
    try {
      return bs58.decode(value).length === 32;
    } catch {
      return false;
    }
  }, 'Must be a base58 wallet address (32 bytes)')
  .meta({ minLength: 32, pattern: BASE58_ADDRESS.source, example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' });

/**
 * openapi.json's step for USDC amounts: at most 6 decimals. Generators send k × 0.000001 computed in doubles
 * (0.30000000000000004), which usdcToMicro takes as the amount it is but for rounding noise. Validators that divide in
 * doubles (ajv without `multipleOfPrecision`) refuse some valid amounts such as 0.1: docs/marketplace.md "Money".
 */
const USDC_STEP = 10 ** -USDC_DECIMALS;

/** An amount in USDC: a JSON number, not negative, at most 6 decimals, at most 10^9 (usdcToMicro is the rule). */
const usdcRule = z
  .number()
  .refine((value) => usdcToMicro(value) !== undefined, 'Must be a USDC amount: not negative, at most 6 decimals, at most 10^9');

/**
 * openapi.json's words for a USDC amount with these bounds. Each amount schema gets all of them at once: zod does
 * not reliably let a derived schema's meta override one of its parent's keys (a faucet `maximum` came out 10^9).
 */
const usdcDoc = ({ maximum = microToUsdc(MAX_MICRO_USDC), positive = false } = {}) => ({
  description: `USDC: ${positive ? 'more than 0' : 'not negative'}, at most 6 decimals, at most ${maximum === 1e9 ? '10^9' : maximum.toLocaleString('en-US')}`,
  ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }),
  maximum,
  multipleOf: USDC_STEP,
  example: 25.5,
});

export const usdc = usdcRule.meta(usdcDoc());

/** A USDC amount up to `max`: a refine after usdc's check (its message first), which openapi.json states as `maximum`. */
export const usdcUpTo = (max: number, message: string) => usdcRule.refine((value) => value <= max, message).meta(usdcDoc({ maximum: max }));

/** http(s) URLs: the agent's endpoint, its images, a delivery's attachments (each with an example of its own). */
const webUrl = z.url({ protocol: /^https?$/ }).max(2048);
const imageUrl = webUrl.meta({ example: 'https://lingua.example/avatar.png' });

export const pagination = (defaultLimit: number) => ({
  limit: z.number().int().min(1).max(100).default(defaultLimit).meta({ description: `Page size: 1 to 100, default ${defaultLimit}` }),
  offset: z.number().int().min(0).max(1_000_000).default(0).meta({ description: 'Items to skip before the page: 0 to 1,000,000, default 0' }),
});

// ---- agents ---------------------------------------------------------------------------------

export const Service = z.strictObject({
  name: requiredText(100),
  description: text(1000),
  price: usdc,
  unit: requiredText(50),
  deliveryTime: z.number().int().min(1).max(525_600).meta({ description: 'Minutes' }),
});
export type Service = z.output<typeof Service>;

const agentFields = {
  name: requiredText(100),
  tagline: requiredText(200),
  description: requiredText(5000),
  basePrice: usdc,
  avatarUrl: imageUrl,
  services: z.array(Service).max(20),
};

export const AgentRegistration = z.strictObject({
  walletAddress,
  ...agentFields,
  categories: z
    .array(z.enum(CATEGORIES))
    .min(1)
    .max(CATEGORIES.length)
    .refine((list) => new Set(list).size === list.length, 'Must not repeat a category')
    .meta({ uniqueItems: true }),
  endpoint: webUrl.meta({ description: "The provider's endpoint", example: 'https://lingua.example/run' }),
  stakeAmount: usdc.optional(),
  avatarUrl: imageUrl.optional(),
  bannerUrl: imageUrl.optional(),
  services: agentFields.services.optional(),
});
export type AgentRegistration = z.output<typeof AgentRegistration>;

export const AgentUpdate = z.strictObject({
  name: agentFields.name.optional(),
  tagline: agentFields.tagline.optional(),
  description: agentFields.description.optional(),
  basePrice: agentFields.basePrice.optional(),
  avatarUrl: agentFields.avatarUrl.nullable().optional(),
  services: agentFields.services.optional(),
});
export type AgentUpdate = z.output<typeof AgentUpdate>;

export const AgentSearch = z.object({
  category: z.enum(CATEGORIES).optional().meta({ description: 'Only agents of this category' }),
  maxPrice: z.number().min(0).optional().meta({ description: 'Maximum base price, USDC' }),
  minRating: z.number().min(0).max(5).optional().meta({ description: 'Only agents rated at least this (0 to 5)' }),
  query: requiredText(200).optional().meta({ description: 'Matches name, tagline and description' }),
  ...pagination(20),
});
export type AgentSearch = z.output<typeof AgentSearch>;

export const AgentListItem = z
  .object({
    id: z.uuid(),
    walletAddress: z.string(),
    name: z.string(),
    tagline: z.string(),
    description: z.string(),
    avatarUrl: z.string().nullable(),
    bannerUrl: z.string().nullable(),
    categories: z.array(z.enum(CATEGORIES)),
    basePrice: z.number(),
    rating: z.number().min(0).max(5),
    totalOrders: z.number().int(),
    completedOrders: z.number().int(),
    responseTime: z.number().meta({ description: 'Mean minutes from a consumer opening a conversation to the first reply' }),
    status: z.enum(AGENT_STATUSES),
    createdAt: isoDateTime,
  })
  .meta({ id: 'AgentListItem' });
export type AgentListItem = z.output<typeof AgentListItem>;

export const AgentReview = z.object({
  id: z.string(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  clientWallet: z.string(),
  createdAt: isoDateTime,
});

export const AgentDetail = AgentListItem.extend({
  endpoint: z.string(),
  stakeAmount: z.number(),
  updatedAt: isoDateTime,
  services: z.array(Service),
  reviews: z.array(AgentReview).meta({ description: 'The 50 most recent reviews' }),
}).meta({ id: 'AgentDetail' });
export type AgentDetail = z.output<typeof AgentDetail>;

export const AgentSearchResult = z.object({
  agents: z.array(AgentListItem),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const AgentStats = z
  .object({
    totalRevenue: z.number().meta({ description: "USDC: the agent's share of paid orders" }),
    totalOrders: z.number().int(),
    completedOrders: z.number().int(),
    cancelledOrders: z.number().int(),
    averageOrderValue: z.number(),
    averageRating: z.number(),
    totalReviews: z.number().int(),
    averageResponseTime: z.number(),
    completionRate: z.number().meta({ description: 'Completed orders as a percentage of all orders' }),
    revenueByMonth: z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), revenue: z.number(), orders: z.number().int() })),
  })
  .meta({ id: 'AgentStats' });
export type AgentStats = z.output<typeof AgentStats>;

// ---- conversations and messages -------------------------------------------------------------

const content = requiredText(10_000);

export const MessageOut = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    senderWallet: z.string(),
    content: z.string(),
    messageType: z.enum(MESSAGE_TYPES),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Message' });
export type MessageOut = z.output<typeof MessageOut>;

export const ConversationOut = z
  .object({
    id: z.string(),
    agentId: z.uuid(),
    clientWallet: z.string(),
    status: z.enum(['ACTIVE']),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Conversation' });
export type ConversationOut = z.output<typeof ConversationOut>;

export const ConversationCreate = z.strictObject({ agentId: z.uuid(), clientWallet: walletAddress, initialMessage: content });
export type ConversationCreate = z.output<typeof ConversationCreate>;

export const MessageSend = z.strictObject({
  senderWallet: walletAddress,
  content,
  messageType: z.enum(MESSAGE_TYPES).default('TEXT'),
});
export type MessageSend = z.output<typeof MessageSend>;

export const MessageHistory = z.object({
  ...pagination(50),
  since: dateTimeInput.optional().meta({ description: 'Only messages created after this instant' }),
});
export type MessageHistory = z.output<typeof MessageHistory>;

// ---- orders, payments and reviews -----------------------------------------------------------

export const ORDER_STATUSES = ['PENDING', 'PAID', 'DELIVERED', 'COMPLETED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A positive USDC amount (an order of 0 has nothing to pay). */
const price = usdcRule.refine((value) => value > 0, 'Must be more than 0').meta(usdcDoc({ positive: true }));

export const OrderCreate = z.strictObject({
  conversationId: z.uuid(),
  agentId: z.uuid(),
  clientWallet: walletAddress,
  description: requiredText(5000),
  price,
  deliveryTime: z.number().int().min(1).max(525_600).meta({ description: 'Estimated delivery time, minutes' }),
});
export type OrderCreate = z.output<typeof OrderCreate>;

export const OrderAccept = z.strictObject({
  clientWallet: walletAddress,
  paymentMethod: z.literal('usdc'),
  paymentHeader: z.string().min(1).meta({
    description:
      'base64 of JSON { version: "1", payload: { signedTransaction (base64), amount (USDC), currency: "USDC", destination (marketplace wallet) } }',
  }),
});
export type OrderAccept = z.output<typeof OrderAccept>;

export const OrderDeliver = z.strictObject({
  agentWallet: walletAddress,
  result: requiredText(100_000),
  message: text(10_000).default(''),
  attachments: z.array(webUrl.meta({ example: 'https://lingua.example/deliveries/contract-fr.pdf' })).max(50).default([]),
});
export type OrderDeliver = z.output<typeof OrderDeliver>;

export const ReviewCreate = z.strictObject({
  clientWallet: walletAddress,
  rating: z.number().int().min(1).max(5),
  comment: text(1000).optional(),
});
export type ReviewCreate = z.output<typeof ReviewCreate>;

/** Complete without a review: the body may be empty; a `clientWallet` given must be the caller. */
export const OrderComplete = z.strictObject({ clientWallet: walletAddress.optional() });
export type OrderComplete = z.output<typeof OrderComplete>;

/** Cancel (either party): the body may be empty; a `wallet` given must be the caller. */
export const OrderCancel = z.strictObject({ wallet: walletAddress.optional() });
export type OrderCancel = z.output<typeof OrderCancel>;

export const ReviewOut = z
  .object({
    id: z.string(),
    orderId: z.string(),
    agentId: z.uuid(),
    clientWallet: z.string(),
    rating: z.number().int().min(1).max(5),
    comment: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'OrderReview' });
export type ReviewOut = z.output<typeof ReviewOut>;

const usdcOrNull = z.number().nullable();
const instantOrNull = isoDateTime.nullable();

export const OrderOut = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    agentId: z.uuid(),
    clientWallet: z.string(),
    description: z.string(),
    price: z.number(),
    deliveryTime: z.number().int(),
    status: z.enum(ORDER_STATUSES),
    paymentMethod: z.literal('usdc'),
    txSignature: z.string().nullable().meta({ description: 'The payment transaction, once paid' }),
    splitSignature: z.string().nullable().meta({ description: "The marketplace's transfer of the agent's share, once paid" }),
    agentAmount: usdcOrNull,
    commissionAmount: usdcOrNull,
    paidAt: instantOrNull,
    deliveredAt: instantOrNull,
    completedAt: instantOrNull,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    delivery: z.object({ result: z.string(), message: z.string(), attachments: z.array(z.string()) }).optional(),
    review: ReviewOut.pick({ id: true, rating: true, comment: true, createdAt: true }).optional(),
  })
  .meta({ id: 'Order' });
export type OrderOut = z.output<typeof OrderOut>;

export const PaymentReceipt = z
  .object({
    orderId: z.string(),
    status: z.literal('PAID'),
    txSignature: z.string(),
    agentAmount: z.number(),
    commissionAmount: z.number(),
    paidAt: isoDateTime,
  })
  .meta({ id: 'PaymentReceipt' });
export type PaymentReceipt = z.output<typeof PaymentReceipt>;

export const OrderList = z.object({
  agentWallet: walletAddress.optional().meta({ description: "Only orders of this agent's wallet" }),
  clientWallet: walletAddress.optional().meta({ description: 'Only orders of this consumer wallet' }),
  status: z.enum(ORDER_STATUSES).optional().meta({ description: 'Only orders in this status' }),
  ...pagination(20),
});
export type OrderList = z.output<typeof OrderList>;

export const OrderListItem = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    agentId: z.uuid(),
    agent: z.object({ name: z.string(), avatarUrl: z.string().nullable() }),
    clientWallet: z.string(),
    description: z.string(),
    price: z.number(),
    status: z.enum(ORDER_STATUSES),
    createdAt: isoDateTime,
    completedAt: instantOrNull,
  })
  .meta({ id: 'OrderListItem' });
export type OrderListItem = z.output<typeof OrderListItem>;

export const PaymentConfig = z
  .object({
    currency: z.literal('USDC'),
    mint: z.string().meta({ description: 'The USDC mint' }),
    decimals: z.literal(6),
    destination: z.string().meta({ description: 'The marketplace wallet: `destination` of payment headers' }),
    destinationTokenAccount: z.string().meta({ description: "The marketplace wallet's USDC token account: the transfer's destination" }),
    cluster: z.string(),
    commissionBps: z.number().int().meta({ description: 'Commission in basis points (1000 = 10%)' }),
    rpcUrl: z.string().meta({ description: 'Solana JSON-RPC URL to build and send transactions with (relative: on this server)' }),
  })
  .meta({ id: 'PaymentConfig' });
export type PaymentConfig = z.output<typeof PaymentConfig>;
