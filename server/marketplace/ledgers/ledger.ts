/**
 * The payments ledger: where USDC moves. One interface, two implementations: the embedded LiteSVM
 * ledger (default; an in-process Solana VM with the real SPL Token program) and a real cluster reached
 * through Solana JSON-RPC (`SOLANA_RPC_URL`). Transactions travel as wire bytes; addresses as base58.
 */
export interface Ledger {
  /** 'localnet' for the embedded ledger, else what the operator configured ('devnet', 'mainnet-beta', ...). */
  readonly cluster: string;
  /** The USDC mint (6 decimals). */
  readonly mint: string;
  /** The marketplace wallet (owner of the token account payments go to). */
  readonly marketplaceWallet: string;
  /** The marketplace wallet's associated token account for the mint: every payment's destination. */
  readonly marketplaceTokenAccount: string;
  /** The JSON-RPC URL clients should use to build and send transactions (relative for the embedded ledger). */
  readonly rpcUrl: string;

  /** Micro-USDC held by a wallet's associated token account (0 when it has none). */
  usdcBalance(wallet: string): Promise<bigint>;
  /** Whether a wallet's USDC associated token account exists and can receive a transfer (initialized, not frozen). */
  canReceiveUsdc(wallet: string): Promise<boolean>;
  /**
   * Sends a signed transaction (wire bytes). Resolves when the chain has executed it successfully
   * (or had already), rejects with a LedgerError otherwise. Like an RPC node's preflight, a transaction
   * that would fail is refused without landing ('insufficient-funds': SPL Token InsufficientFunds, or
   * no SOL for the fee; 'rejected': anything else, including an expired blockhash and bad signatures);
   * one that already landed and failed is answered with that failure. 'unavailable': the outcome is
   * unknown (node unreachable, not confirmed in time): ask `status` later.
   */
  submit(transaction: Uint8Array): Promise<void>;
  /**
   * The fate of a transaction by its signature: landed ok, landed and failed, or unknown to the chain
   * (never sent, refused by preflight, dropped, or not yet at the confirmed commitment).
   */
  status(signature: string): Promise<'succeeded' | 'failed' | 'unknown'>;
  /**
   * Whether a transaction's recent blockhash can still land (unknown + not landable = never will).
   * Ask this first and `status` second: a transaction can only land while its blockhash is valid, so
   * "invalid, then still unknown" is final, whereas the other order can miss a last-moment landing.
   */
  isBlockhashValid(blockhash: string): Promise<boolean>;
  /**
   * Builds and signs (without sending) a transfer from the marketplace token account to `wallet`'s
   * associated token account, with `memo`. It never creates that account (its rent would be the marketplace's):
   * sent while the account is missing, it is refused ('rejected'). Returned so the caller can record it
   * before submitting it: a crash then resubmits the same transaction instead of paying twice.
   * Fee payer: the marketplace. Give each payout a distinct memo: equal transactions have equal
   * signatures, and a second one would be taken for the first.
   */
  signPayout(wallet: string, amountMicro: bigint, memo: string): Promise<{ signature: string; transaction: Uint8Array }>;
  close(): Promise<void>;
}

/** Why the ledger refused or could not do something. */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  /** rejected: the chain ran it and it failed; unavailable: the chain could not be reached (outcome unknown). */
  readonly kind: 'rejected' | 'insufficient-funds' | 'unavailable';
  constructor(kind: LedgerError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}
