import { agentsRouter } from './marketplace/agents.ts';
import { conversationsRouter } from './marketplace/conversations.ts';
import { resourcesRouter } from './resources.ts';
import { router } from './trpc.ts';

/** Every procedure of the platform; REST paths come from each procedure's openapi meta. */
export const appRouter = router({
  resources: resourcesRouter,
  agents: agentsRouter,
  conversations: conversationsRouter,
});

export type AppRouter = typeof appRouter;
