import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
  type CompiledTransactionMessage,
} from '@solana/kit';
import bs58 from 'bs58';
import { z } from 'zod';
import { verifyAddressSignature } from './wallet-signature.ts';
import { associatedTokenAccount } from './ledgers/solana.ts';
import { AppError, fieldProblems, type AppErrorCode } from '../platform/errors.ts';
import { microToUsdc, USDC_DECIMALS, usdcToMicro } from './money.ts';

/**
 * Payment header checks (docs/orders-and-payments.md "Checks"): everything about
 * `POST /api/orders/:id/accept`'s payment that can be decided locally, without the chain. The header
 * is a claim, the order is the truth. Balance, replay (a signature pays one order ever) and
 * submission belong to the order service.
 *
 * Every refusal is an AppError whose `details` carry `reason` (machine-readable, listed in
 * PAYMENT_CHECK_REASONS) and `field` (`paymentMethod` or a path inside `paymentHeader`).
 */

export interface PaymentCheckInput {
  /** The `paymentHeader` body field: base64 of the JSON header. */
  header: string;
  /** The `paymentMethod` body field. */
  paymentMethod: string;
  order: { id: string; priceMicro: bigint };
  /** The authenticated consumer's wallet (base58). */
  payer: string;
  ledger: { mint: string; marketplaceWallet: string; marketplaceTokenAccount: string };
}

export interface CheckedPayment {
  /** Base58 of the first signature (the fee payer's): the transaction id. */
  signature: string;
  /** The signed transaction's wire bytes, as received. */
  transaction: Uint8Array;
  /** The transaction's recent blockhash (base58). */
  blockhash: string;
}

/** `details.reason` values, by error code. */
export const PAYMENT_CHECK_REASONS = {
  INVALID_PAYMENT_HEADER: [
    'too_large', // header longer than MAX_PAYMENT_HEADER_CHARS
    'not_base64', // header or signedTransaction is not canonical base64
    'not_json', // header does not decode to UTF-8 JSON
    'shape', // JSON is not { version, payload: { signedTransaction, amount, currency, destination } } (details.problems)
    'unsupported_version', // version other than '1'
    'unsupported_currency', // currency other than 'USDC'
    'unsupported_payment_method', // paymentMethod other than 'usdc'
    'destination', // payload.destination is not the marketplace wallet
    'transaction_too_large', // more than 1232 bytes (a Solana packet)
    'malformed_transaction', // not a well-formed, canonically encoded transaction
    'unsupported_transaction_version', // not legacy or v0
    'address_lookup_table', // v0 with address table lookups
    'durable_nonce', // an AdvanceNonceAccount instruction
    'instruction_not_allowed', // a program or instruction outside the allow-list (details.index, details.program)
    'token_program', // a Token-2022 instruction (only the classic SPL Token program is accepted)
    'duplicate_instruction', // a compute budget instruction or the memo twice
    'transfer_count', // not exactly one TransferChecked
    'mint', // transfer of another mint
    'decimals', // TransferChecked decimals other than 6
    'transfer_destination', // transfer to another token account than the marketplace's
    'memo', // memo text other than the order id
  ],
  AMOUNT_MISMATCH: [
    'header_amount', // payload.amount differs from the order price
    'transfer_amount', // the transferred amount differs from the order price
  ],
  UNAUTHORIZED_ACCESS: [
    'authority', // the transfer is authorised by another wallet than the authenticated consumer
    'source', // the transfer's source is not the consumer's associated USDC token account
  ],
  INVALID_SIGNATURE: [
    'missing', // a required signature is absent (all zeros), or the payer is not a signer
    'wrong', // a signature does not verify
  ],
} as const satisfies Partial<Record<AppErrorCode, readonly string[]>>;

type Reasons = typeof PAYMENT_CHECK_REASONS;
type Reason<C extends keyof Reasons> = Reasons[C][number];

/** 1232-byte transactions are ~2.4 KB of header; anything beyond 4 KB is not a payment. */
export const MAX_PAYMENT_HEADER_CHARS = 4096;
/** Solana's packet size: the largest transaction a validator accepts. */
const MAX_TRANSACTION_BYTES = 1232;

const HEADER = 'paymentHeader';
const TX_FIELD = `${HEADER}.payload.signedTransaction`;

const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const TOKEN_PROGRAM: string = TOKEN_PROGRAM_ADDRESS;
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
/** SPL Memo v2, as deployed (not @solana-program/memo 0.15's default address). */
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

const SET_COMPUTE_UNIT_LIMIT = 2; // u8 discriminator + u32 units
const SET_COMPUTE_UNIT_PRICE = 3; // u8 discriminator + u64 micro-lamports
const TRANSFER_CHECKED = 12; // u8 discriminator + u64 amount + u8 decimals
const ADVANCE_NONCE_ACCOUNT = 4; // System instruction index (u32 LE)

const PaymentHeader = z.strictObject({
  version: z.string(),
  payload: z.strictObject({
    signedTransaction: z.string(),
    amount: z.number(),
    currency: z.string(),
    destination: z.string(),
  }),
});

function fail<C extends keyof Reasons>(
  code: C,
  reason: Reason<C>,
  field: string,
  message: string,
  extra: Record<string, unknown> = {},
): never {
  throw new AppError(code, message, { reason, field, ...extra });
}

function invalid(reason: Reason<'INVALID_PAYMENT_HEADER'>, field: string, message: string, extra?: Record<string, unknown>): never {
  return fail('INVALID_PAYMENT_HEADER', reason, field, message, extra);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Canonical base64 only (Node's decoder skips junk and ignores non-zero padding bits). */
function decodeBase64(text: string, field: string): Buffer {
  if (!BASE64.test(text)) invalid('not_base64', field, `${field} is not base64`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) invalid('not_base64', field, `${field} is not canonical base64`);
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseHeader(header: string) {
  if (header.length > MAX_PAYMENT_HEADER_CHARS) {
    invalid('too_large', HEADER, `${HEADER} is longer than ${MAX_PAYMENT_HEADER_CHARS} characters`);
  }
  const bytes = decodeBase64(header, HEADER);
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(bytes));
  } catch {
    invalid('not_json', HEADER, `${HEADER} is not base64 of UTF-8 JSON`);
  }
  const parsed = PaymentHeader.safeParse(json);
  if (!parsed.success) {
    const problems = Object.fromEntries(
      Object.entries(fieldProblems(parsed.error.issues)).map(([path, problem]) => [`${HEADER}.${path}`, problem]),
    );
    const [field = HEADER] = Object.keys(problems);
    invalid('shape', field, `${HEADER} must be { version, payload: { signedTransaction, amount, currency, destination } }`, {
      problems,
    });
  }
  return parsed.data;
}

const transactionDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();

type LegacyOrV0Message = Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }>;

/** Bytes of a compact-u16 ("short vec") length prefix in its canonical (shortest) form. */
const shortVecLength = (value: number) => (value < 0x80 ? 1 : value < 0x4000 ? 2 : 3);

/**
 * The size of the canonical encoding of a decoded message. A length prefix written in a longer form
 * than needed (which validators refuse, and which could make two parsers disagree) makes the bytes
 * longer than this; so "decoded everything, and exactly this long" means canonical, without the cost
 * of re-encoding (kit's encoder re-parses every base58 address: ~130 us).
 */
function encodedLength(message: LegacyOrV0Message): number {
  let length = (message.version === 0 ? 1 : 0) + 3; // version prefix, header
  length += shortVecLength(message.staticAccounts.length) + 32 * message.staticAccounts.length + 32; // accounts, blockhash
  length += shortVecLength(message.instructions.length);
  for (const { accountIndices = [], data } of message.instructions) {
    const dataLength = data?.length ?? 0;
    length += 1 + shortVecLength(accountIndices.length) + accountIndices.length + shortVecLength(dataLength) + dataLength;
  }
  if (message.version === 0) length += 1; // no lookup tables (checked before)
  return length;
}

function malformed(message: string): never {
  return invalid('malformed_transaction', TX_FIELD, message);
}

/**
 * Wire bytes -> signatures + compiled message, refusing anything a validator would parse differently
 * from kit: the bytes must be exactly the canonical encoding of what was decoded (no trailing bytes,
 * no alternative length encodings), and the message must pass the validator's sanitize checks.
 */
function decodeTransaction(wire: Buffer) {
  if (wire.length > MAX_TRANSACTION_BYTES) {
    invalid('transaction_too_large', TX_FIELD, `The transaction is larger than ${MAX_TRANSACTION_BYTES} bytes`);
  }
  // Versioned envelopes with the message first (v1 and later) start with a byte >= 0x80.
  if (wire.length > 0 && wire[0]! >= 0x80) {
    invalid('unsupported_transaction_version', TX_FIELD, 'Only legacy and v0 transactions are accepted');
  }
  let transaction: ReturnType<typeof transactionDecoder.decode>;
  let message: ReturnType<typeof messageDecoder.decode>;
  try {
    transaction = transactionDecoder.decode(wire);
    const [decoded, end] = messageDecoder.read(transaction.messageBytes, 0);
    if (end !== transaction.messageBytes.length) return malformed('The transaction has bytes after its message');
    message = decoded;
  } catch {
    return malformed('The signed transaction cannot be decoded');
  }
  if (message.version !== 'legacy' && message.version !== 0) {
    return invalid('unsupported_transaction_version', TX_FIELD, 'Only legacy and v0 transactions are accepted');
  }
  if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) {
    invalid('address_lookup_table', TX_FIELD, 'Address lookup tables are not accepted: list every account in the transaction');
  }
  const signatureCount = message.header.numSignerAccounts; // kit checked: as many signatures as signers
  if (wire.length !== shortVecLength(signatureCount) + 64 * signatureCount + encodedLength(message)) {
    malformed('The transaction is not canonically encoded');
  }
  sanitize(message);
  return { transaction, message };
}

/** The validator's structural checks (account indexes in range, no duplicate accounts, sane header). */
function sanitize(message: LegacyOrV0Message) {
  const { header, staticAccounts, instructions } = message;
  const accounts = staticAccounts.length;
  if (
    header.numSignerAccounts < 1 ||
    header.numReadonlySignerAccounts >= header.numSignerAccounts ||
    header.numSignerAccounts + header.numReadonlyNonSignerAccounts > accounts
  ) {
    malformed('The transaction header does not match its accounts');
  }
  if (new Set(staticAccounts).size !== accounts) malformed('The transaction lists an account twice');
  for (const instruction of instructions) {
    // Index 0 is the fee payer, which cannot be a program.
    if (instruction.programAddressIndex === 0 || instruction.programAddressIndex >= accounts) {
      malformed('An instruction names a program outside the transaction');
    }
    for (const index of instruction.accountIndices ?? []) {
      if (index >= accounts) malformed('An instruction names an account outside the transaction');
    }
  }
}

interface Transfer {
  index: number;
  source: string;
  mint: string;
  destination: string;
  authority: string;
  authorityIndex: number;
  amount: bigint;
  decimals: number;
}

/** Walks the allow-list: compute budget (<= 1 each), exactly one TransferChecked, at most one Memo. */
function allowListed(message: LegacyOrV0Message, orderId: string): Transfer {
  const { staticAccounts } = message;
  const seen = new Set<string>();
  const once = (kind: string, index: number, program: string) => {
    if (seen.has(kind)) invalid('duplicate_instruction', TX_FIELD, `${kind} may appear once`, { index, program });
    seen.add(kind);
  };
  const transfers: Transfer[] = [];

  message.instructions.forEach((instruction, index) => {
    const program = staticAccounts[instruction.programAddressIndex]!;
    const data = (instruction.data ?? new Uint8Array()) as Uint8Array;
    const accounts = (instruction.accountIndices ?? []).map((i) => staticAccounts[i]!);
    const notAllowed = (what: string): never =>
      invalid('instruction_not_allowed', TX_FIELD, `Instruction ${index} (${what}) is not allowed in a payment`, { index, program });

    switch (program) {
      case COMPUTE_BUDGET_PROGRAM: {
        if (accounts.length !== 0) return notAllowed('compute budget with accounts');
        if (data[0] === SET_COMPUTE_UNIT_LIMIT && data.length === 5) return once('SetComputeUnitLimit', index, program);
        if (data[0] === SET_COMPUTE_UNIT_PRICE && data.length === 9) return once('SetComputeUnitPrice', index, program);
        return notAllowed('a compute budget instruction other than SetComputeUnitLimit / SetComputeUnitPrice');
      }
      case TOKEN_PROGRAM: {
        if (data[0] !== TRANSFER_CHECKED) return notAllowed('an SPL Token instruction other than TransferChecked');
        // Exactly source, mint, destination, authority: no multisig signers, no trailing data.
        if (data.length !== 10 || accounts.length !== 4) return notAllowed('a TransferChecked with multisig signers or extra data');
        const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
        transfers.push({
          index,
          source: accounts[0]!,
          mint: accounts[1]!,
          destination: accounts[2]!,
          authority: accounts[3]!,
          authorityIndex: instruction.accountIndices![3]!,
          amount: view.getBigUint64(1, true),
          decimals: data[9]!,
        });
        return;
      }
      case TOKEN_2022_PROGRAM:
        return invalid('token_program', TX_FIELD, 'USDC moves through the SPL Token program, not Token-2022', { index, program });
      case MEMO_PROGRAM: {
        once('Memo', index, program);
        let text: string | undefined;
        try {
          text = utf8.decode(data);
        } catch {
          text = undefined;
        }
        if (text !== orderId) invalid('memo', TX_FIELD, 'The memo must be the order id', { index, expected: orderId });
        return;
      }
      case SYSTEM_PROGRAM:
        if (data.length >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === ADVANCE_NONCE_ACCOUNT) {
          return invalid('durable_nonce', TX_FIELD, 'Durable nonce transactions are not accepted: use a recent blockhash', {
            index,
            program,
          });
        }
        return notAllowed('a System program instruction');
      default:
        return notAllowed('an unknown program');
    }
  });

  if (transfers.length !== 1) {
    invalid('transfer_count', TX_FIELD, `A payment holds exactly one TransferChecked, this one holds ${transfers.length}`, {
      count: transfers.length,
    });
  }
  return transfers[0]!;
}


/**
 * Checks `paymentHeader` against the order and the ledger; returns the transaction to submit or throws
 * AppError (INVALID_PAYMENT_HEADER, AMOUNT_MISMATCH, UNAUTHORIZED_ACCESS or INVALID_SIGNATURE).
 * Cheap checks first; signatures (the expensive part) last.
 */
export function checkPayment(input: PaymentCheckInput): CheckedPayment {
  const { order, ledger, payer } = input;
  const expected = { expected: microToUsdc(order.priceMicro) };

  if (input.paymentMethod !== 'usdc') {
    invalid('unsupported_payment_method', 'paymentMethod', "paymentMethod must be 'usdc'");
  }
  const { version, payload } = parseHeader(input.header);
  if (version !== '1') invalid('unsupported_version', `${HEADER}.version`, "Payment header version must be '1'");
  if (payload.currency !== 'USDC') invalid('unsupported_currency', `${HEADER}.payload.currency`, "currency must be 'USDC'");
  if (usdcToMicro(payload.amount) !== order.priceMicro) {
    fail('AMOUNT_MISMATCH', 'header_amount', `${HEADER}.payload.amount`, 'Payment amount does not match the order price', {
      ...expected,
      actual: payload.amount,
    });
  }
  if (payload.destination !== ledger.marketplaceWallet) {
    invalid('destination', `${HEADER}.payload.destination`, 'destination must be the marketplace wallet', {
      expected: ledger.marketplaceWallet,
    });
  }

  const wire = decodeBase64(payload.signedTransaction, TX_FIELD);
  const { transaction, message } = decodeTransaction(wire);
  const transfer = allowListed(message, order.id);

  if (transfer.mint !== ledger.mint) invalid('mint', TX_FIELD, 'The transfer must move USDC', { expected: ledger.mint });
  if (transfer.decimals !== USDC_DECIMALS) {
    invalid('decimals', TX_FIELD, `TransferChecked decimals must be ${USDC_DECIMALS}`, { expected: USDC_DECIMALS });
  }
  if (transfer.destination !== ledger.marketplaceTokenAccount) {
    invalid('transfer_destination', TX_FIELD, "The transfer must go to the marketplace's token account", {
      expected: ledger.marketplaceTokenAccount,
    });
  }
  if (transfer.authority !== payer) {
    fail('UNAUTHORIZED_ACCESS', 'authority', TX_FIELD, 'The transfer must be authorised by the authenticated wallet');
  }
  if (transfer.source !== associatedTokenAccount(payer as Address, ledger.mint as Address)) {
    fail('UNAUTHORIZED_ACCESS', 'source', TX_FIELD, "The transfer must come from the authenticated wallet's USDC token account");
  }
  if (transfer.amount !== order.priceMicro) {
    fail('AMOUNT_MISMATCH', 'transfer_amount', TX_FIELD, 'The transferred amount does not match the order price', {
      ...expected,
      actual: microToUsdc(transfer.amount),
    });
  }

  // Every required signature, verified here: the chain would too, but only after we took the order.
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts);
  if (transfer.authorityIndex >= signers.length) {
    fail('INVALID_SIGNATURE', 'missing', TX_FIELD, 'The payer does not sign the transaction', { signer: payer });
  }
  const messageBytes = transaction.messageBytes as unknown as Uint8Array;
  for (const signer of signers) {
    const signature = transaction.signatures[signer];
    if (!signature) fail('INVALID_SIGNATURE', 'missing', TX_FIELD, `The transaction lacks ${signer}'s signature`, { signer });
    if (!verifyAddressSignature(signer, messageBytes, signature as Uint8Array)) {
      fail('INVALID_SIGNATURE', 'wrong', TX_FIELD, `${signer}'s signature does not verify`, { signer });
    }
  }

  return {
    signature: bs58.encode(transaction.signatures[signers[0]!] as Uint8Array),
    transaction: Uint8Array.from(wire),
    blockhash: message.lifetimeToken,
  };
}
