import { z } from 'zod';
import {
  OrderAccept,
  OrderCancel,
  OrderComplete,
  OrderCreate,
  OrderDeliver,
  OrderList,
  OrderListItem,
  OrderOut,
  PaymentReceipt,
  ReviewCreate,
  ReviewOut,
} from '../../server/marketplace/schemas.ts';
import { isoDateTime } from '../../server/platform/schemas.ts';
import { walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

const tags = ['Orders'];
const orderId = { id: z.uuid().meta({ description: 'Order id' }) };
/** Every order call that changes something: auth, role, state and validation failures. */
const changeErrors = [400, 401, 403, 404, 409, 422, 429];

export const ordersRouter = router({
  create: walletProcedure
    .meta({
      rateLimit: 'orders.create',
      successStatus: 201,
      errorStatuses: [...changeErrors, 503],
      openapi: {
        method: 'POST',
        path: '/api/orders',
        tags,
        summary: 'Create an order (the agent, in its conversation)',
        description:
          "The agent's wallet must have its USDC associated token account (created and paid for by the agent): payouts never create it. " +
          'Errors: AGENT_NOT_FOUND / CONVERSATION_NOT_FOUND (404), UNAUTHORIZED_ACCESS (403), VALIDATION_ERROR (422), ' +
          'AGENT_TOKEN_ACCOUNT_MISSING (422, `details`: wallet, mint, tokenAccount) when that account does not exist, ' +
          'SERVICE_UNAVAILABLE (503) when the chain cannot be reached to check it.',
      },
    })
    .input(OrderCreate)
    .output(OrderOut)
    .mutation(({ ctx, input }) => ctx.services.orders.create(ctx.wallet, input)),

  accept: walletProcedure
    .meta({
      rateLimit: 'orders.accept',
      errorStatuses: [...changeErrors, 503],
      openapi: {
        method: 'POST',
        path: '/api/orders/{id}/accept',
        tags,
        summary: 'Accept and pay an order (the consumer)',
        description:
          'Checks the payment header against the order, submits the signed USDC transfer, forwards the agent share and marks the order PAID. ' +
          'Errors: INVALID_PAYMENT_HEADER (400), INVALID_SIGNATURE (401), AMOUNT_MISMATCH / INSUFFICIENT_FUNDS / TRANSACTION_FAILED (422), ' +
          "AGENT_TOKEN_ACCOUNT_MISSING (422: the agent's USDC token account does not exist; nothing is charged), " +
          'INVALID_STATUS_TRANSITION (409), TRANSACTION_FAILED (503) when the chain cannot be reached.',
      },
    })
    .input(OrderAccept.extend(orderId))
    .output(PaymentReceipt)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.payments.accept(ctx.wallet, id, body)),

  deliver: walletProcedure
    .meta({
      errorStatuses: changeErrors,
      openapi: { method: 'POST', path: '/api/orders/{id}/deliver', tags, summary: 'Deliver a paid order (the agent)' },
    })
    .input(OrderDeliver.extend(orderId))
    .output(z.object({ orderId: z.string(), status: z.literal('DELIVERED'), deliveredAt: isoDateTime }))
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.orders.deliver(ctx.wallet, id, body)),

  review: walletProcedure
    .meta({
      successStatus: 201,
      errorStatuses: changeErrors,
      openapi: { method: 'POST', path: '/api/orders/{id}/review', tags, summary: 'Review a delivered order (the consumer, once)' },
    })
    .input(ReviewCreate.extend(orderId))
    .output(ReviewOut)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.orders.review(ctx.wallet, id, body)),

  complete: walletProcedure
    .meta({
      errorStatuses: changeErrors,
      openapi: { method: 'POST', path: '/api/orders/{id}/complete', tags, summary: 'Complete a delivered order without a review (the consumer)' },
    })
    .input(OrderComplete.extend(orderId))
    .output(OrderOut)
    .mutation(({ ctx, input }) => ctx.services.orders.complete(ctx.wallet, input.id, input.clientWallet)),

  cancel: walletProcedure
    .meta({
      errorStatuses: changeErrors,
      openapi: { method: 'POST', path: '/api/orders/{id}/cancel', tags, summary: 'Cancel an unpaid order (either party)' },
    })
    .input(OrderCancel.extend(orderId))
    .output(OrderOut)
    .mutation(({ ctx, input }) => ctx.services.orders.cancel(ctx.wallet, input.id, input.wallet)),

  get: walletProcedure
    .meta({
      errorStatuses: [401, 403, 404, 422, 429],
      openapi: { method: 'GET', path: '/api/orders/{id}', tags, summary: 'An order with its delivery and review (participants only)' },
    })
    .input(z.object(orderId))
    .output(OrderOut)
    .query(({ ctx, input }) => ctx.services.orders.get(ctx.wallet, input.id)),

  list: walletProcedure
    .meta({
      errorStatuses: [401, 422, 429],
      openapi: { method: 'GET', path: '/api/orders', tags, summary: "The caller's orders, newest first (filters narrow them)" },
    })
    .input(OrderList)
    .output(z.object({ orders: z.array(OrderListItem), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }))
    .query(({ ctx, input }) => ctx.services.orders.list(ctx.wallet, input)),
});
