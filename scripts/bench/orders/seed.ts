/**
 * The orders bench's data, bulk-inserted: AGENTS agents (each with its USDC token account on the ledger); a payer wallet with a conversation with every agent
 * (it pays the benchmarked orders and sends the messages); a lister wallet with LISTED_ORDERS orders over
 * LISTER_AGENTS agents, spread over 90 days and the five statuses, and LISTER_MESSAGES messages in its conversation with
 * the first agent.
 */
import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../../../server/app.ts';
import { newAgentRow } from '../../../server/marketplace/agents.ts';
import { Agent, Conversation, Message, Order } from '../../../server/marketplace/entities.ts';
import { LiteSvmLedger } from '../../../server/marketplace/ledgers/index.ts';
import { usdcToMicro } from '../../../server/marketplace/money.ts';
import { ORDER_STATUSES } from '../../../server/marketplace/schemas.ts';
import { pick } from '../common/random.ts';
import { newWallet, type BenchWallet } from './wallet.ts';

export const AGENTS = 1_000;
export const LISTED_ORDERS = 1_000;
/** Agents the listing wallet has conversations (and so orders) with. */
export const LISTER_AGENTS = 100;
/** Messages in the lister's first conversation. */
export const LISTER_MESSAGES = 200;
/** Every benchmarked order costs this much (USDC). */
export const PRICE = 1.5;

export interface Seeded {
  agents: { id: string; wallet: BenchWallet }[];
  /** Pays the benchmarked orders and sends the messages; a conversation with every agent. */
  payer: BenchWallet;
  /** payerConversations[i]: the payer's conversation with agents[i]. */
  payerConversations: string[];
  /** Has LISTED_ORDERS orders, with LISTER_AGENTS agents. */
  lister: BenchWallet;
  /** The lister's conversation of LISTER_MESSAGES messages. */
  listerConversation: string;
}

const agentRow = (index: number, wallet: string, createdAt: Date) =>
  newAgentRow(
    {
      walletAddress: wallet,
      name: `Bench agent ${index}`,
      tagline: 'Translates contracts overnight',
      description: 'An agent seeded by the orders benchmark.',
      categories: ['Translation'],
      basePrice: 1,
      endpoint: `https://agents.example/${index}`,
    },
    createdAt,
  );

const conversationRow = (agent: string, clientWallet: string, createdAt: Date) => ({
  id: randomUUID(),
  agent,
  clientWallet,
  status: 'ACTIVE',
  firstReplyAt: null,
  createdAt,
  updatedAt: createdAt,
});

/** An order row as OrderService.create writes it, in `status` (the later timestamps set to match). */
export function orderRow(conversation: string, agent: string, clientWallet: string, status: string, createdAt: Date): Order {
  const after = (minutes: number) => new Date(createdAt.getTime() + minutes * 60_000);
  const paid = status !== 'PENDING' && status !== 'CANCELLED';
  const delivered = status === 'DELIVERED' || status === 'COMPLETED';
  return {
    id: randomUUID(),
    conversation,
    agent,
    clientWallet,
    description: 'Translate the contract into German',
    priceMicro: usdcToMicro(PRICE)!,
    deliveryTime: 120,
    status,
    commissionBps: 1000,
    agentAmountMicro: paid ? 1_350_000n : null,
    commissionAmountMicro: paid ? 150_000n : null,
    txSignature: null,
    splitSignature: null,
    paidAt: paid ? after(5) : null,
    deliveredAt: delivered ? after(60) : null,
    deliveryResult: delivered ? 'Done' : null,
    deliveryMessage: delivered ? 'See the attachment' : null,
    deliveryAttachments: delivered ? [] : null,
    completedAt: status === 'COMPLETED' ? after(90) : null,
    createdAt,
    updatedAt: createdAt,
  };
}

export async function seed(server: RunningServer): Promise<Seeded> {
  const em = server.db.em();
  const now = Date.now();
  const agents = Array.from({ length: AGENTS }, (_, i) => {
    const wallet = newWallet();
    return { wallet, row: agentRow(i, wallet.address, new Date(now - (AGENTS - i) * 60_000)) };
  });
  await em.insertMany(Agent, agents.map((a) => a.row));
  // Payouts never create token accounts: an agent has its own before its orders (here from the dev faucet, which
  // creates it to mint one micro-USDC). Concurrent, so the ledger journal's group commit syncs them together.
  const ledger = server.services.payments.ledger;
  if (!(ledger instanceof LiteSvmLedger)) throw new Error('The orders bench needs the embedded ledger');
  await Promise.all(agents.map((a) => ledger.mintTo(a.wallet.address, 1n)));

  const payer = newWallet();
  const lister = newWallet();
  const payerConversations = agents.map((a) => conversationRow(a.row.id, payer.address, new Date(now)));
  const listerConversations = agents.slice(0, LISTER_AGENTS).map((a) => conversationRow(a.row.id, lister.address, new Date(now - 90 * 86_400_000)));
  await em.insertMany(Conversation, [...payerConversations, ...listerConversations]);

  // The lister's orders: spread over 90 days and over the five statuses.
  const listed = Array.from({ length: LISTED_ORDERS }, (_, i) => {
    const conversation = pick(listerConversations);
    return orderRow(conversation.id, conversation.agent, lister.address, pick(ORDER_STATUSES), new Date(now - 90 * 86_400_000 + i * 7_000_000));
  });
  await em.insertMany(Order, listed);
  const [talk] = listerConversations;
  const sender = (i: number) => (i % 2 ? lister.address : agents[0]!.wallet.address);
  await em.insertMany(
    Message,
    Array.from({ length: LISTER_MESSAGES }, (_, i) => ({
      id: randomUUID(),
      conversation: talk!.id,
      senderWallet: sender(i),
      content: `Message ${i} about the contract's third clause.`,
      messageType: 'TEXT',
      createdAt: new Date(now - (LISTER_MESSAGES - i) * 60_000),
    })),
  );

  return {
    agents: agents.map((a) => ({ id: a.row.id, wallet: a.wallet })),
    payer,
    payerConversations: payerConversations.map((c) => c.id),
    lister,
    listerConversation: talk!.id,
  };
}
