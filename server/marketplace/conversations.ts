import { randomUUID } from 'node:crypto';
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { aggregatedRows } from '../platform/db/json-rows.ts';
import type { Database } from '../platform/db/orm.ts';
import { Agent, Conversation, Message } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import type { ConversationCreate, ConversationOut, MessageHistory, MessageOut, MessageSend } from './schemas.ts';
import { OUTBOX_LOCK, recordEvent } from './events/outbox.ts';
import { agentNotFound } from './agents.ts';

const conversationNotFound = (id: string) => new AppError('CONVERSATION_NOT_FOUND', `Conversation '${id}' not found`);
const notParticipant = () => new AppError('UNAUTHORIZED_ACCESS', 'Only the consumer and the agent of this conversation may do this');

const conversationOut = (c: Conversation): ConversationOut => ({
  id: c.id,
  agentId: c.agent,
  clientWallet: c.clientWallet,
  status: c.status as ConversationOut['status'],
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

const messageOut = (m: Pick<Message, 'id' | 'conversation' | 'senderWallet' | 'content' | 'messageType' | 'createdAt'>): MessageOut => ({
  id: m.id,
  conversationId: m.conversation,
  senderWallet: m.senderWallet,
  content: m.content,
  messageType: m.messageType as MessageOut['messageType'],
  createdAt: m.createdAt.toISOString(),
});

/** Conversations between a consumer and an agent, and their messages. Participants only. */
export class ConversationService {
  readonly #db: Database;
  readonly #events: { poke(): void } | undefined;

  constructor(db: Database, events?: { poke(): void }) {
    this.#db = db;
    this.#events = events;
  }

  async create(wallet: string, input: ConversationCreate): Promise<ConversationOut & { messages: MessageOut[] }> {
    if (input.clientWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet');
    const created = await this.#db.em().transactional(async (em) => {
      const agent = await em.findOne(Agent, { id: input.agentId, deletedAt: null });
      if (!agent) throw agentNotFound(input.agentId);
      if (agent.walletAddress === wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'An agent cannot open a conversation with itself');
      const now = new Date();
      const conversation = { id: randomUUID(), agent: agent.id, clientWallet: wallet, status: 'ACTIVE', createdAt: now, updatedAt: now };
      const message = { id: randomUUID(), conversation: conversation.id, senderWallet: wallet, content: input.initialMessage, messageType: 'TEXT', createdAt: now };
      await em.insert(Conversation, conversation);
      await em.insert(Message, message);
      await recordEvent(em, agent.walletAddress, 'conversation:new', {
        conversationId: conversation.id,
        clientWallet: wallet,
        initialMessage: input.initialMessage,
        createdAt: now.toISOString(),
      });
      return { ...conversationOut(conversation as Conversation), messages: [messageOut(message)] };
    });
    this.#events?.poke(); // committed: deliver conversation:new now
    return created;
  }

  async get(wallet: string, id: string): Promise<ConversationOut> {
    const { conversation } = await this.#participant(this.#db.em(), wallet, id);
    return conversationOut(conversation);
  }

  /**
   * Messages in creation-time order (then insertion order), so `since` (created strictly after it)
   * cuts the same sequence clients page through.
   */
  async history(wallet: string, id: string, page: MessageHistory) {
    // Who takes part, the total and the page in one statement (a hot read: one round trip, no query builder).
    const since = page.since ? ' and m.created_at > ?' : '';
    const sinceParams = page.since ? [new Date(page.since)] : [];
    const [row] = await this.#db.em().getConnection().execute<Record<string, unknown>[]>(
      `select c.client_wallet, a.wallet_address,
              (select count(*) from message m where m.conversation_id = c.id${since}) as total,
              coalesce((select json_agg(x) from (
                select m.id, m.sender_wallet, m.content, m.message_type, m.created_at from message m
                where m.conversation_id = c.id${since} order by m.created_at, m.seq limit ? offset ?
              ) x), '[]') as page
       from conversation c join agent a on a.id = c.agent_id where c.id = ?`,
      [...sinceParams, ...sinceParams, page.limit, page.offset, id],
    );
    if (!row) throw conversationNotFound(id);
    if (wallet !== row.client_wallet && wallet !== row.wallet_address) throw notParticipant();
    const rows = aggregatedRows<{ id: string; sender_wallet: string; content: string; message_type: string; created_at: string }>(row.page);
    const messages = rows.map((m) => messageOut({ id: m.id, conversation: id, senderWallet: m.sender_wallet, content: m.content, messageType: m.message_type, createdAt: new Date(m.created_at) }));
    return { messages, total: Number(row.total), limit: page.limit, offset: page.offset };
  }

  /**
   * Adds a message. A consumer's message is one statement (the message, the conversation's `updatedAt` and
   * `message:received` under the outbox lock): the hot path of live events. The agent's first reply also records its
   * response time (from the consumer's initial message), which the agent's `responseTime` averages.
   */
  async send(wallet: string, id: string, input: MessageSend): Promise<MessageOut> {
    if (input.senderWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'senderWallet must be the signing wallet');
    const connection = this.#db.em().getConnection();
    const [party] = await connection.execute<{ client_wallet: string; created_at: Date | string; agent_id: string; agent_wallet: string }[]>(
      'select c.client_wallet, c.created_at, a.id as agent_id, a.wallet_address as agent_wallet from conversation c join agent a on a.id = c.agent_id where c.id = ?',
      [id],
    );
    if (!party) throw conversationNotFound(id);
    if (wallet !== party.client_wallet && wallet !== party.agent_wallet) throw notParticipant();
    const now = new Date();
    const message = { id: randomUUID(), conversation: id, senderWallet: wallet, content: input.content, messageType: input.messageType, createdAt: now };
    const sent = messageOut(message);
    if (wallet !== party.agent_wallet) {
      // The provider hears about what its consumers say (its own messages are not news to it).
      const { conversationId, ...eventMessage } = sent;
      await connection.execute(
        `with outbox as materialized (${OUTBOX_LOCK}),
              sent as (insert into message (id, conversation_id, sender_wallet, content, message_type, created_at) values (?, ?, ?, ?, ?, ?)),
              touched as (update conversation set updated_at = ? where id = ?)
         insert into provider_event (wallet, event, data, created_at) select ?, 'message:received', ?::jsonb, ? from outbox`,
        [message.id, id, wallet, message.content, message.messageType, now, now, id, party.agent_wallet, JSON.stringify({ conversationId, message: eventMessage }), now],
      );
      this.#events?.poke(); // committed: deliver message:received now
      return sent;
    }
    await this.#db.em().transactional(async (em) => {
      await em.insert(Message, message);
      await em.nativeUpdate(Conversation, { id }, { updatedAt: now });
      // Only one reply can be the first: the conditional update decides among concurrent ones.
      if ((await em.nativeUpdate(Conversation, { id, firstReplyAt: null }, { firstReplyAt: now })) !== 1) return;
      const minutes = (now.getTime() - new Date(party.created_at).getTime()) / 60_000;
      await em.nativeUpdate(
        Agent,
        { id: party.agent_id },
        { responseMinutesSum: raw('response_minutes_sum + ?', [minutes]), responseCount: raw('response_count + 1') },
      );
    });
    return sent;
  }

  /** The conversation and its agent, if the wallet takes part in it. */
  async #participant(em: EntityManager, wallet: string, id: string) {
    const conversation = await em.findOne(Conversation, { id });
    if (!conversation) throw conversationNotFound(id);
    const agent = await em.findOneOrFail(Agent, { id: conversation.agent });
    if (wallet !== conversation.clientWallet && wallet !== agent.walletAddress) throw notParticipant();
    return { conversation, agent };
  }
}
