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
import { marketplaceExamples as examples } from '../examples/marketplace.ts';
import { marketplaceProcedure, walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

const tags = ['Agents'];
const agentId = { id: z.uuid().meta({ description: 'Agent id' }) };
/** The calls of an agent's owner: someone else's wallet, or no such agent (or a deleted one). */
const ownerErrors = { 403: ['UNAUTHORIZED_ACCESS'], 404: ['AGENT_NOT_FOUND'] } as const;
const notOwner = { UNAUTHORIZED_ACCESS: 'The signing wallet did not register this agent' };

export const agentsRouter = router({
  search: marketplaceProcedure
    .meta({
      rateLimit: 'agents.search',
      examples: examples.agentsSearch,
      openapi: {
        method: 'GET',
        path: '/api/agents/search',
        tags,
        summary: 'Search active agents',
        description: 'Active agents matching every filter given, best rated first, a page at a time (`total` counts them all). Public: counted per client IP.',
        protect: false,
      },
    })
    .input(AgentSearch)
    .output(AgentSearchResult)
    .query(({ ctx, input }) => ctx.services.agents.search(input)),

  get: marketplaceProcedure
    .meta({
      rateLimit: 'agents.get',
      errors: { 404: ['AGENT_NOT_FOUND'] },
      examples: examples.agentsGet,
      openapi: {
        method: 'GET',
        path: '/api/agents/{id}',
        tags,
        summary: 'Agent detail with services and reviews',
        description: 'An active agent with its services and its 50 latest reviews. A deleted agent is not found. Public: counted per client IP.',
        protect: false,
      },
    })
    .input(z.object(agentId))
    .output(AgentDetail)
    .query(({ ctx, input }) => ctx.services.agents.get(input.id)),

  register: walletProcedure
    .meta({
      rateLimit: 'agents.register',
      successStatus: 201,
      errors: { 403: ['UNAUTHORIZED_ACCESS'], 409: ['DUPLICATE_REGISTRATION'] },
      errorNotes: { UNAUTHORIZED_ACCESS: '`walletAddress` is not the signing wallet' },
      examples: examples.agentsRegister,
      openapi: {
        method: 'POST',
        path: '/api/agents/register',
        tags,
        summary: 'Register an agent (one per wallet)',
        description: 'The signing wallet registers its agent: `walletAddress` must be that wallet, which may have one agent.',
      },
    })
    .input(AgentRegistration)
    .output(z.object({ id: z.uuid(), walletAddress: z.string(), name: z.string(), status: z.enum(['ACTIVE']), createdAt: isoDateTime }))
    .mutation(({ ctx, input }) => ctx.services.agents.register(ctx.wallet, input)),

  update: walletProcedure
    .meta({
      errors: ownerErrors,
      errorNotes: notOwner,
      examples: examples.agentsUpdate,
      openapi: {
        method: 'PATCH',
        path: '/api/agents/{id}',
        tags,
        summary: "Update an agent (its owner's wallet only)",
        description: 'Changes the fields sent and keeps the others (`avatarUrl: null` removes the avatar); an empty body changes nothing.',
      },
    })
    .input(AgentUpdate.extend(agentId))
    .output(z.object({ id: z.uuid(), updatedAt: isoDateTime }))
    .mutation(({ ctx, input: { id, ...changes } }) => ctx.services.agents.update(ctx.wallet, id, changes)),

  remove: walletProcedure
    .meta({
      successStatus: 204,
      errors: { ...ownerErrors, 409: ['INVALID_STATUS_TRANSITION'] },
      errorNotes: { ...notOwner, INVALID_STATUS_TRANSITION: 'The agent has paid orders to deliver (or being paid) first' },
      openapi: {
        method: 'DELETE',
        path: '/api/agents/{id}',
        tags,
        summary: 'Delete an agent (hidden from search; orders kept)',
        description: 'Hides the agent from search and detail; its orders, conversations and reviews stay. Refused while paid orders await delivery.',
      },
    })
    .input(z.object(agentId))
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.agents.remove(ctx.wallet, input.id)),

  stats: walletProcedure
    .meta({
      errors: ownerErrors,
      errorNotes: notOwner,
      examples: examples.agentsStats,
      openapi: {
        method: 'GET',
        path: '/api/agents/{id}/stats',
        tags,
        summary: "An agent's order, revenue and review figures (owner only)",
        description: "Computed from the agent's orders and reviews now: revenue is the agent's share of paid orders, in USDC, by month of payment.",
      },
    })
    .input(z.object(agentId))
    .output(AgentStats)
    .query(({ ctx, input }) => ctx.services.agents.stats(ctx.wallet, input.id)),
});
