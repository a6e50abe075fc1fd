/**
 * The USDC ledgers behind payments (server/marketplace/ledgers/): the embedded LiteSvmLedger running the real
 * SPL Token program in memory and persisted under DATA_DIR/ledger (its journal replayed after a restart), the
 * development JSON-RPC node the server exposes and the RpcLedger that speaks to any Solana RPC through it, and
 * createLedger choosing between them from the configuration.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  type Address,
  type Blockhash,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getMintDecoder, getTransferCheckedInstruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedTransaction } from '../../client-sdk/transaction.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { createLedger } from '../../server/marketplace/ledgers/index.ts';
import { LedgerError } from '../../server/marketplace/ledgers/ledger.ts';
import { LiteSvmLedger } from '../../server/marketplace/ledgers/litesvm-ledger.ts';
import { RpcLedger } from '../../server/marketplace/ledgers/rpc-ledger.ts';
import { answerSolanaRpc, createSolanaRpcHandler } from '../../server/marketplace/ledgers/solana-rpc.ts';
import {
  associatedTokenAccount,
  generateKeypairBytes,
  MEMO_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  wireBytes,
  writeKeypairFile,
} from '../../server/marketplace/ledgers/solana.ts';

const USDC = 1_000_000n;
const SOL = 1_000_000_000n;

/** A consumer's payment as a wallet builds it: TransferChecked of USDC to the marketplace token account + memo. */
async function signedPayment(
  ledger: { mint: string; marketplaceTokenAccount: string },
  from: KeyPairSigner,
  amount: bigint,
  memo: string,
  lifetime: { blockhash: Blockhash; lastValidBlockHeight: bigint },
): Promise<{ transaction: Transaction; wire: Uint8Array; signature: string }> {
  const source = await associatedTokenAccount(from.address, ledger.mint as Address);
  const mint = ledger.mint as Address;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getTransferCheckedInstruction({ source, mint, destination: ledger.marketplaceTokenAccount as Address, authority: from, amount, decimals: 6 }),
          getAddMemoInstruction({ memo }, { programAddress: MEMO_PROGRAM_ADDRESS }),
        ],
        m,
      ),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  return { transaction, wire: wireBytes(transaction), signature: getSignatureFromTransaction(transaction) };
}

/** A funded consumer: SOL for fees and `usdc` micro-USDC. */
async function consumer(ledger: LiteSvmLedger, usdc: bigint): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await ledger.airdrop(signer.address, SOL);
  if (usdc > 0n) await ledger.mintTo(signer.address, usdc);
  return signer;
}

/** The wallet's USDC token account, created and paid for by the wallet itself (as an agent does before its orders). */
async function openTokenAccount(ledger: LiteSvmLedger, owner: KeyPairSigner): Promise<void> {
  await ledger.airdrop(owner.address, SOL);
  const mint = ledger.mint as Address;
  const create = getCreateAssociatedTokenIdempotentInstruction({ payer: owner, ata: associatedTokenAccount(owner.address, mint), owner: owner.address, mint });
  await ledger.submit(wireBytes(await signedTransaction(owner, ledger.latestBlockhash(), [create])));
}

const lamportsOf = (ledger: LiteSvmLedger, wallet: string) => {
  const account = ledger.account(wallet as Address);
  return account.exists ? account.lamports : 0n;
};

async function rejection(promise: Promise<unknown>): Promise<LedgerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerError);
  return error as LedgerError;
}

describe('LiteSvmLedger (embedded, in memory)', () => {
  let ledger: LiteSvmLedger;
  beforeAll(async () => {
    ledger = await LiteSvmLedger.open();
  });
  afterAll(() => ledger.close());

  it('creates a 6-decimal USDC mint whose mint authority is the marketplace, and the marketplace token account', async () => {
    expect(ledger.cluster).toBe('localnet');
    expect(ledger.rpcUrl).toBe('/dev/solana-rpc');
    const mint = ledger.account(ledger.mint as Address);
    expect(mint.exists).toBe(true);
    if (!mint.exists) return;
    expect(mint.programAddress).toBe(TOKEN_PROGRAM_ADDRESS);
    const decoded = getMintDecoder().decode(mint.data);
    expect(decoded.decimals).toBe(6);
    expect(decoded.mintAuthority).toEqual({ __option: 'Some', value: ledger.marketplaceWallet });
    expect(ledger.marketplaceTokenAccount).toBe(await associatedTokenAccount(ledger.marketplaceWallet as Address, ledger.mint as Address));
    expect(ledger.account(ledger.marketplaceTokenAccount as Address).exists).toBe(true);
    expect(ledger.account(ledger.marketplaceWallet as Address).exists && ledger.account(ledger.marketplaceWallet as Address)).toMatchObject({ lamports: expect.any(BigInt) });
  });

  it('creates the mint at a configured address (the mainnet USDC mint)', async () => {
    const mainnet = await LiteSvmLedger.open({ mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' });
    try {
      const wallet = await generateKeyPairSigner();
      await mainnet.mintTo(wallet.address, 3n * USDC);
      expect(await mainnet.usdcBalance(wallet.address)).toBe(3n * USDC);
      expect(mainnet.mint).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    } finally {
      await mainnet.close();
    }
  });

  it('mints with the faucet, whose own wallet pays the new token account (not the marketplace); balances are 0 for a wallet without a token account', async () => {
    const wallet = await generateKeyPairSigner();
    expect(await ledger.usdcBalance(wallet.address)).toBe(0n);
    const sol = lamportsOf(ledger, ledger.marketplaceWallet);
    const first = await ledger.mintTo(wallet.address, 5n * USDC);
    expect(lamportsOf(ledger, ledger.marketplaceWallet)).toBe(sol);
    // The same amount again is a new transaction (unique memo), not a duplicate.
    const second = await ledger.mintTo(wallet.address, 5n * USDC);
    expect(second).not.toBe(first);
    expect(await ledger.usdcBalance(wallet.address)).toBe(10n * USDC);
    expect(await ledger.status(first)).toBe('succeeded');
    expect(await ledger.status(second)).toBe('succeeded');
  });

  it('submits a TransferChecked signed with a kit signer: USDC moves to the marketplace', async () => {
    const payer = await consumer(ledger, 10n * USDC);
    const before = await ledger.usdcBalance(ledger.marketplaceWallet);
    const { wire, signature } = await signedPayment(ledger, payer, 4n * USDC, 'order-1', ledger.latestBlockhash());
    expect(await ledger.status(signature)).toBe('unknown');
    await ledger.submit(wire);
    expect(await ledger.usdcBalance(payer.address)).toBe(6n * USDC);
    expect(await ledger.usdcBalance(ledger.marketplaceWallet)).toBe(before + 4n * USDC);
    expect(await ledger.status(signature)).toBe('succeeded');
  });

  it('refuses a transfer beyond the balance as insufficient-funds; nothing moves, nothing lands', async () => {
    const payer = await consumer(ledger, 1n * USDC);
    const before = await ledger.usdcBalance(ledger.marketplaceWallet);
    const { wire, signature } = await signedPayment(ledger, payer, 2n * USDC, 'order-2', ledger.latestBlockhash());
    const error = await rejection(ledger.submit(wire));
    expect(error.kind).toBe('insufficient-funds');
    expect(error.message).toContain('custom program error: 0x1');
    expect(await ledger.usdcBalance(payer.address)).toBe(1n * USDC);
    expect(await ledger.usdcBalance(ledger.marketplaceWallet)).toBe(before);
    expect(await ledger.status(signature)).toBe('unknown');
  });

  it('refuses a fee payer without SOL as insufficient-funds', async () => {
    const broke = await generateKeyPairSigner();
    await ledger.mintTo(broke.address, 1n * USDC);
    const { wire } = await signedPayment(ledger, broke, 1n * USDC, 'order-3', ledger.latestBlockhash());
    expect((await rejection(ledger.submit(wire))).kind).toBe('insufficient-funds');
  });

  it('rejects bytes that are not a transaction, and a transaction with a forged signature', async () => {
    expect((await rejection(ledger.submit(new Uint8Array([1, 2, 3])))).kind).toBe('rejected');
    const payer = await consumer(ledger, 1n * USDC);
    const { wire } = await signedPayment(ledger, payer, 1n * USDC, 'order-4', ledger.latestBlockhash());
    const forged = new Uint8Array(wire);
    forged[5] = forged[5]! ^ 0xff; // inside the first signature
    const error = await rejection(ledger.submit(forged));
    expect(error.kind).toBe('rejected');
    expect(await ledger.usdcBalance(payer.address)).toBe(1n * USDC);
  });

  it('treats a duplicate submit as success and moves the money once', async () => {
    const payer = await consumer(ledger, 5n * USDC);
    const { wire } = await signedPayment(ledger, payer, 2n * USDC, 'order-5', ledger.latestBlockhash());
    await ledger.submit(wire);
    await ledger.submit(wire);
    await Promise.all([ledger.submit(wire), ledger.submit(wire)]);
    expect(await ledger.usdcBalance(payer.address)).toBe(3n * USDC);
  });

  it('signPayout signs without sending and never creates the recipient token account: refused while it is missing (no fee, no rent), then it moves exactly the amount', async () => {
    const agent = await generateKeyPairSigner();
    const agentToken = await associatedTokenAccount(agent.address, ledger.mint as Address);
    await ledger.mintTo(ledger.marketplaceWallet, 100n * USDC);
    const before = await ledger.usdcBalance(ledger.marketplaceWallet);
    const payout = await ledger.signPayout(agent.address, 1_234_567n, 'order-6 split');
    expect(ledger.account(agentToken).exists).toBe(false);
    expect(await ledger.status(payout.signature)).toBe('unknown');

    const transaction = getTransactionDecoder().decode(payout.transaction);
    expect(getSignatureFromTransaction(transaction)).toBe(payout.signature);
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    expect(message.staticAccounts[0]).toBe(ledger.marketplaceWallet); // fee payer
    const programs = 'instructions' in message ? message.instructions.map((i) => message.staticAccounts[i.programAddressIndex]) : [];
    expect(programs).toEqual([TOKEN_PROGRAM_ADDRESS, MEMO_PROGRAM_ADDRESS]); // no CreateAssociatedTokenIdempotent

    const sol = lamportsOf(ledger, ledger.marketplaceWallet);
    expect(await ledger.canReceiveUsdc(agent.address)).toBe(false);
    expect((await rejection(ledger.submit(payout.transaction))).kind).toBe('rejected');
    expect([ledger.account(agentToken).exists, await ledger.status(payout.signature), lamportsOf(ledger, ledger.marketplaceWallet)]).toEqual([false, 'unknown', sol]);

    await openTokenAccount(ledger, agent);
    expect(await ledger.canReceiveUsdc(agent.address)).toBe(true);
    await ledger.submit(payout.transaction); // the same signed payout, never landed, lands now
    expect(await ledger.usdcBalance(agent.address)).toBe(1_234_567n);
    expect(await ledger.usdcBalance(ledger.marketplaceWallet)).toBe(before - 1_234_567n);
    expect(await ledger.status(payout.signature)).toBe('succeeded');
    expect(lamportsOf(ledger, ledger.marketplaceWallet)).toBe(sol - 5_000n); // its fee, no rent
  });

  it('signPayout beyond the marketplace balance is refused at submit as insufficient-funds', async () => {
    const agent = await generateKeyPairSigner();
    await openTokenAccount(ledger, agent);
    const balance = await ledger.usdcBalance(ledger.marketplaceWallet);
    const payout = await ledger.signPayout(agent.address, balance + 1n, 'too much');
    expect((await rejection(ledger.submit(payout.transaction))).kind).toBe('insufficient-funds');
  });

  it('isBlockhashValid: the latest blockhash until it expires; a transaction on an expired blockhash is rejected', async () => {
    const payer = await consumer(ledger, 2n * USDC);
    const lifetime = ledger.latestBlockhash();
    const { wire, signature } = await signedPayment(ledger, payer, 1n * USDC, 'order-7', lifetime);
    expect(await ledger.isBlockhashValid(lifetime.blockhash)).toBe(true);
    ledger.expireBlockhash();
    expect(await ledger.isBlockhashValid(lifetime.blockhash)).toBe(false);
    expect(await ledger.isBlockhashValid(ledger.latestBlockhash().blockhash)).toBe(true);
    const error = await rejection(ledger.submit(wire));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('BlockhashNotFound');
    expect(await ledger.status(signature)).toBe('unknown');
  });
});

describe('LiteSvmLedger persistence (DATA_DIR/ledger)', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-ledger-'));
    dirs.push(dir);
    return join(dir, 'ledger');
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('keeps keys, mint, balances and the status of old signatures across a restart', async () => {
    const dir = tempDir();
    // Snapshots every 3 entries: the reload goes through snapshot + journal + signature log.
    const first = await LiteSvmLedger.open({ dir, snapshotEvery: 3 });
    const payer = await consumer(first, 10n * USDC);
    const paid = await signedPayment(first, payer, 3n * USDC, 'order-p1', first.latestBlockhash());
    await first.submit(paid.wire);
    const payout = await first.signPayout(payer.address, 1n * USDC, 'refund');
    await first.submit(payout.transaction);
    const identity = { mint: first.mint, wallet: first.marketplaceWallet, token: first.marketplaceTokenAccount };
    const marketplaceBalance = await first.usdcBalance(first.marketplaceWallet);
    await first.close();

    const second = await LiteSvmLedger.open({ dir, snapshotEvery: 3 });
    try {
      expect({ mint: second.mint, wallet: second.marketplaceWallet, token: second.marketplaceTokenAccount }).toEqual(identity);
      expect(await second.usdcBalance(payer.address)).toBe(8n * USDC);
      expect(await second.usdcBalance(second.marketplaceWallet)).toBe(marketplaceBalance);
      expect(await second.status(paid.signature)).toBe('succeeded');
      expect(await second.status(payout.signature)).toBe('succeeded');
      // A resubmit after the restart is still the same, already landed transaction.
      await second.submit(paid.wire);
      expect(await second.usdcBalance(payer.address)).toBe(8n * USDC);
      // The blockhash survived too: a transaction signed before the restart can still land.
      const late = await signedPayment(second, payer, 1n * USDC, 'order-p2', second.latestBlockhash());
      await second.submit(late.wire);
      expect(await second.usdcBalance(payer.address)).toBe(7n * USDC);
    } finally {
      await second.close();
    }
  });

  it('recovers what a crashed process wrote (no final snapshot: the journal is replayed)', async () => {
    const dir = tempDir();
    const running = await LiteSvmLedger.open({ dir });
    const payer = await consumer(running, 5n * USDC);
    const paid = await signedPayment(running, payer, 2n * USDC, 'order-c1', running.latestBlockhash());
    await running.submit(paid.wire);
    // Copy the directory while the process still runs: what a crash right now would leave on disk.
    const crashed = tempDir();
    cpSync(dir, crashed, { recursive: true });
    expect(readdirSync(crashed).some((f) => /^journal-\d+\.log$/.test(f))).toBe(true);
    await running.close();

    const recovered = await LiteSvmLedger.open({ dir: crashed });
    try {
      expect(recovered.marketplaceWallet).toBe(running.marketplaceWallet);
      expect(await recovered.usdcBalance(payer.address)).toBe(3n * USDC);
      expect(await recovered.status(paid.signature)).toBe('succeeded');
    } finally {
      await recovered.close();
    }
  });

  it('refuses a second process on the same directory', async () => {
    const dir = tempDir();
    const first = await LiteSvmLedger.open({ dir });
    try {
      await expect(LiteSvmLedger.open({ dir })).rejects.toThrow(/in use by another process/);
    } finally {
      await first.close();
    }
  });
});

describe('development JSON-RPC node and RpcLedger', () => {
  let ledger: LiteSvmLedger;
  let server: Server;
  let url: string;
  let marketplaceKeypair: Uint8Array;
  let rpcLedger: RpcLedger;

  const call = async (body: unknown) => {
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return (await response.json()) as any;
  };

  beforeAll(async () => {
    marketplaceKeypair = await generateKeypairBytes();
    ledger = await LiteSvmLedger.open({ marketplaceKeypair });
    const handler = createSolanaRpcHandler(ledger);
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    rpcLedger = await RpcLedger.open({ url, cluster: 'localnet', mint: ledger.mint, marketplaceKeypair, pollIntervalMs: 10 });
  });
  afterAll(async () => {
    await rpcLedger.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await ledger.close();
  });

  it('answers @solana/kit: getHealth, getVersion, getLatestBlockhash, getBalance, getAccountInfo, rent', async () => {
    const rpc = createSolanaRpc(url);
    expect(await rpc.getHealth().send()).toBe('ok');
    expect(await rpc.getVersion().send()).toHaveProperty('solana-core');
    const { context, value } = await rpc.getLatestBlockhash().send();
    expect(value.blockhash).toBe(ledger.latestBlockhash().blockhash);
    expect(value.lastValidBlockHeight).toBe(ledger.latestBlockhash().lastValidBlockHeight);
    expect(context.slot).toBe(await rpc.getSlot().send());
    expect(await rpc.getBlockHeight().send()).toBe(context.slot);
    expect((await rpc.isBlockhashValid(value.blockhash).send()).value).toBe(true);

    const balance = await rpc.getBalance(ledger.marketplaceWallet as Address).send();
    expect(balance.value).toBeGreaterThan(0n);
    const mint = await rpc.getAccountInfo(ledger.mint as Address, { encoding: 'base64' }).send();
    expect(mint.value?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(getMintDecoder().decode(Buffer.from(mint.value!.data[0], 'base64')).decimals).toBe(6);
    const missing = await rpc.getAccountInfo((await generateKeyPairSigner()).address, { encoding: 'base64' }).send();
    expect(missing.value).toBeNull();
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(ledger.rentExemptMinimum(165n));
  });

  it('a client pays through the node: requestAirdrop, getLatestBlockhash, sendTransaction, getSignatureStatuses, getTokenAccountBalance', async () => {
    const rpc = createSolanaRpc(url);
    const payer = await generateKeyPairSigner();
    const airdrop = await rpc.requestAirdrop(payer.address, lamports(2n * SOL)).send();
    const [airdropStatus] = (await rpc.getSignatureStatuses([airdrop]).send()).value;
    expect(airdropStatus).toMatchObject({ confirmationStatus: 'finalized', err: null });
    expect((await rpc.getBalance(payer.address).send()).value).toBe(2n * SOL);
    await ledger.mintTo(payer.address, 5n * USDC);
    const before = BigInt((await rpc.getTokenAccountBalance(ledger.marketplaceTokenAccount as Address).send()).value.amount);

    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const { transaction, signature } = await signedPayment(ledger, payer, 2n * USDC, 'order-r1', lifetime);
    const sent = await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
    expect(sent).toBe(signature);
    const [status] = (await rpc.getSignatureStatuses([sent]).send()).value;
    expect(status).toMatchObject({ confirmationStatus: 'finalized', err: null, status: { Ok: null } });
    const after = await rpc.getTokenAccountBalance(ledger.marketplaceTokenAccount as Address).send();
    expect(after.value).toMatchObject({ decimals: 6 });
    expect(BigInt(after.value.amount)).toBe(before + 2n * USDC);
    const own = await rpc.getTokenAccountBalance(await associatedTokenAccount(payer.address, ledger.mint as Address)).send();
    expect(own.value.amount).toBe('3000000');
    expect(own.value.uiAmountString).toBe('3');

    const accounts = await rpc.getTokenAccountsByOwner(payer.address, { mint: ledger.mint as Address }, { encoding: 'jsonParsed' }).send();
    expect(accounts.value).toHaveLength(1);
    expect(accounts.value[0]!.account.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'account', info: { mint: ledger.mint, owner: payer.address, tokenAmount: { amount: '3000000', decimals: 6 } } },
    });
  });

  it('sendTransaction accepts base58 (the JSON-RPC default) as well', async () => {
    const payer = await consumer(ledger, 1n * USDC);
    const { wire, signature } = await signedPayment(ledger, payer, 1n * USDC, 'order-r2', ledger.latestBlockhash());
    const body = await call({ jsonrpc: '2.0', id: 7, method: 'sendTransaction', params: [getBase58Decoder().decode(wire)] });
    expect(body).toEqual({ jsonrpc: '2.0', result: signature, id: 7 });
    expect(await ledger.usdcBalance(payer.address)).toBe(0n);
  });

  it('answers a failing preflight as a real node: -32002 with err and logs; kit sees the instruction error', async () => {
    const payer = await consumer(ledger, 1n * USDC);
    const { transaction, wire, signature } = await signedPayment(ledger, payer, 9n * USDC, 'order-r3', ledger.latestBlockhash());
    const body = await call({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [Buffer.from(wire).toString('base64'), { encoding: 'base64' }] });
    expect(body.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
      data: { err: { InstructionError: [0, { Custom: 1 }] }, logs: expect.arrayContaining(['Program log: Error: insufficient funds']) },
    });

    const rpc = createSolanaRpc(url);
    const error = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' })
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    const cause = (error as { cause?: unknown }).cause;
    expect(isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM) && cause.context).toMatchObject({ code: 1, index: 0 });
    expect((await rpc.getSignatureStatuses([signature as never]).send()).value).toEqual([null]);
  });

  it('with skipPreflight a failing transaction lands and fails (fee charged), as on a cluster', async () => {
    const payer = await consumer(ledger, 1n * USDC);
    const { wire, signature } = await signedPayment(ledger, payer, 9n * USDC, 'order-r4', ledger.latestBlockhash());
    const body = await call({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [Buffer.from(wire).toString('base64'), { encoding: 'base64', skipPreflight: true }] });
    expect(body.result).toBe(signature);
    const statuses = await call({ jsonrpc: '2.0', id: 2, method: 'getSignatureStatuses', params: [[signature]] });
    expect(statuses.result.value[0]).toMatchObject({ err: { InstructionError: [0, { Custom: 1 }] }, status: { Err: { InstructionError: [0, { Custom: 1 }] } } });
    expect(await ledger.status(signature)).toBe('failed');
    expect(await rpcLedger.status(signature)).toBe('failed');
    // Submitting it again is answered with its fate.
    expect((await rejection(rpcLedger.submit(wire))).kind).toBe('insufficient-funds');
    expect((await rejection(ledger.submit(wire))).kind).toBe('insufficient-funds');
  });

  it('answers JSON-RPC errors and batches: unknown method, bad params, parse error', async () => {
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'getNothing', params: [] })).error).toEqual({ code: -32601, message: 'Method not found' });
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['not-an-address'] })).error.code).toBe(-32602);
    const missing = await call({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [(await generateKeyPairSigner()).address] });
    expect(missing.error).toEqual({ code: -32602, message: 'Invalid param: could not find account' });
    const parse = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(await parse.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    const batch = await call([
      { jsonrpc: '2.0', id: 1, method: 'getHealth' },
      { jsonrpc: '2.0', id: 2, method: 'getSlot' },
    ]);
    expect(batch).toEqual([
      { jsonrpc: '2.0', result: 'ok', id: 1 },
      { jsonrpc: '2.0', result: Number(ledger.slot()), id: 2 },
    ]);
    expect((await fetch(url)).status).toBe(405);
  });

  it('bounds what one request may ask: 100 calls a batch, 50 KiB a body; a full batch leaves the server answering others', async () => {
    const owner = (await generateKeyPairSigner()).address;
    const scan = (id: number) => ({ jsonrpc: '2.0', id, method: 'getTokenAccountsByOwner', params: [owner, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64' }] });
    const tooMany = await call(Array.from({ length: 101 }, (_, i) => scan(i)));
    expect(tooMany).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: a batch holds at most 100 calls, this one 101' }, id: null });
    const large = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify([scan(1), { pad: 'x'.repeat(51 * 1024) }]) });
    expect(large.status).toBe(413);

    // A stalled-loop probe: the event loop keeps turning while a full batch runs (other requests of the process
    // are read and answered on those turns). Without yielding, the whole batch ran in one turn: 0.
    let turns = 0;
    let probing = true;
    const probe = () => {
      turns++;
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    const answers = (await answerSolanaRpc(ledger, Array.from({ length: 100 }, (_, i) => scan(i)))) as unknown[];
    probing = false;
    expect(answers).toHaveLength(100);
    expect(turns).toBeGreaterThanOrEqual(99);
  });

  it('RpcLedger works against the node: balance, submit, duplicate submit, status, canReceiveUsdc, signPayout', async () => {
    expect(rpcLedger.marketplaceWallet).toBe(ledger.marketplaceWallet);
    expect(rpcLedger.marketplaceTokenAccount).toBe(ledger.marketplaceTokenAccount);
    expect(rpcLedger.rpcUrl).toBe(url);
    const payer = await consumer(ledger, 6n * USDC);
    expect(await rpcLedger.usdcBalance(payer.address)).toBe(6n * USDC);
    expect(await rpcLedger.usdcBalance((await generateKeyPairSigner()).address)).toBe(0n);

    const { wire, signature } = await signedPayment(rpcLedger, payer, 4n * USDC, 'order-k1', ledger.latestBlockhash());
    expect(await rpcLedger.status(signature)).toBe('unknown');
    await rpcLedger.submit(wire);
    await rpcLedger.submit(wire); // already processed: success, nothing moves twice
    expect(await rpcLedger.usdcBalance(payer.address)).toBe(2n * USDC);
    expect(await rpcLedger.status(signature)).toBe('succeeded');

    const short = await signedPayment(rpcLedger, payer, 3n * USDC, 'order-k2', ledger.latestBlockhash());
    expect((await rejection(rpcLedger.submit(short.wire))).kind).toBe('insufficient-funds');
    expect((await rejection(rpcLedger.submit(new Uint8Array([9, 9, 9])))).kind).toBe('rejected');

    const agent = await generateKeyPairSigner();
    expect(await rpcLedger.canReceiveUsdc(agent.address)).toBe(false);
    await openTokenAccount(ledger, agent);
    expect(await rpcLedger.canReceiveUsdc(agent.address)).toBe(true);
    const payout = await rpcLedger.signPayout(agent.address, 1_500_000n, 'order-k1 split');
    expect(await rpcLedger.status(payout.signature)).toBe('unknown');
    await rpcLedger.submit(payout.transaction);
    expect(await rpcLedger.usdcBalance(agent.address)).toBe(1_500_000n);
    expect(await ledger.usdcBalance(agent.address)).toBe(1_500_000n);
  });

  it('RpcLedger.isBlockhashValid follows the node; a transaction on an expired blockhash is rejected', async () => {
    const payer = await consumer(ledger, 1n * USDC);
    const lifetime = ledger.latestBlockhash();
    const { wire } = await signedPayment(rpcLedger, payer, 1n * USDC, 'order-k3', lifetime);
    expect(await rpcLedger.isBlockhashValid(lifetime.blockhash)).toBe(true);
    ledger.expireBlockhash();
    expect(await rpcLedger.isBlockhashValid(lifetime.blockhash)).toBe(false);
    const error = await rejection(rpcLedger.submit(wire));
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/blockhash/i);
  });

  it('RpcLedger.ensureMarketplaceTokenAccount creates the marketplace token account when it is missing', async () => {
    const keypair = await generateKeypairBytes();
    const other = await RpcLedger.open({ url, cluster: 'localnet', mint: ledger.mint, marketplaceKeypair: keypair, pollIntervalMs: 10 });
    try {
      await ledger.airdrop(other.marketplaceWallet, SOL);
      expect(ledger.account(other.marketplaceTokenAccount as Address).exists).toBe(false);
      await other.ensureMarketplaceTokenAccount();
      expect(ledger.account(other.marketplaceTokenAccount as Address).exists).toBe(true);
      await other.ensureMarketplaceTokenAccount(); // already there: nothing to do
      expect(await other.usdcBalance(other.marketplaceWallet)).toBe(0n);
    } finally {
      await other.close();
    }
  });

  it('RpcLedger is unavailable when the RPC server is down', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise((resolve) => down.close(resolve));
    const offline = await RpcLedger.open({
      url: `http://127.0.0.1:${port}`,
      cluster: 'localnet',
      mint: ledger.mint,
      marketplaceKeypair,
      requestTimeoutMs: 1_000,
      confirmTimeoutMs: 300,
      pollIntervalMs: 20,
    });
    try {
      const payer = await consumer(ledger, 1n * USDC);
      const { wire, signature } = await signedPayment(offline, payer, 1n * USDC, 'order-d1', ledger.latestBlockhash());
      expect((await rejection(offline.submit(wire))).kind).toBe('unavailable');
      expect((await rejection(offline.status(signature))).kind).toBe('unavailable');
      expect((await rejection(offline.usdcBalance(payer.address))).kind).toBe('unavailable');
      expect((await rejection(offline.canReceiveUsdc(payer.address))).kind).toBe('unavailable');
      expect((await rejection(offline.isBlockhashValid(ledger.latestBlockhash().blockhash))).kind).toBe('unavailable');
      expect((await rejection(offline.signPayout(payer.address, 1n, 'x'))).kind).toBe('unavailable');
    } finally {
      await offline.close();
    }
  });

  it('RpcLedger is unavailable when the node answers HTTP errors', async () => {
    const failing = createServer((_req, res) => void res.writeHead(503).end('overloaded'));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const offline = await RpcLedger.open({
      url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}`,
      cluster: 'localnet',
      mint: ledger.mint,
      marketplaceKeypair,
    });
    try {
      expect((await rejection(offline.usdcBalance(ledger.marketplaceWallet))).kind).toBe('unavailable');
    } finally {
      await offline.close();
      failing.closeAllConnections();
      await new Promise((resolve) => failing.close(resolve));
    }
  });
});

describe('createLedger', () => {
  it('builds the embedded ledger (in memory without a data dir) and the cluster ledger from a keypair file', async () => {
    const log = createLogger('silent');
    const embedded = await createLedger({ kind: 'embedded' }, log);
    const dir = mkdtempSync(join(tmpdir(), 'tp-keys-'));
    try {
      expect(embedded).toBeInstanceOf(LiteSvmLedger);
      expect(embedded.cluster).toBe('localnet');
      const keyFile = join(dir, 'marketplace.json');
      writeKeypairFile(keyFile, await generateKeypairBytes());
      const cluster = await createLedger(
        { kind: 'rpc', url: 'http://127.0.0.1:9', publicRpcUrl: 'https://rpc.example', cluster: 'devnet', mint: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', marketplaceKeypair: keyFile },
        log,
      );
      expect(cluster).toBeInstanceOf(RpcLedger);
      expect(cluster).toMatchObject({ cluster: 'devnet', rpcUrl: 'https://rpc.example', mint: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' });
      await cluster.close();
      // The same keypair file drives the embedded ledger's marketplace wallet.
      const same = await createLedger({ kind: 'embedded', marketplaceKeypair: keyFile }, log);
      expect(same.marketplaceWallet).toBe(cluster.marketplaceWallet);
      await same.close();
    } finally {
      await embedded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
