/**
 * A development Solana JSON-RPC 2.0 node over the embedded ledger, so wallets, the SDK and @solana/kit's
 * `createSolanaRpc(url)` work against it as against a real cluster: same methods, same response shapes
 * (`{ context: { slot }, value }`), same error codes (-32002 preflight failure with `{ err, logs, ... }`,
 * -32003 signature verification failure, -32602 invalid params, -32601 unknown method). Batches work.
 *
 * Methods: getLatestBlockhash, isBlockhashValid, getBalance, getAccountInfo, getMultipleAccounts
 * (encodings base64, base58, jsonParsed for SPL Token accounts and mints), getTokenAccountBalance,
 * getTokenAccountsByOwner, getTokenSupply, sendTransaction (base64 / base58; preflight unless
 * skipPreflight), simulateTransaction (sigVerify, replaceRecentBlockhash), getSignatureStatuses,
 * requestAirdrop, getMinimumBalanceForRentExemption, getFeeForMessage, getHealth, getSlot,
 * getBlockHeight, getEpochInfo, getVersion, getGenesisHash, getRecentPrioritizationFees.
 * No WebSocket subscriptions: confirm by polling getSignatureStatuses.
 *
 * LiteSVM has no blocks: the slot stays where it is, every landed transaction is at once 'finalized',
 * and the blockhash only changes when the ledger's `expireBlockhash()` is called.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  getBase58Decoder,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  isAddress,
  type Address,
  type EncodedAccount,
} from '@solana/kit';
import { getMintDecoder, getMintSize, getTokenDecoder, getTokenSize } from '@solana-program/token';
import { LedgerError } from './ledger.ts';
import type { LiteSvmLedger } from './litesvm-ledger.ts';
import { describeTransactionError, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './solana.ts';

/** Answers one HTTP request (POST, JSON-RPC body); usable as a route of the app or a whole node:http server. */
export type SolanaRpcRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface SolanaRpcOptions {
  /** Largest accepted request body (default 50 KiB, a Solana validator's own limit). */
  maxBodyBytes?: number;
}

/** What `solana-core` version this node claims (clients read it to pick features). */
const VERSION = { 'solana-core': '2.3.0', 'feature-set': 0 };
const API_VERSION = VERSION['solana-core'];
/** Rent-exempt accounts report the largest u64 as their rent epoch. */
const RENT_EXEMPT_EPOCH = 18446744073709551615n;
const LAMPORTS_PER_SIGNATURE = 5000n;
const SLOTS_PER_EPOCH = 432_000n;
const GENESIS_HASH = getBase58Decoder().decode(createHash('sha256').update('typed-platform embedded LiteSVM ledger').digest());

class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const invalidParams = (message: string) => new RpcError(-32602, `Invalid params: ${message}`);
const invalidParam = (message: string) => new RpcError(-32602, `Invalid param: ${message}`);

type Params = unknown[];
type Config = Record<string, unknown>;
type Method = (ledger: LiteSvmLedger, params: Params) => unknown;

function configAt(params: Params, index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`expected a configuration object at position ${index}`);
  return value as Config;
}

function addressAt(params: Params, index: number): Address {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`expected an address (base58 string) at position ${index}`);
  if (!isAddress(value)) throw invalidParam('Invalid');
  return value;
}

function stringAt(params: Params, index: number, what: string): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`expected ${what} at position ${index}`);
  return value;
}

function integerAt(params: Params, index: number, what: string): bigint {
  const value = params[index];
  if ((typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) || (typeof value === 'bigint' && value >= 0n)) return BigInt(value);
  throw invalidParams(`expected ${what} (a non-negative integer) at position ${index}`);
}

const withContext = (ledger: LiteSvmLedger, value: unknown) => ({ context: { apiVersion: API_VERSION, slot: ledger.slot() }, value });

/** `amount / 10^decimals` as a decimal string, without floating point. */
function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${digits.slice(0, -decimals)}.${fraction}` : digits.slice(0, -decimals);
}

function tokenAmount(amount: bigint, decimals: number) {
  const ui = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(ui), uiAmountString: ui };
}

function mintDecimals(ledger: LiteSvmLedger, mint: Address): number {
  const account = ledger.account(mint);
  return account.exists && account.data.length === getMintSize() ? getMintDecoder().decode(account.data).decimals : 0;
}

const isTokenAccount = (account: EncodedAccount) => account.programAddress === TOKEN_PROGRAM_ADDRESS && account.data.length === getTokenSize();
const isMint = (account: EncodedAccount) => account.programAddress === TOKEN_PROGRAM_ADDRESS && account.data.length === getMintSize();

const optionalAddress = (option: { __option: 'Some'; value: Address } | { __option: 'None' }) => (option.__option === 'Some' ? option.value : null);

/** `jsonParsed` data for SPL Token accounts and mints; null for anything else (then base64 is used). */
function parsedData(ledger: LiteSvmLedger, account: EncodedAccount): unknown {
  if (isTokenAccount(account)) {
    const token = getTokenDecoder().decode(account.data);
    const state = ['uninitialized', 'initialized', 'frozen'][token.state] ?? 'initialized';
    return {
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          isNative: token.isNative.__option === 'Some',
          mint: token.mint,
          owner: token.owner,
          state,
          tokenAmount: tokenAmount(token.amount, mintDecimals(ledger, token.mint)),
        },
      },
      space: account.data.length,
    };
  }
  if (isMint(account)) {
    const mint = getMintDecoder().decode(account.data);
    return {
      program: 'spl-token',
      parsed: {
        type: 'mint',
        info: {
          decimals: mint.decimals,
          freezeAuthority: optionalAddress(mint.freezeAuthority),
          isInitialized: mint.isInitialized,
          mintAuthority: optionalAddress(mint.mintAuthority),
          supply: mint.supply.toString(),
        },
      },
      space: account.data.length,
    };
  }
  return null;
}

/** An account as getAccountInfo returns it, in the requested encoding. */
function encodeAccount(ledger: LiteSvmLedger, account: EncodedAccount, encoding: unknown) {
  const bytes = account.data as Uint8Array;
  let data: unknown;
  if (encoding === 'jsonParsed') data = parsedData(ledger, account) ?? [Buffer.from(bytes).toString('base64'), 'base64'];
  else if (encoding === 'base64') data = [Buffer.from(bytes).toString('base64'), 'base64'];
  else if (encoding === 'base58') {
    if (bytes.length > 128) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
    data = [getBase58Decoder().decode(bytes), 'base58'];
  } else if (encoding === undefined || encoding === 'binary') {
    if (bytes.length > 128) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
    data = getBase58Decoder().decode(bytes);
  } else throw invalidParams(`unsupported encoding: ${String(encoding)} (this development node answers base64, base58 and jsonParsed)`);
  return { data, executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: RENT_EXEMPT_EPOCH, space: BigInt(bytes.length) };
}

function accountInfo(ledger: LiteSvmLedger, address: Address, config: Config) {
  const account = ledger.account(address);
  return account.exists ? encodeAccount(ledger, account, config.encoding) : null;
}

/** Wire bytes of an encoded transaction (base58 is JSON-RPC's default). */
function decodeWire(encoded: string, encoding: unknown): Uint8Array {
  try {
    if (encoding === undefined || encoding === 'base58') return new Uint8Array(getBase58Encoder().encode(encoded));
    if (encoding === 'base64') {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) throw new Error('invalid base64');
      return new Uint8Array(Buffer.from(encoded, 'base64'));
    }
  } catch (error) {
    throw invalidParams(`invalid ${String(encoding ?? 'base58')} encoding: ${(error as Error).message}`);
  }
  throw invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
}

/** The JSON-RPC error a real node answers for a transaction its preflight refused. */
function preflightFailure(err: Parameters<typeof describeTransactionError>[0], logs: string[], unitsConsumed: bigint): RpcError {
  const text = err === 'AlreadyProcessed' ? 'This transaction has already been processed' : describeTransactionError(err);
  return new RpcError(-32002, `Transaction simulation failed: ${text}`, {
    accounts: null,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: null,
    logs,
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed,
  });
}

async function sendTransaction(ledger: LiteSvmLedger, params: Params): Promise<string> {
  const config = configAt(params, 1);
  const wire = decodeWire(stringAt(params, 0, 'an encoded transaction'), config.encoding);
  const preflight = config.skipPreflight !== true;
  let outcome;
  try {
    outcome = ledger.execute(wire, { preflight });
  } catch (error) {
    if (error instanceof LedgerError && error.kind === 'rejected') throw invalidParams(`invalid transaction: ${error.message}`);
    throw error;
  }
  await ledger.persisted(); // answered once on disk, as the ledger's own submit
  if (outcome.err === 'SignatureFailure' && !outcome.landed) throw new RpcError(-32003, 'Transaction signature verification failure');
  if (preflight && outcome.duplicate) throw preflightFailure('AlreadyProcessed', [], 0n);
  if (preflight && !outcome.landed && outcome.err !== null) throw preflightFailure(outcome.err, outcome.logs, outcome.unitsConsumed);
  // Without preflight a node returns the signature whatever happens next: the transaction lands and fails, or is dropped.
  return outcome.signature;
}

function simulateTransaction(ledger: LiteSvmLedger, params: Params) {
  const config = configAt(params, 1);
  const wire = decodeWire(stringAt(params, 0, 'an encoded transaction'), config.encoding);
  if (config.sigVerify === true && config.replaceRecentBlockhash === true) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
  const result = ledger.simulate(wire, { sigVerify: config.sigVerify === true, replaceRecentBlockhash: config.replaceRecentBlockhash === true });
  return withContext(ledger, {
    accounts: null,
    err: result.err,
    fee: null,
    innerInstructions: null,
    loadedAccountsDataSize: null,
    logs: result.logs,
    replacementBlockhash: result.replacementBlockhash ?? null,
    returnData: null,
    unitsConsumed: result.unitsConsumed,
  });
}

function tokenAccountsByOwner(ledger: LiteSvmLedger, params: Params) {
  const owner = addressAt(params, 0);
  const filter = configAt(params, 1);
  const config = configAt(params, 2);
  let mint: Address | undefined;
  if (typeof filter.mint === 'string') {
    if (!isAddress(filter.mint)) throw invalidParam('Invalid');
    mint = filter.mint;
  } else if (typeof filter.programId === 'string') {
    if (filter.programId === TOKEN_2022_PROGRAM_ADDRESS) return withContext(ledger, []);
    if (filter.programId !== TOKEN_PROGRAM_ADDRESS) throw invalidParam('unrecognized Token program id');
  } else throw invalidParams('expected a filter object { mint } or { programId }');
  const accounts = ledger.programAccounts(TOKEN_PROGRAM_ADDRESS).filter((account) => {
    if (!isTokenAccount(account)) return false;
    const token = getTokenDecoder().decode(account.data);
    return token.owner === owner && (mint === undefined || token.mint === mint);
  });
  return withContext(
    ledger,
    accounts.map((account) => ({ pubkey: account.address, account: encodeAccount(ledger, account, config.encoding) })),
  );
}

function tokenAccountBalance(ledger: LiteSvmLedger, params: Params) {
  const account = ledger.account(addressAt(params, 0));
  if (!account.exists) throw invalidParam('could not find account');
  if (!isTokenAccount(account)) throw invalidParam('not a Token account');
  const token = getTokenDecoder().decode(account.data);
  return withContext(ledger, tokenAmount(token.amount, mintDecimals(ledger, token.mint)));
}

const methods: Record<string, Method> = {
  getHealth: () => 'ok',
  getVersion: () => VERSION,
  getGenesisHash: () => GENESIS_HASH,
  getSlot: (ledger) => ledger.slot(),
  getBlockHeight: (ledger) => ledger.slot(),
  getEpochInfo: (ledger) => {
    const slot = ledger.slot();
    return { absoluteSlot: slot, blockHeight: slot, epoch: slot / SLOTS_PER_EPOCH, slotIndex: slot % SLOTS_PER_EPOCH, slotsInEpoch: SLOTS_PER_EPOCH, transactionCount: null };
  },
  getLatestBlockhash: (ledger) => withContext(ledger, ledger.latestBlockhash()),
  isBlockhashValid: (ledger, params) => withContext(ledger, stringAt(params, 0, 'a blockhash') === ledger.latestBlockhash().blockhash),
  getRecentPrioritizationFees: () => [],
  getFeeForMessage: (ledger, params) => {
    let fee: bigint | null = null;
    try {
      const message = getCompiledTransactionMessageDecoder().decode(Buffer.from(stringAt(params, 0, 'a base64 message'), 'base64'));
      fee = message.lifetimeToken === ledger.latestBlockhash().blockhash ? LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts) : null;
    } catch (error) {
      if (error instanceof RpcError) throw error;
      throw invalidParams('invalid base64 message');
    }
    return withContext(ledger, fee);
  },
  getMinimumBalanceForRentExemption: (ledger, params) => ledger.rentExemptMinimum(integerAt(params, 0, 'a data size')),
  getBalance: (ledger, params) => {
    const account = ledger.account(addressAt(params, 0));
    return withContext(ledger, account.exists ? account.lamports : 0n);
  },
  getAccountInfo: (ledger, params) => withContext(ledger, accountInfo(ledger, addressAt(params, 0), configAt(params, 1))),
  getMultipleAccounts: (ledger, params) => {
    const addresses = params[0];
    if (!Array.isArray(addresses) || addresses.length > 100) throw invalidParams('expected an array of at most 100 addresses');
    const config = configAt(params, 1);
    return withContext(
      ledger,
      addresses.map((_, index) => accountInfo(ledger, addressAt(addresses, index), config)),
    );
  },
  getTokenAccountBalance: tokenAccountBalance,
  getTokenAccountsByOwner: tokenAccountsByOwner,
  getTokenSupply: (ledger, params) => {
    const account = ledger.account(addressAt(params, 0));
    if (!account.exists || !isMint(account)) throw invalidParam('not a Token mint');
    const mint = getMintDecoder().decode(account.data);
    return withContext(ledger, tokenAmount(mint.supply, mint.decimals));
  },
  getSignatureStatuses: (ledger, params) => {
    const signatures = params[0];
    if (!Array.isArray(signatures) || signatures.length > 256) throw invalidParams('expected an array of at most 256 signatures');
    return withContext(
      ledger,
      signatures.map((signature) => {
        if (typeof signature !== 'string') throw invalidParams('signatures must be base58 strings');
        const status = ledger.signatureStatus(signature);
        if (!status) return null;
        return {
          slot: ledger.slot(),
          confirmations: null,
          err: status.err,
          confirmationStatus: 'finalized',
          status: status.err === null ? { Ok: null } : { Err: status.err },
        };
      }),
    );
  },
  sendTransaction,
  simulateTransaction,
  requestAirdrop: async (ledger, params) => {
    const address = addressAt(params, 0);
    const amount = integerAt(params, 1, 'lamports');
    if (amount === 0n) throw invalidParams('lamports must be positive');
    return ledger.airdrop(address, amount);
  },
};

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** Calls in one batch, at most (as hosted RPC providers cap them). */
export const MAX_BATCH_CALLS = 100;

/**
 * One JSON-RPC call (or a batch) to its response; undefined when nothing is to be answered (notifications only).
 * A batch yields to the event loop between calls: the ledger runs in the server's own process, and a long batch
 * must not hold up its other requests.
 */
export async function answerSolanaRpc(ledger: LiteSvmLedger, body: unknown): Promise<unknown> {
  if (Array.isArray(body)) {
    if (body.length === 0) return errorResponse(null, new RpcError(-32600, 'Invalid request'));
    if (body.length > MAX_BATCH_CALLS) return errorResponse(null, new RpcError(-32600, `Invalid request: a batch holds at most ${MAX_BATCH_CALLS} calls, this one ${body.length}`));
    const responses = [];
    for (const call of body) {
      const response = await answerOne(ledger, call);
      if (response !== undefined) responses.push(response);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return responses.length > 0 ? responses : undefined;
  }
  return answerOne(ledger, body);
}

const errorResponse = (id: unknown, error: RpcError) => ({
  jsonrpc: '2.0',
  error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) },
  id,
});

async function answerOne(ledger: LiteSvmLedger, call: unknown): Promise<unknown> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return errorResponse(null, new RpcError(-32600, 'Invalid request'));
  const { jsonrpc, id = null, method, params = [] } = call as JsonRpcRequest;
  const validId = id === null || typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint';
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !validId) return errorResponse(validId ? id : null, new RpcError(-32600, 'Invalid request'));
  const notification = !('id' in (call as object));
  try {
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) throw new RpcError(-32601, 'Method not found');
    if (!Array.isArray(params)) throw invalidParams('params must be an array');
    const result = await handler(ledger, params);
    return notification ? undefined : { jsonrpc: '2.0', result, id };
  } catch (error) {
    if (notification) return undefined;
    if (error instanceof RpcError) return errorResponse(id, error);
    if (error instanceof LedgerError) {
      return errorResponse(id, error.kind === 'unavailable' ? new RpcError(-32005, `Node is unhealthy: ${error.message}`) : new RpcError(-32602, `Invalid params: ${error.message}`));
    }
    return errorResponse(id, new RpcError(-32603, 'Internal error'));
  }
}

/** JSON with bigints written as plain numbers (u64 values such as lamports and rent epochs exceed 2^53). */
export function stringifyWithBigInts(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stringifyWithBigInts).join(',')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${stringifyWithBigInts(v)}`).join(',')}}`;
  }
  return 'null';
}

/** JSON.parse keeping integers beyond 2^53 exact (as bigints). */
function parseWithBigInts(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, solana-client',
};

/**
 * The node:http handler: POST a JSON-RPC request or batch, get JSON back (HTTP 200 also for JSON-RPC
 * errors, as real nodes answer). CORS is open: this is a public-style RPC endpoint for development.
 */
export function createSolanaRpcHandler(ledger: LiteSvmLedger, options: SolanaRpcOptions = {}): SolanaRpcRequestHandler {
  const maxBodyBytes = options.maxBodyBytes ?? 50 * 1024;
  const send = (res: ServerResponse, status: number, body: string, type = 'application/json') =>
    void res.writeHead(status, { ...CORS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) }).end(body);
  return async (req, res) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, { ...CORS, 'Access-Control-Max-Age': '86400' }).end();
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST, OPTIONS');
      return send(res, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBodyBytes) return send(res, 413, `Request body is larger than ${maxBodyBytes} bytes`, 'text/plain');
        chunks.push(chunk);
      }
    } catch {
      return; // the client went away
    }
    let body: unknown;
    try {
      body = parseWithBigInts(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 200, stringifyWithBigInts(errorResponse(null, new RpcError(-32700, 'Parse error'))));
    }
    const answer = await answerSolanaRpc(ledger, body);
    if (answer === undefined) return void res.writeHead(204, CORS).end();
    send(res, 200, stringifyWithBigInts(answer));
  };
}
