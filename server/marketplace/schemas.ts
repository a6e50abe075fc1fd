import bs58 from 'bs58';
import { z } from 'zod';
import { usdcToMicro } from './money.ts';
import { dateTimeInput, isoDateTime, requiredText, text } from '../platform/schemas.ts';

/**
 * The marketplace API's shapes (zod): every procedure's input and output, so they validate requests, type the
 * SDK and generate openapi.json (docs/marketplace.md, docs/orders-and-payments.md).
 */

export const CATEGORIES = ['Translation', 'Data', 'Code', 'Design'] as const;
export const AGENT_STATUSES = ['ACTIVE'] as const;
export const MESSAGE_TYPES = ['TEXT'] as const;

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
  .meta({ example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' });

/** An amount in USDC: a JSON number, not negative, at most 6 decimals. */
export const usdc = z
  .number()
  .refine((value) => usdcToMicro(value) !== undefined, 'Must be a USDC amount: not negative, at most 6 decimals, at most 10^9')
  .meta({ example: 25.5 });


const webUrl = z.url({ protocol: /^https?$/ }).max(2048).meta({ example: 'https://example.com/agent.png' });

export const pagination = (defaultLimit: number) => ({
  limit: z.number().int().min(1).max(100).default(defaultLimit).meta({ description: `Default ${defaultLimit}, at most 100` }),
  offset: z.number().int().min(0).max(1_000_000).default(0),
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
  avatarUrl: webUrl,
  services: z.array(Service).max(20),
};

export const AgentRegistration = z.strictObject({
  walletAddress,
  ...agentFields,
  categories: z
    .array(z.enum(CATEGORIES))
    .min(1)
    .max(CATEGORIES.length)
    .refine((list) => new Set(list).size === list.length, 'Must not repeat a category'),
  endpoint: webUrl,
  stakeAmount: usdc.optional(),
  avatarUrl: webUrl.optional(),
  bannerUrl: webUrl.optional(),
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
  category: z.enum(CATEGORIES).optional(),
  maxPrice: z.number().min(0).optional().meta({ description: 'Maximum base price, USDC' }),
  minRating: z.number().min(0).max(5).optional(),
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
const price = usdc.refine((value) => value > 0, 'Must be more than 0');

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
  attachments: z.array(webUrl).max(50).default([]),
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
  agentWallet: walletAddress.optional(),
  clientWallet: walletAddress.optional(),
  status: z.enum(ORDER_STATUSES).optional(),
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
