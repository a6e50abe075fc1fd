import { getAddMemoInstruction } from '@solana-program/memo';
import { fetchMaybeToken, getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';
import { address, createSolanaRpc, getBase16Decoder, getBase64EncodedWireTransaction, getSignatureFromTransaction, type Signature } from '@solana/kit';
import { usdcTokenAccount } from './balances.ts';
import { fetchPaymentBlockhash, SPL_MEMO_PROGRAM_ADDRESS, toTransactionSigner, type PaymentBlockhash, type PaymentConfig } from './payment.ts';
import { signedTransaction } from './transaction.ts';
import type { WalletSigner } from './wallet.ts';

/**
 * An agent's USDC token account (its associated token account for the mint), where its share of every payment is
 * paid. Payouts never create it, since the marketplace would pay its rent: an agent creates it once, before its first
 * order (`POST /api/orders` answers 422 AGENT_TOKEN_ACCOUNT_MISSING without it), and pays the rent itself (~0.002
 * SOL, back to the wallet if it ever closes the account). Browser-safe: @solana/kit, no node: imports.
 */

export interface BuildUsdcTokenAccountInput {
  signer: WalletSigner;
  config: Pick<PaymentConfig, 'mint'>;
  blockhash: PaymentBlockhash;
}

/**
 * The signed transaction that creates the signer's USDC token account, paid by the signer (a @solana/kit Transaction:
 * `getBase64EncodedWireTransaction` gives what `sendTransaction` takes): CreateAssociatedTokenIdempotent and a Memo
 * with a random nonce (on a ledger whose blockhash stands still, as the embedded one's, creating the account again
 * after closing it would otherwise be the very same transaction, taken for the first).
 */
export async function buildUsdcTokenAccountTransaction({ signer, config, blockhash }: BuildUsdcTokenAccountInput) {
  const payer = toTransactionSigner(signer);
  const ata = address(await usdcTokenAccount(signer.address, config));
  const nonce = getBase16Decoder().decode(globalThis.crypto.getRandomValues(new Uint8Array(4)));
  return signedTransaction(payer, blockhash, [
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner: payer.address, mint: address(config.mint) }),
    getAddMemoInstruction({ memo: `usdc token account ${nonce}` }, { programAddress: SPL_MEMO_PROGRAM_ADDRESS }),
  ]);
}

export interface CreateUsdcTokenAccountOptions {
  /** The wallet that gets the account and pays for it: it needs SOL for the rent and the fee. */
  signer: WalletSigner;
  /** The marketplace's payment config (`client.payments.config()`): its `mint` and `rpcUrl`. */
  config: Pick<PaymentConfig, 'mint' | 'rpcUrl'>;
  /** Resolves a relative `config.rpcUrl` (the embedded ledger's): the marketplace origin. Defaults to the page's location in browsers. */
  baseUrl?: string;
  /** How long to wait for the transaction's confirmation (default 60 s). */
  timeoutMs?: number;
}

/**
 * Creates the signer's USDC token account unless it exists: sends the transaction through `config.rpcUrl` and waits
 * until it is confirmed. Returns the account, and the transaction's signature (null when the account existed).
 */
export async function createUsdcTokenAccount({ signer, config, baseUrl, timeoutMs = 60_000 }: CreateUsdcTokenAccountOptions) {
  const base = baseUrl ?? (globalThis as { location?: { href: string } }).location?.href;
  const rpc = createSolanaRpc(new URL(config.rpcUrl, base).href);
  const tokenAccount = await usdcTokenAccount(signer.address, config);
  if ((await fetchMaybeToken(rpc, address(tokenAccount))).exists) return { tokenAccount, signature: null };
  const transaction = await buildUsdcTokenAccountTransaction({ signer, config, blockhash: await fetchPaymentBlockhash(config, baseUrl) });
  const signature = getSignatureFromTransaction(transaction);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
  await confirmation(rpc, signature, timeoutMs);
  return { tokenAccount, signature: signature as string };
}

/** Polls the signature's status (no WebSocket needed) until it is confirmed; throws if it failed or the time ran out. */
async function confirmation(rpc: ReturnType<typeof createSolanaRpc>, signature: Signature, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    if (status?.err) throw new Error(`Transaction ${signature} failed: ${JSON.stringify(status.err, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
    if (Date.now() >= deadline) throw new Error(`Transaction ${signature} was not confirmed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
