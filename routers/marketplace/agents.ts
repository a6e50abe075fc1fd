import { z } from 'zod';
import {
  AgentDetail,
  AgentRegistration,
  AgentSearch,
  AgentSearchResult,
  AgentStats,
  AgentUpdate,
} from '../../server/marketplace/schemas.ts';
import { isoDateTime } from '../../server/platform/schemas.ts';
import { marketplaceProcedure, walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

const tags = ['Agents'];
const agentId = { id: z.uuid().meta({ description: 'Agent id' }) };

export const agentsRouter = router({
  search: marketplaceProcedure
    .meta({
      rateLimit: 'agents.search',
      errorStatuses: [422, 429],
      openapi: { method: 'GET', path: '/api/agents/search', tags, summary: 'Search active agents', protect: false },
    })
    .input(AgentSearch)
    .output(AgentSearchResult)
    .query(({ ctx, input }) => ctx.services.agents.search(input)),

  get: marketplaceProcedure
    .meta({
      rateLimit: 'agents.get',
      errorStatuses: [404, 422, 429],
      openapi: { method: 'GET', path: '/api/agents/{id}', tags, summary: 'Agent detail with services and reviews', protect: false },
    })
    .input(z.object(agentId))
    .output(AgentDetail)
    .query(({ ctx, input }) => ctx.services.agents.get(input.id)),

  register: walletProcedure
    .meta({
      rateLimit: 'agents.register',
      successStatus: 201,
      errorStatuses: [400, 401, 403, 409, 422, 429],
      openapi: { method: 'POST', path: '/api/agents/register', tags, summary: 'Register an agent (one per wallet)' },
    })
    .input(AgentRegistration)
    .output(z.object({ id: z.uuid(), walletAddress: z.string(), name: z.string(), status: z.enum(['ACTIVE']), createdAt: isoDateTime }))
    .mutation(({ ctx, input }) => ctx.services.agents.register(ctx.wallet, input)),

  update: walletProcedure
    .meta({
      errorStatuses: [400, 401, 403, 404, 422, 429],
      openapi: { method: 'PATCH', path: '/api/agents/{id}', tags, summary: "Update an agent (its owner's wallet only)" },
    })
    .input(AgentUpdate.extend(agentId))
    .output(z.object({ id: z.uuid(), updatedAt: isoDateTime }))
    .mutation(({ ctx, input: { id, ...changes } }) => ctx.services.agents.update(ctx.wallet, id, changes)),

  remove: walletProcedure
    .meta({
      successStatus: 204,
      errorStatuses: [401, 403, 404, 409, 422, 429],
      openapi: { method: 'DELETE', path: '/api/agents/{id}', tags, summary: 'Delete an agent (hidden from search; orders kept)' },
    })
    .input(z.object(agentId))
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.agents.remove(ctx.wallet, input.id)),

  stats: walletProcedure
    .meta({
      errorStatuses: [401, 403, 404, 422, 429],
      openapi: { method: 'GET', path: '/api/agents/{id}/stats', tags, summary: "An agent's order, revenue and review figures (owner only)" },
    })
    .input(z.object(agentId))
    .output(AgentStats)
    .query(({ ctx, input }) => ctx.services.agents.stats(ctx.wallet, input.id)),
});
