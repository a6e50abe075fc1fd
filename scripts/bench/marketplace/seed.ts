/**
 * The marketplace bench's data: SEEDED_AGENTS ACTIVE agents, bulk-inserted in batches (em.insertMany), with
 * varied names, taglines and descriptions drawn from per-category vocabularies, so the full-text index
 * (search_vector, GIN) and the ILIKE fallback of AgentService.search have real work; about a quarter speak
 * of translation. And one conversation with SEEDED_MESSAGES messages between a consumer wallet and one agent.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import bs58 from 'bs58';
import type { RunningServer } from '../../../server/app.ts';
import { newAgentRow } from '../../../server/marketplace/agents.ts';
import { Agent, Message } from '../../../server/marketplace/entities.ts';
import { CATEGORIES } from '../../../server/marketplace/schemas.ts';
import { pick } from '../common/random.ts';
import { ADJECTIVES, MESSAGE_LINES, VOCABULARY, type Category } from './text.ts';

export const SEEDED_AGENTS = 10_000;
export const SEEDED_MESSAGES = 200;
/** Rows per INSERT: ~20 columns each keeps a batch far below PostgreSQL's 65,535 bind parameters. */
export const INSERT_BATCH = 1_000;

/** 1-3 distinct categories; the first is the agent's main one and drives its text. */
function categoriesFor(main: Category): Category[] {
  const others = CATEGORIES.filter((c) => c !== main && Math.random() < 0.15);
  return [main, ...others];
}

function agentRow(index: number, createdAt: Date) {
  // About a quarter Translation (the measured query), the rest spread over the other categories.
  const main = pick(CATEGORIES);
  const words = VOCABULARY[main];
  const sentences = Array.from({ length: 2 + Math.floor(Math.random() * 3) }, () => pick(words.sentences));
  const agent = newAgentRow(
    {
      walletAddress: bs58.encode(randomBytes(32)),
      name: `${pick(ADJECTIVES)} ${pick(words.nouns)} ${index}`,
      tagline: pick(words.taglines),
      description: sentences.join(' '),
      categories: categoriesFor(main),
      basePrice: (10 + Math.floor(Math.random() * 9_990)) / 100,
      endpoint: `https://agents.example/${index}`,
    },
    createdAt,
  );
  return {
    ...agent,
    rating: Math.round(Math.random() * 50_000) / 10_000,
    reviewCount: Math.floor(Math.random() * 200),
    totalOrders: Math.floor(Math.random() * 500),
    completedOrders: Math.floor(Math.random() * 400),
  };
}

/** SEEDED_AGENTS agents in INSERT_BATCH-row inserts; returns one of them for the conversation. */
export async function seedAgents(server: RunningServer): Promise<{ id: string; walletAddress: string }> {
  const yearAgo = Date.now() - 365 * 24 * 3600_000;
  let first: { id: string; walletAddress: string } | undefined;
  for (let start = 0; start < SEEDED_AGENTS; start += INSERT_BATCH) {
    const rows = Array.from({ length: Math.min(INSERT_BATCH, SEEDED_AGENTS - start) }, (_, i) =>
      agentRow(start + i, new Date(yearAgo + (start + i) * 3_000_000)),
    );
    first ??= rows[0];
    await server.db.em().insertMany(Agent, rows);
  }
  if (!first) throw new Error('no agents seeded');
  return first;
}

/** A conversation opened through the service, then SEEDED_MESSAGES - 1 more messages in one insert. */
export async function seedConversation(server: RunningServer, agent: { id: string; walletAddress: string }, clientAddress: string) {
  const conversation = await server.services.conversations.create(clientAddress, {
    agentId: agent.id,
    clientWallet: clientAddress,
    initialMessage: MESSAGE_LINES[0] ?? 'Hello',
  });
  const opened = Date.parse(conversation.createdAt);
  const messages = Array.from({ length: SEEDED_MESSAGES - 1 }, (_, i) => ({
    id: randomUUID(),
    conversation: conversation.id,
    senderWallet: i % 2 === 0 ? agent.walletAddress : clientAddress,
    content: MESSAGE_LINES[(i + 1) % MESSAGE_LINES.length] ?? '',
    messageType: 'TEXT',
    createdAt: new Date(opened + (i + 1) * 1_000),
  }));
  await server.db.em().insertMany(Message, messages);
  return conversation.id;
}
