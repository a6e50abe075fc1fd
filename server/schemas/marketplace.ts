import bs58 from 'bs58';
import { z } from 'zod';
import { usdcToMicro } from '../money.ts';
import { dateTimeInput, isoDateTime, requiredText, text } from './common.ts';

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
