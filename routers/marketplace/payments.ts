import { z } from 'zod';
import { PaymentConfig, usdcUpTo, walletAddress } from '../../server/marketplace/schemas.ts';
import { marketplaceExamples as examples } from '../examples/marketplace.ts';
import { marketplaceProcedure } from '../procedures.ts';
import { router } from '../trpc.ts';

export const paymentsRouter = router({
  config: marketplaceProcedure
    .meta({
      examples: examples.paymentsConfig,
      openapi: {
        method: 'GET',
        path: '/api/payments/config',
        tags: ['Payments'],
        summary: 'What and where to pay: mint, destination, cluster, RPC URL',
        description: "What a consumer needs to build the payment transaction of `POST /api/orders/{id}/accept`: the USDC mint, the marketplace's wallet and token account, the cluster and where to send it.",
        protect: false,
      },
    })
    .input(z.object({}))
    .output(PaymentConfig)
    .query(({ ctx }) => ctx.services.payments.config()),

  faucet: marketplaceProcedure
    .meta({
      errors: { 404: ['NOT_FOUND'], 422: ['TRANSACTION_FAILED'], 503: ['TRANSACTION_FAILED'] },
      errorNotes: { NOT_FOUND: 'The server runs on a real cluster (SOLANA_RPC_URL): there is no faucet' },
      examples: examples.paymentsFaucet,
      openapi: {
        method: 'POST',
        path: '/dev/faucet',
        tags: ['Development'],
        summary: 'Mint test USDC (and fee SOL) to a wallet: embedded ledger only',
        description:
          'Exists only when the server runs its embedded LiteSVM ledger (no SOLANA_RPC_URL); 404 otherwise. ' +
          'An amount of 0 sends only the SOL (for fees and the rent of a token account the wallet creates itself).',
        protect: false,
      },
    })
    .input(z.strictObject({ wallet: walletAddress, amount: usdcUpTo(1_000_000, 'Must be 0 to 1,000,000') }))
    .output(z.object({ wallet: z.string(), amount: z.number(), balance: z.number(), signature: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.payments.faucet(input.wallet, input.amount)),
});
