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
import { marketplaceExamples as examples } from '../examples/marketplace.ts';
import { walletProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

const tags = ['Orders'];
const orderId = { id: z.uuid().meta({ description: 'Order id' }) };
/** Calls on an order: only its consumer and its agent (each for its own steps), of one that exists. */
const participantErrors = { 403: ['UNAUTHORIZED_ACCESS'], 404: ['ORDER_NOT_FOUND'] } as const;
/** Calls that move the order on: it must be in the state the step starts from (TRANSITIONS in orders.ts). */
const stepErrors = { ...participantErrors, 409: ['INVALID_STATUS_TRANSITION'] } as const;
const notParty = (party: string, field: string) => ({
  UNAUTHORIZED_ACCESS: `The signing wallet is not the order's ${party}, or \`${field}\` is not the signing wallet`,
});

export const ordersRouter = router({
  create: walletProcedure
    .meta({
      rateLimit: 'orders.create',
      successStatus: 201,
      errors: {
        403: ['UNAUTHORIZED_ACCESS'],
        404: ['AGENT_NOT_FOUND', 'CONVERSATION_NOT_FOUND'],
        422: ['VALIDATION_ERROR', 'AGENT_TOKEN_ACCOUNT_MISSING'],
        503: ['SERVICE_UNAVAILABLE'],
      },
      errorNotes: {
        UNAUTHORIZED_ACCESS: "The signing wallet is not the agent's, or the conversation is not with this agent",
        VALIDATION_ERROR: '`clientWallet` is not the consumer of the conversation',
        SERVICE_UNAVAILABLE: "The blockchain cannot be reached to check the agent's USDC token account (`details.reason`: `ledger-unavailable`)",
      },
      examples: examples.ordersCreate,
      openapi: {
        method: 'POST',
        path: '/api/orders',
        tags,
        summary: 'Create an order (the agent, in its conversation)',
        description:
          "The agent proposes an order in one of its conversations; the consumer then accepts and pays it. The agent's wallet must " +
          'have its USDC associated token account (created and paid for by the agent): payouts never create it.',
      },
    })
    .input(OrderCreate)
    .output(OrderOut)
    .mutation(({ ctx, input }) => ctx.services.orders.create(ctx.wallet, input)),

  accept: walletProcedure
    .meta({
      rateLimit: 'orders.accept',
      errors: {
        ...stepErrors,
        400: ['INVALID_PAYMENT_HEADER'],
        401: ['INVALID_SIGNATURE'],
        404: ['ORDER_NOT_FOUND', 'AGENT_NOT_FOUND'],
        422: ['AMOUNT_MISMATCH', 'INSUFFICIENT_FUNDS', 'TRANSACTION_FAILED', 'AGENT_TOKEN_ACCOUNT_MISSING'],
        503: ['TRANSACTION_FAILED'],
      },
      errorNotes: {
        ...notParty('consumer', 'clientWallet'),
        INVALID_SIGNATURE: 'The transaction in the payment header lacks a signature, or one does not verify (`details.reason`: `missing`, `wrong`)',
        AGENT_NOT_FOUND: "The order's agent was deleted",
        INVALID_STATUS_TRANSITION: 'The order is not PENDING, or a payment of it is in progress (`details.reason`: `payment-in-progress`)',
        AGENT_TOKEN_ACCOUNT_MISSING: "The agent's USDC token account does not exist; nothing is charged",
      },
      examples: examples.ordersAccept,
      openapi: {
        method: 'POST',
        path: '/api/orders/{id}/accept',
        tags,
        summary: 'Accept and pay an order (the consumer)',
        description:
          'Checks the payment header against the order, submits the signed USDC transfer, forwards the agent share and marks the order PAID.',
      },
    })
    .input(OrderAccept.extend(orderId))
    .output(PaymentReceipt)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.payments.accept(ctx.wallet, id, body)),

  deliver: walletProcedure
    .meta({
      errors: stepErrors,
      errorNotes: notParty('agent', 'agentWallet'),
      examples: examples.ordersDeliver,
      openapi: {
        method: 'POST',
        path: '/api/orders/{id}/deliver',
        tags,
        summary: 'Deliver a paid order (the agent)',
        description: 'The agent (`agentWallet`, the signing wallet) hands over the result of a PAID order, which becomes DELIVERED.',
      },
    })
    .input(OrderDeliver.extend(orderId))
    .output(z.object({ orderId: z.string(), status: z.literal('DELIVERED'), deliveredAt: isoDateTime }))
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.orders.deliver(ctx.wallet, id, body)),

  review: walletProcedure
    .meta({
      successStatus: 201,
      errors: { ...stepErrors, 409: ['INVALID_STATUS_TRANSITION', 'DUPLICATE_REVIEW'] },
      errorNotes: notParty('consumer', 'clientWallet'),
      examples: examples.ordersReview,
      openapi: {
        method: 'POST',
        path: '/api/orders/{id}/review',
        tags,
        summary: 'Review a delivered order (the consumer, once)',
        description: "The consumer rates a DELIVERED order (which completes it) or a COMPLETED one without a review yet; the agent's rating follows.",
      },
    })
    .input(ReviewCreate.extend(orderId))
    .output(ReviewOut)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.orders.review(ctx.wallet, id, body)),

  complete: walletProcedure
    .meta({
      errors: stepErrors,
      errorNotes: notParty('consumer', 'clientWallet'),
      examples: examples.ordersComplete,
      openapi: {
        method: 'POST',
        path: '/api/orders/{id}/complete',
        tags,
        summary: 'Complete a delivered order without a review (the consumer)',
        description: 'A DELIVERED order becomes COMPLETED; a review may still follow, once. The body is optional: a `clientWallet` sent must be the signing wallet.',
      },
    })
    .input(OrderComplete.extend(orderId))
    .output(OrderOut)
    .mutation(({ ctx, input }) => ctx.services.orders.complete(ctx.wallet, input.id, input.clientWallet)),

  cancel: walletProcedure
    .meta({
      errors: stepErrors,
      errorNotes: {
        UNAUTHORIZED_ACCESS: 'The signing wallet is neither the consumer nor the agent of the order, or `wallet` is not the signing wallet',
        INVALID_STATUS_TRANSITION: 'The order is not PENDING, or a payment of it is in progress',
      },
      examples: examples.ordersCancel,
      openapi: {
        method: 'POST',
        path: '/api/orders/{id}/cancel',
        tags,
        summary: 'Cancel an unpaid order (either party)',
        description: 'A PENDING order that nobody is paying becomes CANCELLED. The body is optional: a `wallet` sent must be the signing wallet.',
      },
    })
    .input(OrderCancel.extend(orderId))
    .output(OrderOut)
    .mutation(({ ctx, input }) => ctx.services.orders.cancel(ctx.wallet, input.id, input.wallet)),

  get: walletProcedure
    .meta({
      errors: participantErrors,
      errorNotes: { UNAUTHORIZED_ACCESS: 'The signing wallet is neither the consumer nor the agent of the order' },
      examples: examples.ordersGet,
      openapi: {
        method: 'GET',
        path: '/api/orders/{id}',
        tags,
        summary: 'An order with its delivery and review (participants only)',
        description: 'The order, for its consumer and its agent only, with its payment, its delivery once delivered and its review once reviewed.',
      },
    })
    .input(z.object(orderId))
    .output(OrderOut)
    .query(({ ctx, input }) => ctx.services.orders.get(ctx.wallet, input.id)),

  list: walletProcedure
    .meta({
      examples: examples.ordersList,
      openapi: {
        method: 'GET',
        path: '/api/orders',
        tags,
        summary: "The caller's orders, newest first (filters narrow them)",
        description: "Orders the signing wallet takes part in, as consumer or as its agent's wallet, a page at a time (`total` counts them all).",
      },
    })
    .input(OrderList)
    .output(z.object({ orders: z.array(OrderListItem), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }))
    .query(({ ctx, input }) => ctx.services.orders.list(ctx.wallet, input)),
});
