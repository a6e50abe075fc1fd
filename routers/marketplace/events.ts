import { tracked } from '@trpc/server';
import { z } from 'zod';
import { walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

/**
 * Provider events as a tRPC subscription (docs/events.md "tRPC subscription"): the same frames as `/ws`, from the
 * same per-process bus. Each is `tracked` with its outbox id, so a client that reconnects resumes
 * after the last one it got (tRPC sends it back as `lastEventId`): missed events are replayed from the
 * outbox, then live ones follow, without gap or duplicate. Over WebSocket (`/trpc`), the wallet proof
 * is the connection's `connectionParams` (`x-wallet-address`, `x-signature`, `x-timestamp`, signing
 * `GET:/trpc:<timestamp>`). Owners of an agent only. No REST path (no openapi meta).
 */
export const eventsRouter = router({
  subscribe: walletProcedure
    .input(
      z.object({
        /** Resume after this event id (what tRPC's `tracked()` resume sends); omitted: live events only. */
        lastEventId: z
          .string()
          .regex(/^[0-9]{1,15}$/, 'Must be an event id')
          .nullish(),
      }),
    )
    .subscription(async ({ ctx, input, signal }) => {
      const { events } = ctx.services;
      await events.assertProvider(ctx.wallet);
      const since = input.lastEventId == null ? undefined : Number(input.lastEventId);
      return (async function* () {
        for await (const { frames } of events.stream(ctx.wallet, { ...(since === undefined ? {} : { since }), ...(signal ? { signal } : {}) })) {
          for (const frame of frames) yield tracked(String(frame.id), frame);
        }
      })();
    }),
});
