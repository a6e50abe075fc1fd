import { z } from 'zod';
import { ConversationCreate, ConversationOut, MessageHistory, MessageOut, MessageSend } from '../../server/marketplace/schemas.ts';
import { walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

const tags = ['Conversations'];
const conversationId = { id: z.uuid().meta({ description: 'Conversation id' }) };

export const conversationsRouter = router({
  create: walletProcedure
    .meta({
      rateLimit: 'conversations.create',
      successStatus: 201,
      errorStatuses: [400, 401, 403, 404, 422, 429],
      openapi: { method: 'POST', path: '/api/conversations', tags, summary: 'Open a conversation with an agent' },
    })
    .input(ConversationCreate)
    .output(ConversationOut.extend({ messages: z.array(MessageOut) }))
    .mutation(({ ctx, input }) => ctx.services.conversations.create(ctx.wallet, input)),

  get: walletProcedure
    .meta({
      errorStatuses: [401, 403, 404, 422, 429],
      openapi: { method: 'GET', path: '/api/conversations/{id}', tags, summary: 'A conversation (participants only)' },
    })
    .input(z.object(conversationId))
    .output(ConversationOut)
    .query(({ ctx, input }) => ctx.services.conversations.get(ctx.wallet, input.id)),

  messages: walletProcedure
    .meta({
      errorStatuses: [401, 403, 404, 422, 429],
      openapi: { method: 'GET', path: '/api/conversations/{id}/messages', tags, summary: 'Message history (participants only)' },
    })
    .input(MessageHistory.extend(conversationId))
    .output(z.object({ messages: z.array(MessageOut), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }))
    .query(({ ctx, input: { id, ...page } }) => ctx.services.conversations.history(ctx.wallet, id, page)),

  send: walletProcedure
    .meta({
      rateLimit: 'messages.send',
      successStatus: 201,
      errorStatuses: [400, 401, 403, 404, 422, 429],
      openapi: { method: 'POST', path: '/api/conversations/{id}/messages', tags, summary: 'Send a message (participants only)' },
    })
    .input(MessageSend.extend(conversationId))
    .output(MessageOut)
    .mutation(({ ctx, input: { id, ...message } }) => ctx.services.conversations.send(ctx.wallet, id, message)),
});
