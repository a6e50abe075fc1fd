import { docsRouter } from './docs-hosting.ts';
import { agentsRouter } from './marketplace/agents.ts';
import { conversationsRouter } from './marketplace/conversations.ts';
import { eventsRouter } from './marketplace/events.ts';
import { ordersRouter } from './marketplace/orders.ts';
import { paymentsRouter } from './marketplace/payments.ts';
import { resourcesRouter } from './resources.ts';
import { router } from './trpc.ts';

/** Every procedure of the platform; REST paths come from each procedure's openapi meta. */
export const appRouter = router({
  resources: resourcesRouter,
  agents: agentsRouter,
  conversations: conversationsRouter,
  events: eventsRouter,
  orders: ordersRouter,
  payments: paymentsRouter,
  docs: docsRouter,
});

export type AppRouter = typeof appRouter;

/** What `/trpc` serves over WebSocket: subscriptions only (queries and mutations stay on HTTP, where non-GET signatures are single-use). */
export const subscriptionRouter = router({ events: eventsRouter });
