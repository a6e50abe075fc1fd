/**
 * What both ledgers share: program addresses, keypair files, decoding wire transactions, the payout
 * transaction, and turning a chain's transaction error (in Solana JSON-RPC's shape) into a LedgerError.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import bs58 from 'bs58';
import { LRUCache } from 'lru-cache';
import { readFileSync } from 'node:fs';
import { createFileDurably } from '../../platform/fsync.ts';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  isAddress,
  isOffCurveAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import { AccountState, getTokenDecoder, getTokenSize, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { USDC_DECIMALS } from '../money.ts';
import { LedgerError } from './ledger.ts';

/**
 * SPL Memo v2, the memo program deployed on every cluster and preloaded in LiteSVM. (@solana-program/memo
 * 0.15 defaults to Memo4c2p..., a newer program LiteSVM does not have: always pass this address.)
 */
export const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
export const SYSTEM_PROGRAM_ADDRESS = address('11111111111111111111111111111111');

/**
 * The Memo every transaction the marketplace sends carries: equal transactions have equal signatures (same
 * blockhash, deterministic Ed25519), and a second one would be dropped as a duplicate of the first. `label` says
 * what the transaction is for; a random suffix makes it unique.
 */
export const uniqueMemo = (label: string) => getAddMemoInstruction({ memo: `${label} ${randomUUID().slice(0, 8)}` }, { programAddress: MEMO_PROGRAM_ADDRESS });
export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export { TOKEN_PROGRAM_ADDRESS };

/** A transaction error as Solana JSON-RPC reports it: `"BlockhashNotFound"`, `{ InstructionError: [0, { Custom: 1 }] }`, ... */
export type TransactionErrorJson = string | { [variant: string]: unknown };

const ASSOCIATED_TOKEN_PROGRAM = bs58.decode('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const PDA_MARKER = Buffer.from('ProgramDerivedAddress');
// A derivation hashes and checks the curve once per bump tried (~0.4 ms with kit); the same wallets repeat.
const ataCache = new LRUCache<string, Address>({ max: 10_000 });

/**
 * The wallet's associated token account for the mint (classic SPL Token), synchronously and cached:
 * kit's findAssociatedTokenPda is async (WebCrypto). Same algorithm: the first bump from 255 down whose
 * SHA-256(owner, token program, mint, bump, ATA program, marker) is off the Ed25519 curve.
 */
export function associatedTokenAccount(owner: Address, mint: Address): Address {
  const key = `${mint}:${owner}`;
  const cached = ataCache.get(key);
  if (cached) return cached;
  const seeds = [owner, TOKEN_PROGRAM_ADDRESS, mint].map((value) => bs58.decode(value));
  for (let bump = 255; bump >= 0; bump--) {
    const hash = createHash('sha256');
    for (const seed of seeds) hash.update(seed);
    const candidate = bs58.encode(hash.update(Uint8Array.of(bump)).update(ASSOCIATED_TOKEN_PROGRAM).update(PDA_MARKER).digest()) as Address;
    if (isOffCurveAddress(candidate)) {
      ataCache.set(key, candidate);
      return candidate;
    }
  }
  throw new Error(`No associated token account for ${owner}`); // unreachable in practice (2^-256)
}

/** A base58 address, or a LedgerError('rejected') naming what was wrong. */
export function toAddress(value: string, what: string): Address {
  if (!isAddress(value)) throw new LedgerError('rejected', `${what} is not a valid Solana address: ${value}`);
  return value;
}

/** Solana CLI keypair file: a JSON array of 64 bytes (32-byte seed, then the public key). */
export function readKeypairFile(path: string): Uint8Array {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the keypair file ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(parsed) || parsed.length !== 64 || !parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new Error(`The keypair file ${path} must hold a JSON array of 64 bytes (Solana CLI format)`);
  }
  return Uint8Array.from(parsed as number[]);
}

/** A new keypair in Solana CLI format (seed + public key). */
export async function generateKeypairBytes(): Promise<Uint8Array> {
  const seed = randomBytes(32);
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const bytes = new Uint8Array(64);
  bytes.set(seed, 0);
  bytes.set(getAddressEncoder().encode(signer.address), 32);
  return bytes;
}

export function writeKeypairFile(path: string, bytes: Uint8Array): void {
  createFileDurably(path, `${JSON.stringify(Array.from(bytes))}\n`, 0o600);
}

/** A signer from Solana CLI keypair bytes (kit checks that the public key matches the seed). */
export function signerFromKeypair(bytes: Uint8Array): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(bytes);
}

export interface DecodedTransaction {
  transaction: Transaction;
  /** The fee payer's signature (base58): the transaction's id. */
  signature: string;
  /** The recent blockhash (or durable nonce value) the transaction names. */
  blockhash: string;
  /** Program address of each instruction, by index (undefined where an address table would be needed). */
  programs: (string | undefined)[];
}

/** Decodes wire bytes; anything that is not a signed Solana transaction is 'rejected'. */
export function decodeTransaction(wire: Uint8Array): DecodedTransaction {
  let transaction: Transaction;
  let signature: string;
  let message: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;
  try {
    transaction = getTransactionDecoder().decode(wire);
    message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  } catch (error) {
    throw new LedgerError('rejected', `Not a Solana transaction: ${(error as Error).message}`);
  }
  try {
    signature = getSignatureFromTransaction(transaction);
  } catch {
    throw new LedgerError('rejected', 'The transaction is not signed by its fee payer');
  }
  const accounts = message.staticAccounts;
  const programs =
    message.version === 1
      ? message.instructionHeaders.map((h) => accounts[h.programAccountIndex])
      : message.instructions.map((i) => accounts[i.programAddressIndex]);
  return { transaction, signature, blockhash: message.lifetimeToken, programs };
}

export const wireBytes = (transaction: Transaction): Uint8Array => new Uint8Array(getTransactionEncoder().encode(transaction));
export const base64Wire = (transaction: Transaction): string => getBase64EncodedWireTransaction(transaction);

export interface PayoutInput {
  marketplace: KeyPairSigner;
  mint: Address;
  wallet: Address;
  amountMicro: bigint;
  memo: string;
  blockhash: Blockhash;
  lastValidBlockHeight: bigint;
}

/**
 * The payout: TransferChecked of `amountMicro` from the marketplace's ATA to the recipient's, and a Memo. Fee payer and
 * authority: the marketplace. Signed, not sent. It never creates the recipient's token account: that would be rent
 * paid by the marketplace, again on every order of an agent that closes its account in between (`canReceive`).
 */
export async function buildPayout(input: PayoutInput): Promise<{ signature: string; transaction: Uint8Array }> {
  const { marketplace, mint, wallet, amountMicro, memo } = input;
  if (amountMicro <= 0n) throw new LedgerError('rejected', `A payout needs a positive amount, got ${amountMicro}`);
  const [source, destination] = [associatedTokenAccount(marketplace.address, mint), associatedTokenAccount(wallet, mint)];
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(marketplace, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: input.blockhash, lastValidBlockHeight: input.lastValidBlockHeight }, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getTransferCheckedInstruction({ source, mint, destination, authority: marketplace, amount: amountMicro, decimals: USDC_DECIMALS }),
          getAddMemoInstruction({ memo }, { programAddress: MEMO_PROGRAM_ADDRESS }),
        ],
        m,
      ),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  return { signature: getSignatureFromTransaction(transaction), transaction: wireBytes(transaction) };
}

/**
 * Whether an account (as the chain holds it: its owner program and data) is a classic SPL Token account that can
 * receive a transfer: initialized and not frozen. The caller picks the address (a wallet's ATA for the mint).
 */
export function canReceive(account: { programAddress: string; data: Uint8Array } | null): boolean {
  if (!account || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getTokenSize()) return false;
  return getTokenDecoder().decode(account.data).state === AccountState.Initialized;
}

/** Programs whose custom error 1 means "not enough": SPL Token (InsufficientFunds), System (ResultWithNegativeLamports). */
const CUSTOM_1_IS_INSUFFICIENT = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, SYSTEM_PROGRAM_ADDRESS]);

/** Human text for a JSON-RPC transaction error (close to what validators log). */
export function describeTransactionError(err: TransactionErrorJson): string {
  if (typeof err === 'string') return err;
  const instruction = err.InstructionError;
  if (Array.isArray(instruction)) {
    const [index, inner] = instruction as [unknown, unknown];
    let what: string;
    if (typeof inner === 'string') what = inner;
    else if (inner && typeof inner === 'object' && 'Custom' in inner) what = `custom program error: 0x${Number((inner as { Custom: unknown }).Custom).toString(16)}`;
    else what = JSON.stringify(inner, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    return `Error processing Instruction ${Number(index)}: ${what}`;
  }
  return JSON.stringify(err, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
}

/**
 * Whether a chain error means the payer lacked funds: SPL Token InsufficientFunds (custom error 1 of the
 * token program), a system transfer beyond the balance, or no SOL for the fee.
 */
export function isInsufficientFunds(err: TransactionErrorJson, programs: readonly (string | undefined)[]): boolean {
  if (err === 'InsufficientFundsForFee' || err === 'AccountNotFound') return true;
  if (typeof err !== 'object') return false;
  const instruction = err.InstructionError;
  if (!Array.isArray(instruction)) return false;
  const [index, inner] = instruction as [unknown, unknown];
  if (inner === 'InsufficientFunds') return true;
  if (inner && typeof inner === 'object' && 'Custom' in inner && Number((inner as { Custom: unknown }).Custom) === 1) {
    const program = programs[Number(index)];
    return program !== undefined && CUSTOM_1_IS_INSUFFICIENT.has(program);
  }
  return false;
}

/** The LedgerError for a transaction the chain refused or ran and failed. */
export function ledgerErrorFor(err: TransactionErrorJson, programs: readonly (string | undefined)[]): LedgerError {
  const text = describeTransactionError(err);
  return isInsufficientFunds(err, programs)
    ? new LedgerError('insufficient-funds', `Insufficient funds: ${text}`)
    : new LedgerError('rejected', `Transaction failed: ${text}`);
}
