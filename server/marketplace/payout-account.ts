/**
 * The agent's USDC token account, where its share of each payment goes. Payouts only transfer into it: creating it
 * would make the marketplace pay its rent (~0.002 SOL), again on every order of an agent that closes the account in
 * between and keeps the refund. So the agent opens it at its own expense: an order cannot be created without it, a
 * consumer is not charged while it is missing, and a share whose account went missing after that waits for it
 * (docs/orders-and-payments.md "The agent's token account").
 */
import type { Address } from '@solana/kit';
import { AppError } from '../platform/errors.ts';
import type { Ledger } from './ledgers/ledger.ts';
import { associatedTokenAccount } from './ledgers/solana.ts';

/** What each party is told: the agent creating an order, the consumer paying one. */
const MISSING = {
  agent:
    'Your wallet has no USDC token account to be paid into: create its associated token account for the USDC mint ' +
    '(your wallet pays its rent), then create the order',
  consumer: "The agent's wallet has no USDC token account to receive its share; nothing was charged. Pay once the agent has created it",
} as const;

/**
 * Refuses with 422 AGENT_TOKEN_ACCOUNT_MISSING (details: the wallet, the mint and the account to create) unless the
 * agent's USDC token account can receive its share. Ledger failures are thrown as they come (LedgerError).
 */
export async function requireAgentTokenAccount(ledger: Ledger, agentWallet: string, told: keyof typeof MISSING): Promise<void> {
  if (await ledger.canReceiveUsdc(agentWallet)) return;
  throw new AppError('AGENT_TOKEN_ACCOUNT_MISSING', MISSING[told], {
    wallet: agentWallet,
    mint: ledger.mint,
    tokenAccount: associatedTokenAccount(agentWallet as Address, ledger.mint as Address),
  });
}
