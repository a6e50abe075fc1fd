/**
 * The embedded ledger: LiteSVM, an in-process Solana VM running the real SPL Token, Associated Token
 * and Memo programs, with a USDC-like mint (6 decimals) whose mint authority is the marketplace, so the
 * faucet (`mintTo`) can hand out test USDC. Persisted under `DATA_DIR/ledger/` (see litesvm-store.ts), or
 * in memory only.
 *
 * LiteSVM facts this relies on: its blockhash never advances by itself (only `expireBlockhash()`), so a
 * signed transaction stays landable; it executes synchronously, so transactions never interleave; its
 * own transaction history keeps only the latest few dozen transactions, so this class keeps the fate of
 * every landed transaction itself (`status` and duplicate detection); its error enums are `const enum`s
 * without runtime values, so errors are matched by number (tables below).
 */
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import {
  AccountRole,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  isSolanaError,
  isSome,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__TRANSACTION__SIGNATURES_MISSING,
  type Address,
  type Blockhash,
  type EncodedAccount,
  type Instruction,
  type KeyPairSigner,
  type MaybeEncodedAccount,
  type Transaction,
} from '@solana/kit';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getMintDecoder,
  getMintEncoder,
  getMintSize,
  getMintToCheckedInstruction,
  getTokenDecoder,
} from '@solana-program/token';
import type { Logger } from '../../platform/logger.ts';
import { LedgerError, type Ledger } from './ledger.ts';
import { LedgerStore, type JournalEntry } from './litesvm-store.ts';
import {
  associatedTokenAccount,
  buildPayout,
  canReceive,
  decodeTransaction,
  generateKeypairBytes,
  ledgerErrorFor,
  signerFromKeypair,
  SYSTEM_PROGRAM_ADDRESS,
  toAddress,
  TOKEN_PROGRAM_ADDRESS,
  uniqueMemo,
  wireBytes,
  type TransactionErrorJson,
} from './solana.ts';
import { USDC_DECIMALS } from '../money.ts';

export interface LiteSvmLedgerOptions {
  /** Directory the ledger persists in (`DATA_DIR/ledger`); omitted: in memory only, gone at close. */
  dir?: string;
  /** Address of the USDC mint to create (e.g. mainnet's EPjF...Dt1v); default: a generated address, kept in `dir`. */
  mint?: string;
  /** The marketplace wallet (Solana CLI keypair bytes); default: generated, kept in `dir`. */
  marketplaceKeypair?: Uint8Array;
  /** The JSON-RPC URL advertised to clients (default '/dev/solana-rpc', served by solana-rpc.ts). */
  rpcUrl?: string;
  /** Journal entries between two full snapshots (default 1000). */
  snapshotEvery?: number;
  /** fdatasync every journal entry, surviving power loss and not only a crash (default true; ~0.2 ms each). */
  durable?: boolean;
  log?: Logger;
}

/** What the VM did with a transaction. */
export interface ExecutionOutcome {
  signature: string;
  /** Recorded on the chain (succeeded, or failed and charged its fee); false: refused before it ran. */
  landed: boolean;
  /** Null when it succeeded; else the error in Solana JSON-RPC's shape. */
  err: TransactionErrorJson | null;
  /** Already landed before this call (nothing ran again). */
  duplicate: boolean;
  logs: string[];
  unitsConsumed: bigint;
  /** Program address of each instruction. */
  programs: (string | undefined)[];
}

export interface SimulationOutcome {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  /** The blockhash used instead of the transaction's own (replaceRecentBlockhash). */
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: bigint };
}

const SOL = 1_000_000_000n;
/** LiteSVM has no blocks; a blockhash is advertised as valid for the usual 150 blocks past the current slot. */
const BLOCKHASH_VALIDITY = 150n;
/** Names of litesvm's TransactionErrorFieldless values, in declaration order (const enum: no runtime values). */
const TRANSACTION_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks', 'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit', 'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];
/** Names of litesvm's InstructionErrorFieldless values, in declaration order. */
const INSTRUCTION_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall', 'InsufficientFunds',
  'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized', 'UninitializedAccount', 'UnbalancedInstruction',
  'ModifiedProgramId', 'ExternalAccountLamportSpend', 'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified',
  'DuplicateAccountIndex', 'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged',
  'AccountNotExecutable', 'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError',
  'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId', 'CallDepth',
  'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded',
  'PrivilegeEscalation', 'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable',
  'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar', 'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
];

type LiteSvmError = ReturnType<FailedTransactionMetadata['err']>;

/** A litesvm transaction error in the shape Solana JSON-RPC reports (`{ InstructionError: [0, { Custom: 1 }] }`). */
function errorJson(err: LiteSvmError): TransactionErrorJson {
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? `TransactionError(${err as number})`;
  if ('err' in err) {
    const inner = err.err();
    const detail =
      typeof inner === 'number'
        ? (INSTRUCTION_ERRORS[inner] ?? `InstructionError(${inner as number})`)
        : 'code' in inner
          ? { Custom: inner.code }
          : { BorshIoError: inner.msg };
    return { InstructionError: [err.index, detail] };
  }
  if ('index' in err) return { DuplicateInstruction: err.index };
  const variant = err.constructor.name.replace(/^TransactionError/, '');
  return { [variant]: { account_index: err.accountIndex } };
}

/** A System Program transfer (instruction 2: u32 tag, u64 lamports, little-endian). */
function transferSol(from: KeyPairSigner, to: Address, amount: bigint): Instruction {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true);
  view.setBigUint64(4, amount, true);
  return {
    programAddress: SYSTEM_PROGRAM_ADDRESS,
    accounts: [
      { address: from.address, role: AccountRole.WRITABLE_SIGNER, signer: from } as never,
      { address: to, role: AccountRole.WRITABLE },
    ],
    data,
  };
}

function loadSnapshot(bytes: Uint8Array, dir: string): LiteSVM {
  try {
    return LiteSVM.fromBytes(bytes);
  } catch (error) {
    throw new Error(
      `Cannot load the embedded ledger's snapshot in ${dir} (written by another litesvm version?): ${(error as Error).message}. ` +
        'Move that directory away to start a new ledger.',
      { cause: error },
    );
  }
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export class LiteSvmLedger implements Ledger {
  readonly cluster = 'localnet';
  readonly mint: string;
  readonly marketplaceWallet: string;
  readonly marketplaceTokenAccount: string;
  readonly rpcUrl: string;

  private svm: LiteSVM;
  private readonly marketplace: KeyPairSigner;
  private readonly faucet: KeyPairSigner;
  private readonly store: LedgerStore | undefined;
  private readonly snapshotEvery: number;
  private readonly log: Logger | undefined;
  /** Every landed transaction's fate: null = succeeded, else its error. */
  private readonly landed = new Map<string, TransactionErrorJson | null>();
  private closed = false;
  /** Set when a change could not be recorded: memory and disk may differ, so nothing more is accepted. */
  private broken: Error | undefined;

  private constructor(init: {
    svm: LiteSVM;
    marketplace: KeyPairSigner;
    faucet: KeyPairSigner;
    mint: Address;
    marketplaceTokenAccount: Address;
    store: LedgerStore | undefined;
    options: LiteSvmLedgerOptions;
  }) {
    this.svm = init.svm;
    this.marketplace = init.marketplace;
    this.faucet = init.faucet;
    this.mint = init.mint;
    this.marketplaceWallet = init.marketplace.address;
    this.marketplaceTokenAccount = init.marketplaceTokenAccount;
    this.store = init.store;
    this.rpcUrl = init.options.rpcUrl ?? '/dev/solana-rpc';
    this.snapshotEvery = init.options.snapshotEvery ?? 1000;
    this.log = init.options.log;
  }

  /**
   * Creates the ledger, or loads it from `options.dir`: the VM, the mint (marketplace = mint authority),
   * the marketplace wallet with SOL for fees and rent, and its token account.
   */
  static async open(options: LiteSvmLedgerOptions = {}): Promise<LiteSvmLedger> {
    const store = options.dir ? await LedgerStore.open(options.dir, { durable: options.durable ?? true }) : undefined;
    try {
      const marketplace = await signerFromKeypair(options.marketplaceKeypair ?? (store ? await store.keypair('marketplace-keypair.json') : await generateKeypairBytes()));
      const faucet = await signerFromKeypair(store ? await store.keypair('faucet-keypair.json') : await generateKeypairBytes());
      const meta = store?.readMeta() ?? {};
      const mint = toAddress(options.mint ?? meta.mint ?? (await signerFromKeypair(await generateKeypairBytes())).address, 'The USDC mint');
      if (store && meta.mint !== mint) {
        if (meta.mint) options.log?.warn({ previous: meta.mint, mint }, 'embedded ledger: USDC mint changed; balances of the previous mint stay on it');
        store.writeMeta({ mint });
      }
      const stored = store?.load();
      const svm = stored ? loadSnapshot(stored.snapshot, options.dir!) : new LiteSVM();
      svm.withSigverify(true).withBlockhashCheck(true);
      if (store && !stored) store.initialize(svm.toBytes());
      const ledger = new LiteSvmLedger({
        svm,
        marketplace,
        faucet,
        mint,
        marketplaceTokenAccount: associatedTokenAccount(marketplace.address, mint),
        store,
        options,
      });
      if (stored) {
        for (const record of stored.signatures) ledger.landed.set(record.signature, record.err);
        ledger.replay(stored.journal);
      }
      await ledger.setUp();
      await ledger.persisted(); // the accounts set up above
      options.log?.info(
        { mint, marketplaceWallet: ledger.marketplaceWallet, dir: options.dir ?? 'memory', transactions: ledger.landed.size },
        'embedded Solana ledger ready',
      );
      return ledger;
    } catch (error) {
      await store?.close(undefined);
      throw error;
    }
  }

  // ---- Ledger ----

  async usdcBalance(wallet: string): Promise<bigint> {
    this.assertOpen();
    return this.tokenBalance(associatedTokenAccount(toAddress(wallet, 'The wallet'), this.mint as Address));
  }

  async canReceiveUsdc(wallet: string): Promise<boolean> {
    this.assertOpen();
    const account = this.svm.getAccount(associatedTokenAccount(toAddress(wallet, 'The wallet'), this.mint as Address));
    return canReceive(account.exists ? account : null);
  }

  async submit(transaction: Uint8Array): Promise<void> {
    const outcome = this.execute(transaction, { preflight: true });
    await this.persisted();
    if (outcome.err === null) return;
    if (outcome.err === 'AlreadyProcessed' && this.svm.getTransaction(outcome.signature as never) instanceof TransactionMetadata) return;
    throw ledgerErrorFor(outcome.err, outcome.programs);
  }

  async status(signature: string): Promise<'succeeded' | 'failed' | 'unknown'> {
    this.assertOpen();
    const err = this.landed.get(signature);
    if (err === undefined) return 'unknown';
    return err === null ? 'succeeded' : 'failed';
  }

  async isBlockhashValid(blockhash: string): Promise<boolean> {
    this.assertOpen();
    return blockhash === this.svm.latestBlockhash();
  }

  /** fdatasyncs of the journal so far (0 in memory). */
  get journalSyncs(): number {
    return this.store?.syncs ?? 0;
  }

  async signPayout(wallet: string, amountMicro: bigint, memo: string): Promise<{ signature: string; transaction: Uint8Array }> {
    this.assertOpen();
    return buildPayout({
      marketplace: this.marketplace,
      mint: this.mint as Address,
      wallet: toAddress(wallet, 'The payout wallet'),
      amountMicro,
      memo,
      ...this.latestBlockhash(),
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.store?.close(this.broken ? undefined : this.svm.toBytes());
  }

  // ---- Development helpers ----

  /**
   * Faucet: mints test USDC to the wallet's token account (created if missing, its rent paid by the faucet wallet:
   * the marketplace wallet pays no one's rent). Returns the signature.
   */
  async mintTo(wallet: string, amountMicro: bigint): Promise<string> {
    this.assertOpen();
    if (amountMicro <= 0n) throw new LedgerError('rejected', `The faucet needs a positive amount, got ${amountMicro}`);
    const owner = toAddress(wallet, 'The wallet');
    const mint = this.mint as Address;
    const token = associatedTokenAccount(owner, mint);
    return this.run(this.faucet, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: this.faucet, ata: token, owner, mint }),
      getMintToCheckedInstruction({ mint, token, mintAuthority: this.marketplace, amount: amountMicro, decimals: USDC_DECIMALS }),
      uniqueMemo('faucet'),
    ]);
  }

  /** Faucet: sends SOL (lamports) for fees and rent, as a real transfer. Returns the signature. */
  async airdrop(wallet: string, amountLamports: bigint): Promise<string> {
    this.assertOpen();
    if (amountLamports <= 0n) throw new LedgerError('rejected', `An airdrop needs a positive amount, got ${amountLamports}`);
    return this.run(this.faucet, [
      transferSol(this.faucet, toAddress(wallet, 'The wallet'), amountLamports),
      uniqueMemo('airdrop'),
    ]);
  }

  /** Moves to a new blockhash: transactions signed with the old one can no longer land (tests of expiry). */
  expireBlockhash(): void {
    this.assertOpen();
    this.svm.expireBlockhash();
    this.record({ op: 'expire-blockhash' });
  }

  // ---- Chain access for the development JSON-RPC endpoint (solana-rpc.ts) ----

  /** Executes wire bytes. `preflight`: simulate first and refuse (without landing) what would fail, as RPC nodes do. */
  execute(wire: Uint8Array, options: { preflight: boolean }): ExecutionOutcome {
    this.assertOpen();
    const decoded = decodeTransaction(wire);
    const { signature, programs } = decoded;
    const known = this.landed.get(signature);
    if (known !== undefined) return { signature, programs, landed: true, duplicate: true, err: known, logs: [], unitsConsumed: 0n };
    const refused = (err: TransactionErrorJson, meta?: TransactionMetadata): ExecutionOutcome => ({
      signature,
      programs,
      landed: false,
      duplicate: false,
      err,
      logs: meta?.logs() ?? [],
      unitsConsumed: meta?.computeUnitsConsumed() ?? 0n,
    });
    try {
      if (options.preflight) {
        const simulated = this.svm.simulateTransaction(decoded.transaction);
        if (simulated instanceof FailedTransactionMetadata) return refused(errorJson(simulated.err()), simulated.meta());
      }
      const result = this.svm.sendTransaction(decoded.transaction);
      const meta = result instanceof FailedTransactionMetadata ? result.meta() : result;
      const err = result instanceof FailedTransactionMetadata ? errorJson(result.err()) : null;
      // A failure that ran (instruction error) is in the history and charged its fee; one refused at load time is not.
      if (err !== null && this.svm.getTransaction(signature as never) === null) return refused(err, meta);
      this.landed.set(signature, err);
      this.record({ op: 'tx', wire: base64(wire), signature, err });
      return { signature, programs, landed: true, duplicate: false, err, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed() };
    } catch (error) {
      if (error instanceof LedgerError) throw error;
      // kit's checks inside litesvm (a signature missing, an unsupported version) throw instead of returning.
      return refused(isSolanaError(error, SOLANA_ERROR__TRANSACTION__SIGNATURES_MISSING) ? 'SignatureFailure' : 'SanitizeFailure');
    }
  }

  /** Simulates wire bytes without landing them (simulateTransaction). */
  simulate(wire: Uint8Array, options: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {}): SimulationOutcome {
    this.assertOpen();
    let transaction: Transaction;
    try {
      transaction = getTransactionDecoder().decode(wire);
    } catch (error) {
      throw new LedgerError('rejected', `Not a Solana transaction: ${(error as Error).message}`);
    }
    let replacementBlockhash: SimulationOutcome['replacementBlockhash'];
    if (options.replaceRecentBlockhash) {
      const latest = this.latestBlockhash();
      const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
      const messageBytes = getCompiledTransactionMessageEncoder().encode({ ...message, lifetimeToken: latest.blockhash });
      transaction = { ...transaction, messageBytes: messageBytes as Transaction['messageBytes'] };
      replacementBlockhash = latest;
    }
    const verify = options.sigVerify ?? false;
    this.svm.withSigverify(verify);
    try {
      const result = this.svm.simulateTransaction(transaction);
      const meta = result instanceof FailedTransactionMetadata ? result.meta() : result.meta();
      return {
        err: result instanceof FailedTransactionMetadata ? errorJson(result.err()) : null,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        ...(replacementBlockhash ? { replacementBlockhash } : {}),
      };
    } catch (error) {
      return { err: isSolanaError(error, SOLANA_ERROR__TRANSACTION__SIGNATURES_MISSING) ? 'SignatureFailure' : 'SanitizeFailure', logs: [], unitsConsumed: 0n };
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /** A landed transaction's fate (null: unknown). */
  signatureStatus(signature: string): { err: TransactionErrorJson | null } | null {
    this.assertOpen();
    const err = this.landed.get(signature);
    return err === undefined ? null : { err };
  }

  account(address: Address): MaybeEncodedAccount {
    this.assertOpen();
    return this.svm.getAccount(address);
  }

  /** Accounts owned by a program (token accounts of the SPL Token program, for getTokenAccountsByOwner). */
  programAccounts(program: Address): EncodedAccount[] {
    this.assertOpen();
    return this.svm.getProgramAccounts(program);
  }

  latestBlockhash(): { blockhash: Blockhash; lastValidBlockHeight: bigint } {
    this.assertOpen();
    return { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: this.slot() + BLOCKHASH_VALIDITY };
  }

  /** LiteSVM's clock slot (it has no blocks: block height = slot). */
  slot(): bigint {
    return this.svm.getClock().slot;
  }

  rentExemptMinimum(size: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(size);
  }

  // ---- Internals ----

  private assertOpen(): void {
    if (this.closed) throw new LedgerError('unavailable', 'The embedded ledger is closed');
    if (this.broken) throw new LedgerError('unavailable', `The embedded ledger stopped after a storage failure: ${this.broken.message}`);
  }

  private tokenBalance(tokenAccount: Address): bigint {
    const account = this.svm.getAccount(tokenAccount);
    if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS) return 0n;
    return getTokenDecoder().decode(account.data).amount;
  }

  /** Journals a state change; snapshots every `snapshotEvery` entries. */
  private record(entry: JournalEntry): void {
    if (!this.store) return;
    try {
      this.store.append(entry);
      if (this.store.pending >= this.snapshotEvery) this.store.snapshot(this.svm.toBytes());
    } catch (error) {
      this.broken = error as Error;
      this.log?.error({ err: error }, 'embedded ledger: could not record a change; refusing further changes');
      throw new LedgerError('unavailable', `The embedded ledger could not record a change: ${(error as Error).message}`);
    }
  }

  private writeAccount(account: { address: Address; lamports: bigint; owner: Address; data: Uint8Array }): void {
    this.svm.setAccount({
      address: account.address,
      lamports: lamports(account.lamports),
      programAddress: account.owner,
      data: account.data,
      executable: false,
      space: BigInt(account.data.length),
    });
    this.record({ op: 'account', address: account.address, lamports: String(account.lamports), owner: account.owner, executable: false, data: base64(account.data) });
  }

  /** Signs with `payer` (the fee payer) and the signers the instructions name, executes with preflight, returns the signature. */
  private async run(payer: KeyPairSigner, instructions: Instruction[]): Promise<string> {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(this.latestBlockhash(), m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const outcome = this.execute(wireBytes(await signTransactionMessageWithSigners(message)), { preflight: true });
    await this.persisted();
    if (outcome.err !== null) throw ledgerErrorFor(outcome.err, outcome.programs);
    return outcome.signature;
  }

  /**
   * Resolves once every change so far is on disk: a transaction is reported landed only then. (Other calls may read
   * its effects a moment earlier; a crash in that moment forgets it, and nobody was told it landed.)
   */
  async persisted(): Promise<void> {
    try {
      await this.store?.flush();
    } catch (error) {
      this.broken ??= error as Error;
      this.log?.error({ err: error }, 'embedded ledger: could not make changes durable; refusing further changes');
      throw new LedgerError('unavailable', `The embedded ledger could not record a change: ${(error as Error).message}`);
    }
  }

  /** Re-applies the journal written after the snapshot (deterministic: same order, same blockhash). */
  private replay(journal: JournalEntry[]): void {
    const decoder = getTransactionDecoder();
    let mismatches = 0;
    for (const entry of journal) {
      if (entry.op === 'expire-blockhash') this.svm.expireBlockhash();
      else if (entry.op === 'account') {
        const data = Buffer.from(entry.data, 'base64');
        this.svm.setAccount({
          address: entry.address as Address,
          lamports: lamports(BigInt(entry.lamports)),
          programAddress: entry.owner as Address,
          data: new Uint8Array(data),
          executable: entry.executable,
          space: BigInt(data.length),
        });
      } else {
        const result = this.svm.sendTransaction(decoder.decode(Buffer.from(entry.wire, 'base64')));
        const err = result instanceof FailedTransactionMetadata ? errorJson(result.err()) : null;
        if (JSON.stringify(err) !== JSON.stringify(entry.err)) mismatches += 1;
        this.landed.set(entry.signature, entry.err);
      }
    }
    if (mismatches > 0) this.log?.warn({ mismatches }, 'embedded ledger: some journal entries replayed with a different outcome');
  }

  /** Genesis, and repairs after a configuration change: faucet SOL, the mint, the marketplace's SOL and token account. */
  private async setUp(): Promise<void> {
    if ((this.svm.getBalance(this.faucet.address) ?? 0n) < 1_000_000n * SOL) {
      this.writeAccount({ address: this.faucet.address, lamports: 1_000_000_000n * SOL, owner: SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array(0) });
    }
    const mint = this.mint as Address;
    const existing = this.svm.getAccount(mint);
    const mintData = (supply: bigint) =>
      new Uint8Array(getMintEncoder().encode({ mintAuthority: this.marketplace.address, supply, decimals: USDC_DECIMALS, isInitialized: true, freezeAuthority: null }));
    const rent = this.svm.minimumBalanceForRentExemption(BigInt(getMintSize()));
    if (!existing.exists) {
      this.writeAccount({ address: mint, lamports: rent, owner: TOKEN_PROGRAM_ADDRESS, data: mintData(0n) });
    } else {
      const decoded = existing.programAddress === TOKEN_PROGRAM_ADDRESS && existing.data.length === getMintSize() ? getMintDecoder().decode(existing.data) : undefined;
      if (!decoded || decoded.decimals !== USDC_DECIMALS) throw new Error(`The account ${mint} exists in the embedded ledger and is not a 6-decimal SPL Token mint`);
      if (!isSome(decoded.mintAuthority) || decoded.mintAuthority.value !== this.marketplace.address) {
        this.log?.warn({ mint }, 'embedded ledger: marketplace wallet changed; it becomes the mint authority');
        this.writeAccount({ address: mint, lamports: existing.lamports, owner: TOKEN_PROGRAM_ADDRESS, data: mintData(decoded.supply) });
      }
    }
    if ((this.svm.getBalance(this.marketplace.address) ?? 0n) < 10n * SOL) await this.airdrop(this.marketplace.address, 100n * SOL);
    if (!this.svm.getAccount(this.marketplaceTokenAccount as Address).exists) {
      await this.run(this.marketplace, [
        getCreateAssociatedTokenIdempotentInstruction({ payer: this.marketplace, ata: this.marketplaceTokenAccount as Address, owner: this.marketplace.address, mint }),
        uniqueMemo('marketplace token account'),
      ]);
    }
  }
}
