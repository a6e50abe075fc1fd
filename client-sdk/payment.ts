import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../routers/index.ts';
import { getAddMemoInstruction } from '@solana-program/memo';
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
  address,
  createSolanaRpc,
  getBase64Decoder,
  getTransactionEncoder,
  type Instruction,
  type SignatureBytes,
  type SignatureDictionary,
  type TransactionPartialSigner,
} from '@solana/kit';
import { signedTransaction } from './transaction.ts';
import { usdcToMicro, USDC_DECIMALS } from './usdc.ts';
import type { WalletSigner } from './wallet.ts';

/**
 * Paying for an order (`POST /api/orders/:id/accept`, docs/orders-and-payments.md "The payment header"): build and sign one USDC transfer to the
 * marketplace, wrap it in the base64 JSON payment header, and send that header to
 * `POST /api/orders/:id/accept`. Browser-safe: @solana/kit, tweetnacl-backed signers, no node: imports.
 */

/** What `GET /api/payments/config` returns: mint, destination and RPC URL to pay with (the server's schema). */
export type PaymentConfig = inferRouterOutputs<AppRouter>['payments']['config'];

/**
 * The SPL Memo program (v2) as deployed on every cluster and preloaded in LiteSVM.
 * @solana-program/memo 0.15 defaults to another address (Memo4c2p...) that is not deployed there,
 * so every memo instruction names this one explicitly; the server accepts only this one.
 */
export const SPL_MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** The only payment header version the server accepts. */
export const PAYMENT_HEADER_VERSION = '1';

export interface PaymentBlockhash {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export interface PaymentOrder {
  id: string;
  /** The order's price in USDC, as the API returns it (e.g. 12.5). */
  price: number;
}

export interface BuildPaymentTransactionInput {
  signer: WalletSigner;
  order: PaymentOrder;
  config: Pick<PaymentConfig, 'mint' | 'decimals' | 'destinationTokenAccount'>;
  blockhash: PaymentBlockhash;
  /** Optional priority fee: a compute unit limit (a USDC transfer + memo needs ~10,000)... */
  computeUnitLimit?: number;
  /** ...and a price per compute unit in micro-lamports. */
  computeUnitPrice?: bigint;
}

/**
 * A kit transaction signer backed by a WalletSigner: signs the message bytes with `sign()` (tweetnacl
 * or a browser wallet), so no WebCrypto Ed25519 is needed.
 */
export function toTransactionSigner(signer: WalletSigner): TransactionPartialSigner {
  const signerAddress = address(signer.address);
  return Object.freeze({
    address: signerAddress,
    async signTransactions(transactions) {
      const out: SignatureDictionary[] = [];
      // One at a time: a browser wallet may prompt for each.
      for (const transaction of transactions) {
        const signature = await signer.sign(transaction.messageBytes as unknown as Uint8Array);
        if (signature.length !== 64) throw new TypeError(`signer returned ${signature.length} bytes, expected a 64-byte signature`);
        out.push(Object.freeze({ [signerAddress]: signature as SignatureBytes }));
      }
      return out;
    },
  } satisfies TransactionPartialSigner);
}

/** 12.5 -> 12_500_000n, through decimal strings (never float multiplication). */
function priceToMicro(price: number): bigint {
  const micro = usdcToMicro(price);
  if (micro === undefined || micro === 0n) {
    throw new TypeError(`order price ${price} is not a positive USDC amount with at most ${USDC_DECIMALS} decimals`);
  }
  return micro;
}

/**
 * The signed payment transaction, as wire bytes: a v0 transaction without lookup tables, fee payer =
 * the signer, one TransferChecked of `price` USDC from the signer's associated token account to the
 * marketplace's token account, and a Memo holding the order id (it also makes two payments of the
 * same amount distinct transactions).
 */
export async function buildPaymentTransaction(input: BuildPaymentTransactionInput): Promise<Uint8Array> {
  const { signer, order, config, blockhash } = input;
  if (config.decimals !== USDC_DECIMALS) throw new TypeError(`expected a ${USDC_DECIMALS}-decimal mint, got ${config.decimals}`);
  const amount = priceToMicro(order.price);
  const payer = toTransactionSigner(signer);
  const mint = address(config.mint);
  const [source] = await findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });

  const instructions: Instruction[] = [];
  if (input.computeUnitLimit !== undefined) {
    instructions.push(getSetComputeUnitLimitInstruction({ units: input.computeUnitLimit }));
  }
  if (input.computeUnitPrice !== undefined) {
    instructions.push(getSetComputeUnitPriceInstruction({ microLamports: input.computeUnitPrice }));
  }
  instructions.push(
    getTransferCheckedInstruction({
      source,
      mint,
      destination: address(config.destinationTokenAccount),
      authority: payer,
      amount,
      decimals: USDC_DECIMALS,
    }),
    getAddMemoInstruction({ memo: order.id }, { programAddress: SPL_MEMO_PROGRAM_ADDRESS }),
  );

  const transaction = await signedTransaction(payer, blockhash, instructions);
  return Uint8Array.from(getTransactionEncoder().encode(transaction));
}

export interface PaymentHeaderFields {
  /** Signed wire bytes (buildPaymentTransaction). */
  transaction: Uint8Array;
  /** The order price in USDC. */
  amount: number;
  /** The marketplace wallet (`PaymentConfig.destination`). */
  destination: string;
}

const base64 = getBase64Decoder(); // bytes -> base64 text

/** The `paymentHeader` body field: base64 of `{ version: '1', payload: { signedTransaction, amount, currency: 'USDC', destination } }`. */
export function encodePaymentHeader({ transaction, amount, destination }: PaymentHeaderFields): string {
  const json = JSON.stringify({
    version: PAYMENT_HEADER_VERSION,
    payload: { signedTransaction: base64.decode(transaction), amount, currency: 'USDC', destination },
  });
  return base64.decode(new TextEncoder().encode(json));
}

export interface BuildPaymentHeaderInput extends Omit<BuildPaymentTransactionInput, 'blockhash' | 'config'> {
  config: PaymentConfig;
  /** Fetched from `config.rpcUrl` (getLatestBlockhash) when not given. */
  blockhash?: PaymentBlockhash;
  /** Resolves a relative `config.rpcUrl` (the embedded ledger's); defaults to the page's location in browsers. */
  baseUrl?: string;
}

/** The latest blockhash from the payment config's RPC (relative URLs resolved against `baseUrl`). */
export async function fetchPaymentBlockhash(config: Pick<PaymentConfig, 'rpcUrl'>, baseUrl?: string): Promise<PaymentBlockhash> {
  const base = baseUrl ?? (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(config.rpcUrl, base).href;
  const rpc = createSolanaRpc(url);
  const { value } = await rpc.getLatestBlockhash().send();
  return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
}

/** Builds, signs and encodes the payment for `order`: the `paymentHeader` to send to `POST /api/orders/:id/accept`. */
export async function buildPaymentHeader(input: BuildPaymentHeaderInput): Promise<string> {
  const blockhash = input.blockhash ?? (await fetchPaymentBlockhash(input.config, input.baseUrl));
  const transaction = await buildPaymentTransaction({ ...input, blockhash });
  return encodePaymentHeader({ transaction, amount: input.order.price, destination: input.config.destination });
}
