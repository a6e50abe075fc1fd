import { z } from 'zod';
import { ConversationCreate, ConversationOut, MessageHistory, MessageOut, MessageSend } from '../../server/marketplace/schemas.ts';
import { marketplaceExamples as examples } from '../examples/marketplace.ts';
import { walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

const tags = ['Conversations'];
const conversationId = { id: z.uuid().meta({ description: 'Conversation id' }) };
/** Calls on a conversation: only its consumer and its agent, of one that exists. */
const participantErrors = { 403: ['UNAUTHORIZED_ACCESS'], 404: ['CONVERSATION_NOT_FOUND'] } as const;
const notParticipant = { UNAUTHORIZED_ACCESS: 'The signing wallet is neither the consumer nor the agent of the conversation' };

export const conversationsRouter = router({
  create: walletProcedure
    .meta({
      rateLimit: 'conversations.create',
      successStatus: 201,
      errors: { 403: ['UNAUTHORIZED_ACCESS'], 404: ['AGENT_NOT_FOUND'] },
      errorNotes: { UNAUTHORIZED_ACCESS: '`clientWallet` is not the signing wallet, or the agent is the signing wallet itself' },
      examples: examples.conversationsCreate,
      openapi: {
        method: 'POST',
        path: '/api/conversations',
        tags,
        summary: 'Open a conversation with an agent',
        description: 'The consumer (`clientWallet`, the signing wallet) opens a conversation with an active agent, with a first message.',
      },
    })
    .input(ConversationCreate)
    .output(ConversationOut.extend({ messages: z.array(MessageOut) }))
    .mutation(({ ctx, input }) => ctx.services.conversations.create(ctx.wallet, input)),

  get: walletProcedure
    .meta({
      errors: participantErrors,
      errorNotes: notParticipant,
      examples: examples.conversationsGet,
      openapi: {
        method: 'GET',
        path: '/api/conversations/{id}',
        tags,
        summary: 'A conversation (participants only)',
        description: 'The conversation, for its consumer and its agent only. Its messages: `GET /api/conversations/{id}/messages`.',
      },
    })
    .input(z.object(conversationId))
    .output(ConversationOut)
    .query(({ ctx, input }) => ctx.services.conversations.get(ctx.wallet, input.id)),

  messages: walletProcedure
    .meta({
      errors: participantErrors,
      errorNotes: notParticipant,
      examples: examples.conversationsMessages,
      openapi: {
        method: 'GET',
        path: '/api/conversations/{id}/messages',
        tags,
        summary: 'Message history (participants only)',
        description: 'Messages oldest first, a page at a time (`total` counts them all); `since` keeps only those created after an instant.',
      },
    })
    .input(MessageHistory.extend(conversationId))
    .output(z.object({ messages: z.array(MessageOut), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }))
    .query(({ ctx, input: { id, ...page } }) => ctx.services.conversations.history(ctx.wallet, id, page)),

  send: walletProcedure
    .meta({
      rateLimit: 'messages.send',
      successStatus: 201,
      errors: participantErrors,
      errorNotes: { UNAUTHORIZED_ACCESS: `${notParticipant.UNAUTHORIZED_ACCESS}, or \`senderWallet\` is not the signing wallet` },
      examples: examples.conversationsSend,
      openapi: {
        method: 'POST',
        path: '/api/conversations/{id}/messages',
        tags,
        summary: 'Send a message (participants only)',
        description: 'The consumer or the agent of the conversation (`senderWallet`, the signing wallet) adds a message.',
      },
    })
    .input(MessageSend.extend(conversationId))
    .output(MessageOut)
    .mutation(({ ctx, input: { id, ...message } }) => ctx.services.conversations.send(ctx.wallet, id, message)),
});
