/**
 * checkPayment (server/marketplace/payment-check.ts), the pure check of an X-PAYMENT header before anything
 * reaches the ledger: a valid SDK-built payment passes; a malformed header, a transaction that is not exactly
 * the expected USDC transfer (amount, mint, accounts, extra instructions, memo) or a bad signature is refused
 * with its documented error code.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction } from '@solana-program/memo';
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  type Address,
  type Blockhash,
  type Instruction,
  type Nonce,
  type TransactionSigner,
} from '@solana/kit';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { LiteSVM, TransactionMetadata } from 'litesvm';
import { describe, expect, it } from 'vitest';
import {
  buildPaymentHeader,
  buildPaymentTransaction,
  encodePaymentHeader,
  SPL_MEMO_PROGRAM_ADDRESS,
  toTransactionSigner,
  type PaymentConfig,
} from '../../client-sdk/payment.ts';
import { generateKeypair, keypairSigner } from '../../client-sdk/wallet.ts';
import { AppError } from '../../server/platform/errors.ts';
import { checkPayment, MAX_PAYMENT_HEADER_CHARS, type PaymentCheckInput } from '../../server/marketplace/payment-check.ts';

const TOKEN_2022 = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
const SYSTEM = address('11111111111111111111111111111111');
const TX_FIELD = 'paymentHeader.payload.signedTransaction';

const mint = address('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'); // devnet USDC
const otherMint = address(generateKeypair().address);
const marketplace = generateKeypair();
const ata = async (owner: string, forMint: Address = mint) =>
  (await findAssociatedTokenPda({ owner: address(owner), mint: forMint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
const marketplaceTokenAccount = await ata(marketplace.address);
const ledger = { mint, marketplaceWallet: marketplace.address, marketplaceTokenAccount };
const config: PaymentConfig = {
  currency: 'USDC',
  mint,
  decimals: 6,
  destination: marketplace.address,
  destinationTokenAccount: marketplaceTokenAccount,
  cluster: 'localnet',
  commissionBps: 1000,
  rpcUrl: '/api/solana',
};

const consumerKey = generateKeypair();
const consumer = keypairSigner(consumerKey.secretKey);
const consumerAta = await ata(consumer.address);
const malloryKey = generateKeypair();
const mallory = keypairSigner(malloryKey.secretKey);
const order = { id: randomUUID(), price: 12.5 };
const PRICE_MICRO = 12_500_000n;
const blockhash = { blockhash: bs58.encode(randomBytes(32)), lastValidBlockHeight: 1_000n };

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const rawHeader = (value: unknown) => base64(JSON.stringify(value));
const headerFor = (transaction: Uint8Array, amount = order.price, destination = marketplace.address) =>
  encodePaymentHeader({ transaction, amount, destination });

const input = (header: string, overrides: Partial<PaymentCheckInput> = {}): PaymentCheckInput => ({
  header,
  paymentMethod: 'usdc',
  order: { id: order.id, priceMicro: PRICE_MICRO },
  payer: consumer.address,
  ledger,
  ...overrides,
});

/** The AppError checkPayment throws; fails the test when it does not throw one. */
function refusal(header: string, overrides: Partial<PaymentCheckInput> = {}): AppError {
  try {
    checkPayment(input(header, overrides));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('checkPayment accepted the payment');
}

/** What the caller reads for each refusal reason (tests of one message pin it exactly). */
const MESSAGES: Record<string, RegExp> = {
  too_large: /^paymentHeader is longer than 4096 characters$/,
  not_base64: /^paymentHeader(\.payload\.signedTransaction)? is not (canonical )?base64$/,
  not_json: /^paymentHeader is not base64 of UTF-8 JSON$/,
  shape: /^paymentHeader must be \{ version, payload: \{ signedTransaction, amount, currency, destination \} \}$/,
  unsupported_version: /^Payment header version must be '1'$/,
  unsupported_currency: /^currency must be 'USDC'$/,
  unsupported_payment_method: /^paymentMethod must be 'usdc'$/,
  destination: /^destination must be the marketplace wallet$/,
  transaction_too_large: /^The transaction is larger than 1232 bytes$/,
  malformed_transaction:
    /^(The signed transaction cannot be decoded|The transaction (has bytes after its message|is not canonically encoded|header does not match its accounts|lists an account twice)|An instruction names (a program|an account) outside the transaction)$/,
  unsupported_transaction_version: /^Only legacy and v0 transactions are accepted$/,
  address_lookup_table: /^Address lookup tables are not accepted: list every account in the transaction$/,
  durable_nonce: /^Durable nonce transactions are not accepted: use a recent blockhash$/,
  instruction_not_allowed: /^Instruction \d+ \(.+\) is not allowed in a payment$/,
  token_program: /^USDC moves through the SPL Token program, not Token-2022$/,
  duplicate_instruction: /^(SetComputeUnitLimit|SetComputeUnitPrice|Memo) may appear once$/,
  transfer_count: /^A payment holds exactly one TransferChecked, this one holds \d+$/,
  mint: /^The transfer must move USDC$/,
  decimals: /^TransferChecked decimals must be 6$/,
  transfer_destination: /^The transfer must go to the marketplace's token account$/,
  memo: /^The memo must be the order id$/,
  header_amount: /^Payment amount does not match the order price$/,
  transfer_amount: /^The transferred amount does not match the order price$/,
  authority: /^The transfer must be authorised by the authenticated wallet$/,
  source: /^The transfer must come from the authenticated wallet's USDC token account$/,
  missing: /^(The payer does not sign the transaction|The transaction lacks \w+'s signature)$/,
  wrong: /^\w+'s signature does not verify$/,
};

function expectRefused(header: string, code: string, reason: string, overrides: Partial<PaymentCheckInput> = {}) {
  const error = refusal(header, overrides);
  expect({ code: error.code, reason: error.details?.reason }).toEqual({ code, reason });
  expect(typeof error.details?.field).toBe('string');
  expect(error.message).toMatch(MESSAGES[reason]!);
  return error;
}

const validTransaction = await buildPaymentTransaction({ signer: consumer, order, config, blockhash });
const validHeader = headerFor(validTransaction);

// ---- hand-built transactions -------------------------------------------------------------------

interface TransferOptions {
  source?: Address;
  mint?: Address;
  destination?: Address;
  authority?: TransactionSigner | Address;
  amount?: bigint;
  decimals?: number;
  programAddress?: Address;
}

function transfer(options: TransferOptions = {}, payer: TransactionSigner = toTransactionSigner(consumer)): Instruction {
  return getTransferCheckedInstruction(
    {
      source: options.source ?? consumerAta,
      mint: options.mint ?? mint,
      destination: options.destination ?? marketplaceTokenAccount,
      authority: options.authority ?? payer,
      amount: options.amount ?? PRICE_MICRO,
      decimals: options.decimals ?? 6,
    },
    { programAddress: options.programAddress ?? TOKEN_PROGRAM_ADDRESS },
  );
}

const memo = (text: string = order.id) => getAddMemoInstruction({ memo: text }, { programAddress: SPL_MEMO_PROGRAM_ADDRESS });

function systemTransfer(from: Address, to: Address, amount: bigint): Instruction {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true);
  view.setBigUint64(4, amount, true);
  return {
    programAddress: SYSTEM,
    accounts: [
      { address: from, role: AccountRole.WRITABLE_SIGNER },
      { address: to, role: AccountRole.WRITABLE },
    ],
    data,
  };
}

type Message = Parameters<typeof partiallySignTransactionMessageWithSigners>[0];

interface BuildOptions {
  feePayer?: TransactionSigner;
  version?: 'legacy' | 0;
  /** Transforms the message before signing (lookup tables, durable nonce). */
  transform?: (message: any) => any;
}

/** Signs with every signer it holds; a noop signer leaves its signature empty (all zeros). */
async function build(instructions: Instruction[], options: BuildOptions = {}): Promise<Uint8Array> {
  const message = pipe(
    createTransactionMessage({ version: options.version ?? 0 }),
    (m) => setTransactionMessageFeePayerSigner(options.feePayer ?? toTransactionSigner(consumer), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash.blockhash as Blockhash, lastValidBlockHeight: blockhash.lastValidBlockHeight },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await partiallySignTransactionMessageWithSigners((options.transform ? options.transform(message) : message) as Message);
  return Uint8Array.from(getTransactionEncoder().encode(signed));
}

// ---- tests -------------------------------------------------------------------------------------

describe('checkPayment: a valid payment', () => {
  it("accepts the SDK's transaction and returns its id, wire bytes and blockhash", () => {
    const checked = checkPayment(input(validHeader));
    const decoded = getTransactionDecoder().decode(validTransaction);
    expect(checked.signature).toBe(bs58.encode(decoded.signatures[consumer.address as Address]!));
    expect(checked.transaction).toEqual(validTransaction);
    expect(checked.blockhash).toBe(blockhash.blockhash);
  });

  it('accepts legacy transactions, compute budget instructions (once each) and no memo', async () => {
    const withBudget = await build([
      getSetComputeUnitLimitInstruction({ units: 20_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1_000n }),
      transfer(),
      memo(),
    ]);
    expect(checkPayment(input(headerFor(withBudget))).blockhash).toBe(blockhash.blockhash);
    const legacy = await build([transfer(), memo()], { version: 'legacy' });
    expect(checkPayment(input(headerFor(legacy))).transaction).toEqual(legacy);
    const noMemo = await build([transfer()]);
    expect(checkPayment(input(headerFor(noMemo))).transaction).toEqual(noMemo);
  });

  it('SDK compute budget options produce an accepted transaction', async () => {
    const transaction = await buildPaymentTransaction({
      signer: consumer,
      order,
      config,
      blockhash,
      computeUnitLimit: 30_000,
      computeUnitPrice: 5n,
    });
    expect(checkPayment(input(headerFor(transaction))).transaction).toEqual(transaction);
  });

  it('converts prices through decimal strings (0.3 USDC is 300000 micro-USDC, not 299999)', async () => {
    const cheap = { id: randomUUID(), price: 0.3 };
    const transaction = await buildPaymentTransaction({ signer: consumer, order: cheap, config, blockhash });
    const checked = checkPayment(input(headerFor(transaction, 0.3), { order: { id: cheap.id, priceMicro: 300_000n } }));
    expect(checked.transaction).toEqual(transaction);
    // 0.1 + 0.2 is 0.30000000000000004, 0.3 but for rounding noise: the same payment. 0.3000001 is no amount.
    const float = { id: cheap.id, price: 0.1 + 0.2 };
    expect(await buildPaymentTransaction({ signer: consumer, order: float, config, blockhash })).toEqual(transaction);
    await expect(buildPaymentTransaction({ signer: consumer, order: { id: 'x', price: 0.3000001 }, config, blockhash })).rejects.toThrow(TypeError);
  });

  it('buildPaymentHeader fetches the blockhash from config.rpcUrl resolved against baseUrl', async () => {
    const rpcBlockhash = bs58.encode(randomBytes(32));
    const requests: { url: string | undefined; method: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const call = JSON.parse(body) as { id: number; method: string };
        requests.push({ url: req.url, method: call.method });
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: call.id,
            result: { context: { slot: 1 }, value: { blockhash: rpcBlockhash, lastValidBlockHeight: 150 } },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const header = await buildPaymentHeader({ signer: consumer, order, config, baseUrl: `http://127.0.0.1:${port}` });
      expect(requests).toEqual([{ url: '/api/solana', method: 'getLatestBlockhash' }]);
      expect(checkPayment(input(header)).blockhash).toBe(rpcBlockhash);
      const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
      expect(decoded).toEqual({
        version: '1',
        payload: { signedTransaction: expect.any(String), amount: 12.5, currency: 'USDC', destination: marketplace.address },
      });
    } finally {
      server.close();
    }
  });

  it("the SDK's transaction executes on the SPL Token program (LiteSVM)", async () => {
    const svm = new LiteSVM();
    const rent = svm.minimumBalanceForRentExemption(165n);
    svm.setAccount({
      address: mint,
      data: Uint8Array.from(
        getMintEncoder().encode({
          mintAuthority: null,
          supply: 1_000_000_000n,
          decimals: 6,
          isInitialized: true,
          freezeAuthority: null,
        }),
      ),
      executable: false,
      lamports: lamports(svm.minimumBalanceForRentExemption(82n)),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: 82n,
    });
    const tokenAccount = (at: Address, owner: string, amount: bigint) =>
      svm.setAccount({
        address: at,
        data: Uint8Array.from(
          getTokenEncoder().encode({
            mint,
            owner: address(owner),
            amount,
            delegate: null,
            state: AccountState.Initialized,
            isNative: null,
            delegatedAmount: 0n,
            closeAuthority: null,
          }),
        ),
        executable: false,
        lamports: lamports(rent),
        programAddress: TOKEN_PROGRAM_ADDRESS,
        space: 165n,
      });
    tokenAccount(consumerAta, consumer.address, 100_000_000n);
    tokenAccount(marketplaceTokenAccount, marketplace.address, 0n);
    svm.airdrop(address(consumer.address), lamports(1_000_000_000n));

    const latest = { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1_000n };
    const header = await buildPaymentHeader({ signer: consumer, order, config, blockhash: latest });
    const checked = checkPayment(input(header));
    const result = svm.sendTransaction(getTransactionDecoder().decode(checked.transaction));
    expect(result instanceof TransactionMetadata ? 'ok' : result.toString()).toBe('ok');
    const balance = (at: Address) => {
      const account = svm.getAccount(at);
      if (!account.exists) throw new Error(`no account ${at}`);
      return getTokenDecoder().decode(account.data).amount;
    };
    expect(balance(marketplaceTokenAccount)).toBe(PRICE_MICRO);
    expect(balance(consumerAta)).toBe(100_000_000n - PRICE_MICRO);
  });
});

describe('checkPayment: the header', () => {
  it(`refuses a header over ${MAX_PAYMENT_HEADER_CHARS} characters before decoding it`, () => {
    expectRefused('A'.repeat(MAX_PAYMENT_HEADER_CHARS + 4), 'INVALID_PAYMENT_HEADER', 'too_large');
    expectRefused('A'.repeat(MAX_PAYMENT_HEADER_CHARS), 'INVALID_PAYMENT_HEADER', 'not_json'); // at the limit: decoded
  });

  it('refuses anything but canonical base64', () => {
    expect(expectRefused('not base64!', 'INVALID_PAYMENT_HEADER', 'not_base64').message).toBe('paymentHeader is not base64');
    expect(expectRefused('QR==', 'INVALID_PAYMENT_HEADER', 'not_base64').message).toBe('paymentHeader is not canonical base64');
    expectRefused(validHeader.slice(0, -1), 'INVALID_PAYMENT_HEADER', 'not_base64');
    expectRefused('QR==', 'INVALID_PAYMENT_HEADER', 'not_base64'); // non-zero padding bits ("A" is QQ==)
    expectRefused(` ${validHeader}`, 'INVALID_PAYMENT_HEADER', 'not_base64');
  });

  it('refuses base64 that is not UTF-8 JSON', () => {
    expectRefused(base64('{"version":"1",'), 'INVALID_PAYMENT_HEADER', 'not_json');
    expectRefused(base64(Uint8Array.of(0xff, 0xfe, 0x7b, 0x7d)), 'INVALID_PAYMENT_HEADER', 'not_json');
  });

  it('refuses extra, missing or mistyped fields (strict shape)', () => {
    const good = JSON.parse(Buffer.from(validHeader, 'base64').toString()) as { version: string; payload: Record<string, unknown> };
    const extraTop = expectRefused(rawHeader({ ...good, extra: 1 }), 'INVALID_PAYMENT_HEADER', 'shape');
    expect(extraTop.details).toMatchObject({ field: 'paymentHeader.extra', problems: { 'paymentHeader.extra': 'Unknown field' } });
    const extraPayload = expectRefused(rawHeader({ ...good, payload: { ...good.payload, memo: 'x' } }), 'INVALID_PAYMENT_HEADER', 'shape');
    expect(extraPayload.details?.field).toBe('paymentHeader.payload.memo');
    const missing = expectRefused(rawHeader({ version: '1' }), 'INVALID_PAYMENT_HEADER', 'shape');
    expect(missing.details?.field).toBe('paymentHeader.payload');
    const stringAmount = expectRefused(rawHeader({ ...good, payload: { ...good.payload, amount: '12.5' } }), 'INVALID_PAYMENT_HEADER', 'shape');
    expect(stringAmount.details?.field).toBe('paymentHeader.payload.amount');
    expectRefused(rawHeader([good]), 'INVALID_PAYMENT_HEADER', 'shape');
  });

  it("refuses versions other than '1', currencies other than USDC and payment methods other than usdc", () => {
    const good = JSON.parse(Buffer.from(validHeader, 'base64').toString()) as { version: string; payload: Record<string, unknown> };
    const version = expectRefused(rawHeader({ ...good, version: '2' }), 'INVALID_PAYMENT_HEADER', 'unsupported_version');
    expect(version.details?.field).toBe('paymentHeader.version');
    const currency = expectRefused(rawHeader({ ...good, payload: { ...good.payload, currency: 'USDT' } }), 'INVALID_PAYMENT_HEADER', 'unsupported_currency');
    expect(currency.details?.field).toBe('paymentHeader.payload.currency');
    const method = expectRefused(validHeader, 'INVALID_PAYMENT_HEADER', 'unsupported_payment_method', { paymentMethod: 'sol' });
    expect(method.details?.field).toBe('paymentMethod');
  });

  it("refuses a header amount other than the order's price (exact, in micro-USDC)", () => {
    for (const amount of [12.49, 12.500001, 125, 0, -12.5]) {
      const error = expectRefused(headerFor(validTransaction, amount), 'AMOUNT_MISMATCH', 'header_amount');
      expect(error.details).toMatchObject({ field: 'paymentHeader.payload.amount', expected: 12.5, actual: amount });
    }
    expectRefused(headerFor(validTransaction, 12.5000001), 'AMOUNT_MISMATCH', 'header_amount');
  });

  it('refuses a header destination other than the marketplace wallet', () => {
    const error = expectRefused(headerFor(validTransaction, 12.5, mallory.address), 'INVALID_PAYMENT_HEADER', 'destination');
    expect(error.details).toMatchObject({ field: 'paymentHeader.payload.destination', expected: marketplace.address });
    // The marketplace's token account is not the wallet either.
    expectRefused(headerFor(validTransaction, 12.5, marketplaceTokenAccount), 'INVALID_PAYMENT_HEADER', 'destination');
  });
});

describe('checkPayment: the transaction', () => {
  it('refuses bytes that are not a transaction, trailing bytes and oversized transactions', () => {
    const check = (bytes: Uint8Array, reason: string) => {
      const error = expectRefused(headerFor(bytes), 'INVALID_PAYMENT_HEADER', reason);
      expect(error.details?.field).toBe(TX_FIELD);
    };
    check(new Uint8Array(), 'malformed_transaction');
    check(Uint8Array.from(randomBytes(200).map((b) => b & 0x7f)), 'malformed_transaction');
    check(Uint8Array.of(...validTransaction, 0), 'malformed_transaction');
    expect(refusal(headerFor(new Uint8Array())).message).toBe('The signed transaction cannot be decoded');
    check(validTransaction.slice(0, -1), 'malformed_transaction');
    check(new Uint8Array(1300), 'transaction_too_large');
    check(Uint8Array.of(0x81, ...validTransaction.slice(1)), 'unsupported_transaction_version');
    check(Uint8Array.of(0x80, ...validTransaction.slice(1)), 'unsupported_transaction_version');
    const badBase64 = JSON.parse(Buffer.from(validHeader, 'base64').toString()) as { payload: Record<string, unknown> };
    badBase64.payload.signedTransaction = `${String(badBase64.payload.signedTransaction)}!`;
    expect(refusal(rawHeader(badBase64)).details).toMatchObject({ reason: 'not_base64', field: TX_FIELD });
  });

  it('refuses length prefixes in a longer form than needed, even when signed', () => {
    // The signature count (1) as two bytes: a first byte >= 0x80 is a message-first (v1) envelope,
    // as 128 signatures cannot fit in a packet.
    const envelope = Uint8Array.of(0x81, 0x00, ...validTransaction.slice(1));
    expectRefused(headerFor(envelope), 'INVALID_PAYMENT_HEADER', 'unsupported_transaction_version');
    // The memo's data length (36) as two bytes, inside the message, signed again by the consumer.
    const message = validTransaction.slice(65);
    const lengthAt = message.length - 1 - 36 - 1; // ...memo length, memo, lookup table count
    expect(message[lengthAt]).toBe(36);
    const longer = Uint8Array.of(...message.slice(0, lengthAt), 0x80 | 36, 0x00, ...message.slice(lengthAt + 1));
    const signature = nacl.sign.detached(longer, consumerKey.secretKey);
    const refused = expectRefused(headerFor(Uint8Array.of(1, ...signature, ...longer)), 'INVALID_PAYMENT_HEADER', 'malformed_transaction');
    expect(refused.message).toBe('The transaction is not canonically encoded');
    // The same bytes with the canonical prefix, signed the same way: accepted.
    const resigned = Uint8Array.of(1, ...nacl.sign.detached(message, consumerKey.secretKey), ...message);
    expect(checkPayment(input(headerFor(resigned))).transaction).toEqual(resigned);
  });

  it('refuses a transfer amount other than the price (header amount right)', async () => {
    const error = expectRefused(headerFor(await build([transfer({ amount: 12_000_000n }), memo()])), 'AMOUNT_MISMATCH', 'transfer_amount');
    expect(error.details).toMatchObject({ field: TX_FIELD, expected: 12.5, actual: 12 });
    expectRefused(headerFor(await build([transfer({ amount: PRICE_MICRO + 1n }), memo()])), 'AMOUNT_MISMATCH', 'transfer_amount');
  });

  it("refuses a transfer to another token account than the marketplace's", async () => {
    const toMallory = await build([transfer({ destination: await ata(mallory.address) }), memo()]);
    const error = expectRefused(headerFor(toMallory), 'INVALID_PAYMENT_HEADER', 'transfer_destination');
    expect(error.details).toMatchObject({ expected: marketplaceTokenAccount });
    // The marketplace wallet itself is not its token account.
    const toWallet = await build([transfer({ destination: address(marketplace.address) }), memo()]);
    expectRefused(headerFor(toWallet), 'INVALID_PAYMENT_HEADER', 'transfer_destination');
  });

  it('refuses another mint, other decimals and the Token-2022 program', async () => {
    const wrongMint = await build([transfer({ mint: otherMint, source: await ata(consumer.address, otherMint) }), memo()]);
    expect(expectRefused(headerFor(wrongMint), 'INVALID_PAYMENT_HEADER', 'mint').details).toMatchObject({ expected: mint });
    expectRefused(headerFor(await build([transfer({ decimals: 9, amount: PRICE_MICRO * 1000n }), memo()])), 'INVALID_PAYMENT_HEADER', 'decimals');
    expect(expectRefused(headerFor(await build([transfer({ decimals: 9, amount: PRICE_MICRO * 1000n }), memo()])), 'INVALID_PAYMENT_HEADER', 'decimals').details).toMatchObject({ expected: 6 });
    const token2022 = expectRefused(headerFor(await build([transfer({ programAddress: TOKEN_2022 }), memo()])), 'INVALID_PAYMENT_HEADER', 'token_program');
    expect(token2022.details).toMatchObject({ index: 0, program: TOKEN_2022 });
  });

  it('refuses two transfers, and none', async () => {
    const half = PRICE_MICRO / 2n;
    const two = await build([transfer({ amount: half }), transfer({ amount: half }), memo()]);
    expect(expectRefused(headerFor(two), 'INVALID_PAYMENT_HEADER', 'transfer_count').details).toMatchObject({ count: 2 });
    const none = await build([memo()]);
    expect(expectRefused(headerFor(none), 'INVALID_PAYMENT_HEADER', 'transfer_count').details).toMatchObject({ count: 0 });
  });

  it('refuses any instruction outside the allow-list', async () => {
    const drain = systemTransfer(address(consumer.address), address(mallory.address), 1_000_000n);
    const error = expectRefused(headerFor(await build([transfer(), memo(), drain])), 'INVALID_PAYMENT_HEADER', 'instruction_not_allowed');
    expect(error.details).toMatchObject({ field: TX_FIELD, index: 2, program: SYSTEM });
    expect(error.message).toBe('Instruction 2 (a System program instruction) is not allowed in a payment');
    const notAllowed = async (instructions: Instruction[], what: string) => {
      const refused = expectRefused(headerFor(await build(instructions)), 'INVALID_PAYMENT_HEADER', 'instruction_not_allowed');
      expect(refused.message).toBe(`Instruction 0 (${what}) is not allowed in a payment`);
    };
    // Other SPL Token instructions (a plain Transfer, discriminator 3), or TransferChecked with multisig signers or extra data.
    await notAllowed([{ ...transfer(), data: Uint8Array.of(3, ...new Uint8Array(8)) }, transfer(), memo()], 'an SPL Token instruction other than TransferChecked');
    const multisig = { ...transfer(), accounts: [...transfer().accounts!, { address: address(mallory.address), role: AccountRole.READONLY }] };
    await notAllowed([multisig, memo()], 'a TransferChecked with multisig signers or extra data');
    await notAllowed([{ ...transfer(), data: Uint8Array.of(...transfer().data!, 0) }, memo()], 'a TransferChecked with multisig signers or extra data');
    // Compute budget: only SetComputeUnitLimit (5 bytes) and SetComputeUnitPrice (9 bytes), without accounts.
    const budget = (...data: number[]): Instruction => ({ programAddress: address('ComputeBudget111111111111111111111111111111'), data: Uint8Array.from(data) });
    const other = 'a compute budget instruction other than SetComputeUnitLimit / SetComputeUnitPrice';
    await notAllowed([budget(1, 0, 0, 1, 0), transfer(), memo()], other); // RequestHeapFrame
    await notAllowed([budget(1, 0, 0, 0, 0, 0, 0, 0, 0), transfer(), memo()], other); // 9 bytes, not a price
    await notAllowed([budget(2, 0, 0, 1, 0, 0), transfer(), memo()], other); // a limit one byte long
    await notAllowed([budget(3, 0, 0, 0, 0, 0, 0, 0), transfer(), memo()], other); // a price one byte short
    const withAccount = { ...getSetComputeUnitLimitInstruction({ units: 1 }), accounts: [{ address: address(mallory.address), role: AccountRole.READONLY }] };
    await notAllowed([withAccount, transfer(), memo()], 'compute budget with accounts');
    // The memo program of @solana-program/memo 0.15's default address is not the deployed SPL Memo.
    await notAllowed([getAddMemoInstruction({ memo: order.id }), transfer()], 'an unknown program');
    // A System instruction too short to be AdvanceNonceAccount is still a System instruction.
    await notAllowed([{ programAddress: SYSTEM, data: Uint8Array.of(4, 0) }, transfer(), memo()], 'a System program instruction');
  });

  it('refuses a compute budget instruction or a memo given twice', async () => {
    const twice = async (instructions: Instruction[], kind: string, index: number, program: string) => {
      const error = expectRefused(headerFor(await build(instructions)), 'INVALID_PAYMENT_HEADER', 'duplicate_instruction');
      expect([error.message, error.details]).toEqual([`${kind} may appear once`, expect.objectContaining({ index, program })]);
    };
    const limit = getSetComputeUnitLimitInstruction({ units: 20_000 });
    const price = getSetComputeUnitPriceInstruction({ microLamports: 1n });
    await twice([limit, price, limit, transfer(), memo()], 'SetComputeUnitLimit', 2, 'ComputeBudget111111111111111111111111111111');
    await twice([price, limit, price, transfer(), memo()], 'SetComputeUnitPrice', 2, 'ComputeBudget111111111111111111111111111111');
    await twice([transfer(), memo(), memo()], 'Memo', 2, SPL_MEMO_PROGRAM_ADDRESS);
  });

  it('refuses a memo other than the order id', async () => {
    const error = expectRefused(headerFor(await build([transfer(), memo(randomUUID())])), 'INVALID_PAYMENT_HEADER', 'memo');
    expect(error.details).toMatchObject({ index: 1, expected: order.id });
    // A memo of 128 bytes has a two-byte length prefix: still canonical, refused for its text.
    expectRefused(headerFor(await build([transfer(), memo('x'.repeat(128))])), 'INVALID_PAYMENT_HEADER', 'memo');
    // Bytes that are not UTF-8.
    const binary = { ...memo(), data: Uint8Array.of(0xff, 0xfe) };
    expectRefused(headerFor(await build([transfer(), binary])), 'INVALID_PAYMENT_HEADER', 'memo');
    const sdkForOtherOrder = await buildPaymentTransaction({ signer: consumer, order: { id: randomUUID(), price: 12.5 }, config, blockhash });
    expectRefused(headerFor(sdkForOtherOrder), 'INVALID_PAYMENT_HEADER', 'memo');
  });

  it('refuses address lookup tables', async () => {
    const lookupTable = address(generateKeypair().address);
    const compressed = await build([transfer(), memo()], {
      transform: (message) => compressTransactionMessageUsingAddressLookupTables(message, { [lookupTable]: [mint] }),
    });
    expectRefused(headerFor(compressed), 'INVALID_PAYMENT_HEADER', 'address_lookup_table');
  });

  it('refuses durable nonce transactions', async () => {
    const nonced = await build([transfer(), memo()], {
      transform: (message) =>
        setTransactionMessageLifetimeUsingDurableNonce(
          {
            nonce: bs58.encode(randomBytes(32)) as Nonce,
            nonceAccountAddress: address(generateKeypair().address),
            nonceAuthorityAddress: address(consumer.address),
          },
          message,
        ),
    });
    const error = expectRefused(headerFor(nonced), 'INVALID_PAYMENT_HEADER', 'durable_nonce');
    expect(error.details).toMatchObject({ index: 0, program: SYSTEM });
  });

  it('refuses a transfer authorised by another wallet, or from another token account', async () => {
    // Mallory pays from her own account, signs it all; the authenticated consumer submits it.
    const malloryTx = await build([transfer({ authority: toTransactionSigner(mallory), source: await ata(mallory.address) }), memo()], {
      feePayer: toTransactionSigner(mallory),
    });
    expectRefused(headerFor(malloryTx), 'UNAUTHORIZED_ACCESS', 'authority');
    // The consumer as authority (a delegate) of Mallory's token account.
    const delegated = await build([transfer({ source: await ata(mallory.address) }), memo()]);
    expectRefused(headerFor(delegated), 'UNAUTHORIZED_ACCESS', 'source');
  });
});

describe('checkPayment: signatures', () => {
  const signatureBytes = (wire: Uint8Array) => ({ start: 1, end: 65, wire: Uint8Array.from(wire) });

  it('refuses a missing signature (all zeros)', () => {
    const { start, end, wire } = signatureBytes(validTransaction);
    wire.fill(0, start, end);
    const error = expectRefused(headerFor(wire), 'INVALID_SIGNATURE', 'missing');
    expect(error.details).toMatchObject({ field: TX_FIELD, signer: consumer.address });
  });

  it("refuses a transaction whose fee payer did not sign (the payer's own signature valid)", async () => {
    const sponsor = createNoopSigner(address(mallory.address));
    const unsigned = await build([transfer(), memo()], { feePayer: sponsor });
    const error = expectRefused(headerFor(unsigned), 'INVALID_SIGNATURE', 'missing');
    expect(error.details).toMatchObject({ signer: mallory.address });
    // Signed by a fee payer other than the consumer: accepted (sponsored fees).
    const sponsored = await build([transfer(), memo()], { feePayer: toTransactionSigner(mallory) });
    expect(checkPayment(input(headerFor(sponsored))).transaction).toEqual(sponsored);
  });

  it('refuses a transfer whose authority (the payer) is not a signer of the transaction', async () => {
    const notSigning = await build([transfer({ authority: address(consumer.address) }), memo()], {
      feePayer: toTransactionSigner(mallory),
    });
    expect(expectRefused(headerFor(notSigning), 'INVALID_SIGNATURE', 'missing').details).toMatchObject({ signer: consumer.address });
  });

  it('refuses a corrupted signature and a message changed after signing', () => {
    const { start, wire } = signatureBytes(validTransaction);
    wire[start + 10]! ^= 0x01;
    expect(expectRefused(headerFor(wire), 'INVALID_SIGNATURE', 'wrong').details).toMatchObject({ signer: consumer.address });
    // A different recent blockhash after signing: everything else checks out, the signature does not.
    const tampered = Buffer.from(validTransaction);
    const at = tampered.indexOf(Buffer.from(bs58.decode(blockhash.blockhash)));
    expect(at).toBeGreaterThan(65);
    tampered[at]! ^= 0x01;
    const error = expectRefused(headerFor(tampered), 'INVALID_SIGNATURE', 'wrong');
    expect(error.details?.signer).toBe(consumer.address);
  });
});

// ---- transactions written byte by byte (kit would not build them) ------------------------------

const shortVec = (n: number) => (n < 0x80 ? [n] : [0x80 | (n & 0x7f), n >> 7]);

interface RawMessage {
  /** [signers, read-only signers, read-only non-signers] */
  header: [number, number, number];
  accounts: string[];
  instructions: { program: number; accounts?: number[]; data?: Uint8Array }[];
}

/** Legacy wire bytes; signature i is made with `signers[i]` (a secret key) or left all zeros. */
function rawTransaction(message: RawMessage, signers: Uint8Array[] = []): Uint8Array {
  const bytes = [
    ...message.header,
    ...shortVec(message.accounts.length),
    ...message.accounts.flatMap((account) => [...bs58.decode(account)]),
    ...bs58.decode(blockhash.blockhash),
    ...shortVec(message.instructions.length),
    ...message.instructions.flatMap(({ program, accounts = [], data = new Uint8Array() }) => [
      program,
      ...shortVec(accounts.length),
      ...accounts,
      ...shortVec(data.length),
      ...data,
    ]),
  ];
  const body = Uint8Array.from(bytes);
  const signatures = Array.from({ length: message.header[0] }, (_, i) => [...(signers[i] ? nacl.sign.detached(body, signers[i]!) : new Uint8Array(64))]);
  return Uint8Array.of(...shortVec(message.header[0]), ...signatures.flat(), ...body);
}

/** TransferChecked data: discriminator, amount (u64 LE), decimals. */
const transferData = (amount = PRICE_MICRO, decimals = 6) => {
  const data = new Uint8Array(10);
  data[0] = 12;
  new DataView(data.buffer).setBigUint64(1, amount, true);
  data[9] = decimals;
  return data;
};

describe('checkPayment: transactions a validator would not parse as we do', () => {
  // consumer (fee payer, signer), source, destination, mint, token program
  const accounts = [consumer.address, consumerAta, marketplaceTokenAccount, mint, TOKEN_PROGRAM_ADDRESS];
  const pay = { program: 4, accounts: [1, 3, 2, 0], data: transferData() };
  const malformed = (message: RawMessage, text: string) => {
    const error = expectRefused(headerFor(rawTransaction(message, [consumerKey.secretKey])), 'INVALID_PAYMENT_HEADER', 'malformed_transaction');
    expect(error.message).toBe(text);
  };

  it('the hand-written transfer itself is accepted', () => {
    const wire = rawTransaction({ header: [1, 0, 2], accounts, instructions: [pay] }, [consumerKey.secretKey]);
    expect(checkPayment(input(headerFor(wire))).transaction).toEqual(wire);
  });

  it('refuses a header that does not match the accounts', () => {
    const text = 'The transaction header does not match its accounts';
    malformed({ header: [2, 2, 2], accounts, instructions: [pay] }, text); // every signer read-only
    malformed({ header: [1, 1, 2], accounts, instructions: [pay] }, text); // the fee payer read-only
    malformed({ header: [1, 0, 5], accounts, instructions: [pay] }, text); // more accounts than listed
    const error = expectRefused(headerFor(rawTransaction({ header: [0, 0, 0], accounts, instructions: [pay] })), 'INVALID_PAYMENT_HEADER', 'malformed_transaction');
    expect(error.message).toBe(text); // no signer at all
  });

  it('refuses an account listed twice', () => {
    malformed({ header: [1, 0, 2], accounts: [...accounts.slice(0, 4), consumerAta, TOKEN_PROGRAM_ADDRESS], instructions: [{ ...pay, program: 5 }] }, 'The transaction lists an account twice');
  });

  it('refuses instructions naming a program or an account outside the transaction, or the fee payer as program', () => {
    const program = 'An instruction names a program outside the transaction';
    malformed({ header: [1, 0, 2], accounts, instructions: [{ ...pay, program: 5 }] }, program);
    malformed({ header: [1, 0, 2], accounts, instructions: [{ ...pay, program: 0 }] }, program);
    malformed({ header: [1, 0, 2], accounts, instructions: [{ ...pay, accounts: [1, 3, 5, 0] }] }, 'An instruction names an account outside the transaction');
  });

  it('an instruction without data is judged like any other', () => {
    const error = expectRefused(
      headerFor(rawTransaction({ header: [1, 0, 3], accounts: [...accounts, SYSTEM], instructions: [pay, { program: 5 }] }, [consumerKey.secretKey])),
      'INVALID_PAYMENT_HEADER',
      'instruction_not_allowed',
    );
    expect(error.message).toBe('Instruction 1 (a System program instruction) is not allowed in a payment');
  });

  it('refuses a transfer whose authority is listed right after the signers but does not sign', () => {
    // Mallory pays the fee and signs; the consumer is the transfer's authority without signing.
    const wire = rawTransaction(
      {
        header: [1, 0, 2],
        accounts: [mallory.address, consumer.address, consumerAta, marketplaceTokenAccount, mint, TOKEN_PROGRAM_ADDRESS],
        instructions: [{ program: 5, accounts: [2, 4, 3, 1], data: transferData() }],
      },
      [Uint8Array.from(malloryKey.secretKey)],
    );
    const error = expectRefused(headerFor(wire), 'INVALID_SIGNATURE', 'missing');
    expect([error.message, error.details?.signer]).toEqual(['The payer does not sign the transaction', consumer.address]);
  });

  it('takes a transaction of exactly 1232 bytes to the next check, and refuses one byte more', () => {
    const sized = (bytes: number) => {
      const base = rawTransaction({ header: [1, 0, 3], accounts: [...accounts, SYSTEM], instructions: [pay, { program: 5, data: new Uint8Array(200) }] }).length;
      const data = new Uint8Array(200 + bytes - base);
      return rawTransaction({ header: [1, 0, 3], accounts: [...accounts, SYSTEM], instructions: [pay, { program: 5, data }] }, [consumerKey.secretKey]);
    };
    expect(sized(1232)).toHaveLength(1232);
    expectRefused(headerFor(sized(1232)), 'INVALID_PAYMENT_HEADER', 'instruction_not_allowed');
    expectRefused(headerFor(sized(1233)), 'INVALID_PAYMENT_HEADER', 'transaction_too_large');
  });
});
