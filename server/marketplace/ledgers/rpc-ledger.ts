/**
 * The ledger on a real Solana cluster (devnet, mainnet-beta, or any JSON-RPC node such as another
 * server's /dev/solana-rpc), through @solana/kit's `createSolanaRpc`. Polls for confirmation (no
 * WebSocket needed). Every request has a timeout; a node that cannot be reached, answers HTTP errors or
 * reports itself unhealthy gives LedgerError('unavailable'); what the node refuses or the chain fails
 * gives 'rejected' / 'insufficient-funds'.
 */
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__INSTRUCTION_ERROR__INSUFFICIENT_FUNDS,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_LEN_MISMATCH,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE,
  type Address,
  type Blockhash,
  type Commitment,
  type KeyPairSigner,
  type Signature,
  type SolanaRpcApi,
  type Rpc,
} from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';
import type { Logger } from '../../platform/logger.ts';
import { LedgerError, type Ledger } from './ledger.ts';
import {
  associatedTokenAccount,
  buildPayout,
  canReceive,
  decodeTransaction,
  ledgerErrorFor,
  signerFromKeypair,
  SYSTEM_PROGRAM_ADDRESS,
  toAddress,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  uniqueMemo,
  wireBytes,
  type TransactionErrorJson,
} from './solana.ts';

export interface RpcLedgerOptions {
  /** The JSON-RPC endpoint the server uses (SOLANA_RPC_URL). */
  url: string;
  /** The JSON-RPC URL advertised to clients (default: `url`). */
  publicRpcUrl?: string;
  /** 'devnet', 'mainnet-beta', 'localnet', ... */
  cluster: string;
  /** The USDC mint of that cluster. */
  mint: string;
  /** The marketplace wallet's keypair (Solana CLI bytes): payouts are signed with it. */
  marketplaceKeypair: Uint8Array;
  /** Commitment a submitted transaction must reach (default 'confirmed'). */
  commitment?: 'confirmed' | 'finalized';
  /** How long `submit` waits for the commitment before answering 'unavailable' (default 60 s). */
  confirmTimeoutMs?: number;
  /** Interval between two status polls (default 500 ms). */
  pollIntervalMs?: number;
  /** Interval between two rebroadcasts of an unconfirmed transaction (default 2 s). */
  rebroadcastMs?: number;
  /** Timeout of one JSON-RPC request (default 10 s). */
  requestTimeoutMs?: number;
  log?: Logger;
}

/** JSON-RPC errors that are the node's verdict on the request itself (anything else: the node is unavailable). */
const REFUSALS = new Set<number>([
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_LEN_MISMATCH,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
]);
const INSUFFICIENT_PROGRAMS = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, SYSTEM_PROGRAM_ADDRESS]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function unavailable(error: unknown): LedgerError {
  if (error instanceof LedgerError) return error;
  return new LedgerError('unavailable', `The Solana RPC node could not be used: ${messageOf(error)}`);
}

/** A preflight refusal (kit turns the node's `err` into the error's cause) as a LedgerError; 'already-processed' when the chain has it. */
function preflightVerdict(error: unknown, programs: readonly (string | undefined)[]): LedgerError | 'already-processed' {
  const cause = (error as { cause?: unknown }).cause;
  if (isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)) return 'already-processed';
  const text = messageOf(cause ?? error);
  if (
    isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE) ||
    isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND) ||
    isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__INSUFFICIENT_FUNDS) ||
    (isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM) && cause.context.code === 1 && INSUFFICIENT_PROGRAMS.has(programs[cause.context.index] ?? ''))
  ) {
    return new LedgerError('insufficient-funds', `Insufficient funds: ${text}`);
  }
  return new LedgerError('rejected', `Transaction refused by preflight: ${text}`);
}

export class RpcLedger implements Ledger {
  readonly cluster: string;
  readonly mint: string;
  readonly marketplaceWallet: string;
  readonly marketplaceTokenAccount: string;
  readonly rpcUrl: string;

  private readonly rpc: Rpc<SolanaRpcApi>;
  private readonly marketplace: KeyPairSigner;
  private readonly commitment: Commitment;
  private readonly confirmTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly rebroadcastMs: number;
  private readonly requestTimeoutMs: number;
  private readonly log: Logger | undefined;
  /** Aborted at close: pending polls stop. */
  private readonly closing = new AbortController();

  private constructor(options: RpcLedgerOptions, marketplace: KeyPairSigner, tokenAccount: Address) {
    this.cluster = options.cluster;
    this.mint = toAddress(options.mint, 'The USDC mint');
    this.marketplaceWallet = marketplace.address;
    this.marketplaceTokenAccount = tokenAccount;
    this.rpcUrl = options.publicRpcUrl ?? options.url;
    this.rpc = createSolanaRpc(options.url);
    this.marketplace = marketplace;
    this.commitment = options.commitment ?? 'confirmed';
    this.confirmTimeoutMs = options.confirmTimeoutMs ?? 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.rebroadcastMs = options.rebroadcastMs ?? 2_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.log = options.log;
  }

  /** Loads the marketplace keypair; does not contact the node (start-up works while the cluster is down). */
  static async open(options: RpcLedgerOptions): Promise<RpcLedger> {
    const marketplace = await signerFromKeypair(options.marketplaceKeypair);
    const mint = toAddress(options.mint, 'The USDC mint');
    return new RpcLedger(options, marketplace, associatedTokenAccount(marketplace.address, mint));
  }

  async usdcBalance(wallet: string): Promise<bigint> {
    const tokenAccount = associatedTokenAccount(toAddress(wallet, 'The wallet'), this.mint as Address);
    try {
      const { value } = await this.rpc.getTokenAccountBalance(tokenAccount, { commitment: this.commitment }).send({ abortSignal: this.signal() });
      return BigInt(value.amount);
    } catch (error) {
      // "Invalid param: could not find account": the wallet has no token account, so no USDC.
      if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)) return 0n;
      throw unavailable(error);
    }
  }

  async canReceiveUsdc(wallet: string): Promise<boolean> {
    const tokenAccount = associatedTokenAccount(toAddress(wallet, 'The wallet'), this.mint as Address);
    const { value } = await this.rpc
      .getAccountInfo(tokenAccount, { encoding: 'base64', commitment: this.commitment })
      .send({ abortSignal: this.signal() })
      .catch((error: unknown) => {
        throw unavailable(error);
      });
    return canReceive(value && { programAddress: value.owner, data: getBase64Encoder().encode(value.data[0]) as Uint8Array });
  }

  async submit(transaction: Uint8Array): Promise<void> {
    const decoded = decodeTransaction(transaction);
    const signature = decoded.signature as Signature;
    // Already landed (a resubmit after a crash): its fate is the answer; nothing is sent again.
    const known = await this.fetchStatus(signature).catch((error: unknown) => {
      throw unavailable(error);
    });
    if (known?.final) return this.verdict(known.err, decoded.programs);

    const wire = getBase64EncodedWireTransaction(decoded.transaction);
    try {
      await this.rpc.sendTransaction(wire, { encoding: 'base64', preflightCommitment: this.commitment, maxRetries: 0n }).send({ abortSignal: this.signal() });
    } catch (error) {
      if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
        const verdict = preflightVerdict(error, decoded.programs);
        if (verdict !== 'already-processed') throw verdict;
      } else if (isSolanaError(error) && REFUSALS.has(error.context.__code)) {
        throw new LedgerError('rejected', `Transaction refused by the node: ${error.message}`);
      } else {
        // Unknown whether it reached the node: keep polling (and rebroadcasting) like any sent transaction.
        this.log?.warn({ err: error, signature }, 'sendTransaction failed; polling for the transaction anyway');
      }
    }
    return this.confirm(signature, wire, decoded);
  }

  async status(signature: string): Promise<'succeeded' | 'failed' | 'unknown'> {
    let status;
    try {
      status = await this.fetchStatus(signature as Signature);
    } catch (error) {
      throw unavailable(error);
    }
    if (!status?.final) return 'unknown';
    return status.err === null ? 'succeeded' : 'failed';
  }

  async isBlockhashValid(blockhash: string): Promise<boolean> {
    try {
      const { value } = await this.rpc.isBlockhashValid(blockhash as Blockhash, { commitment: this.commitment }).send({ abortSignal: this.signal() });
      return value;
    } catch (error) {
      throw unavailable(error);
    }
  }

  async signPayout(wallet: string, amountMicro: bigint, memo: string): Promise<{ signature: string; transaction: Uint8Array }> {
    const recipient = toAddress(wallet, 'The payout wallet');
    const { value } = await this.rpc
      .getLatestBlockhash({ commitment: this.commitment })
      .send({ abortSignal: this.signal() })
      .catch((error: unknown) => {
        throw unavailable(error);
      });
    return buildPayout({ marketplace: this.marketplace, mint: this.mint as Address, wallet: recipient, amountMicro, memo, ...value });
  }

  /**
   * Creates the marketplace's token account when it does not exist yet (payments are sent to it and
   * a payment transaction may not create it). Costs the marketplace ~0.002 SOL of rent, once.
   */
  async ensureMarketplaceTokenAccount(): Promise<void> {
    const { value } = await this.rpc
      .getAccountInfo(this.marketplaceTokenAccount as Address, { encoding: 'base64', commitment: this.commitment })
      .send({ abortSignal: this.signal() })
      .catch((error: unknown) => {
        throw unavailable(error);
      });
    if (value) return;
    const { value: lifetime } = await this.rpc
      .getLatestBlockhash({ commitment: this.commitment })
      .send({ abortSignal: this.signal() })
      .catch((error: unknown) => {
        throw unavailable(error);
      });
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(this.marketplace, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getCreateAssociatedTokenIdempotentInstruction({
              payer: this.marketplace,
              ata: this.marketplaceTokenAccount as Address,
              owner: this.marketplace.address,
              mint: this.mint as Address,
            }),
            uniqueMemo('marketplace token account'),
          ],
          m,
        ),
    );
    const signed = await signTransactionMessageWithSigners(message);
    await this.submit(wireBytes(signed));
    this.log?.info({ tokenAccount: this.marketplaceTokenAccount }, 'created the marketplace token account');
  }

  async close(): Promise<void> {
    this.closing.abort(new LedgerError('unavailable', 'The ledger is closed'));
  }

  /** Per-request timeout, cut short at close. */
  private signal(): AbortSignal {
    return AbortSignal.any([AbortSignal.timeout(this.requestTimeoutMs), this.closing.signal]);
  }

  /** The node's view of a signature: null when unknown; `final` once the configured commitment is reached. */
  private async fetchStatus(signature: Signature): Promise<{ final: boolean; err: TransactionErrorJson | null } | null> {
    const { value } = await this.rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send({ abortSignal: this.signal() });
    const status = value[0];
    if (!status) return null;
    const reached = status.confirmationStatus === 'finalized' || (this.commitment === 'confirmed' && status.confirmationStatus === 'confirmed');
    return { final: reached, err: (status.err as TransactionErrorJson | null) ?? null };
  }

  private verdict(err: TransactionErrorJson | null, programs: readonly (string | undefined)[]): void {
    if (err !== null) throw ledgerErrorFor(err, programs);
  }

  /**
   * Polls until the transaction reaches the commitment (rebroadcasting it meanwhile), its blockhash
   * expires without it (rejected: it can never land), or the timeout (unavailable: outcome unknown).
   */
  private async confirm(signature: Signature, wire: ReturnType<typeof getBase64EncodedWireTransaction>, decoded: ReturnType<typeof decodeTransaction>): Promise<void> {
    const deadline = Date.now() + this.confirmTimeoutMs;
    let lastBroadcast = Date.now();
    let lastProblem: unknown;
    while (Date.now() < deadline) {
      if (this.closing.signal.aborted) throw new LedgerError('unavailable', 'The ledger closed while confirming a transaction');
      try {
        const status = await this.fetchStatus(signature);
        if (status?.final) return this.verdict(status.err, decoded.programs);
        if (status === null && Date.now() - lastBroadcast >= this.rebroadcastMs) {
          lastBroadcast = Date.now();
          // Blockhash first, then status: a transaction can only land while its blockhash is valid.
          if (!(await this.isBlockhashValid(decoded.blockhash)) && (await this.fetchStatus(signature)) === null) {
            throw new LedgerError('rejected', 'Transaction expired: its blockhash is no longer valid and it did not land');
          }
          await this.rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true, maxRetries: 0n }).send({ abortSignal: this.signal() }).catch(() => {});
        }
      } catch (error) {
        if (error instanceof LedgerError && error.kind !== 'unavailable') throw error;
        lastProblem = error;
      }
      await sleep(Math.min(this.pollIntervalMs, Math.max(0, deadline - Date.now())));
    }
    throw new LedgerError(
      'unavailable',
      `Transaction ${signature} not confirmed within ${this.confirmTimeoutMs} ms${lastProblem ? ` (${messageOf(lastProblem)})` : ''}`,
    );
  }
}
