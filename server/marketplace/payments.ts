import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { Agent, LIVE_PAYMENT_STATES, Order, Payment } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import { recordEvent } from './events/outbox.ts';
import { commissionMicro, microToUsdc, usdcToMicro } from './money.ts';
import { failpoint } from './failpoints.ts';
import { LedgerError, type Ledger } from './ledgers/ledger.ts';
import { checkPayment } from './payment-check.ts';
import type { OrderAccept, PaymentConfig, PaymentReceipt } from './schemas.ts';
import { agentNotFound } from './agents.ts';
import { orderNotFound, requireStartState, TRANSITIONS } from './orders.ts';

const paymentInProgress = () =>
  new AppError('INVALID_STATUS_TRANSITION', 'A payment for this order is already in progress', { status: TRANSITIONS.accept.from, operation: 'accept', reason: 'payment-in-progress' });
const transactionUsed = (signature: string) =>
  new AppError('INVALID_PAYMENT_HEADER', 'This transaction has already been submitted as a payment', { reason: 'replayed', txSignature: signature });

/** The chain's answer as the API reports it: a refusal is the client's problem (422), an outage is not (503). */
function ledgerFailure(error: unknown): AppError {
  if (!(error instanceof LedgerError)) return error instanceof AppError ? error : new AppError('INTERNAL_ERROR', 'Payment failed');
  if (error.kind === 'insufficient-funds') return new AppError('INSUFFICIENT_FUNDS', 'The wallet has insufficient USDC balance', { reason: error.message });
  if (error.kind === 'rejected') return new AppError('TRANSACTION_FAILED', 'The blockchain rejected the transaction', { reason: error.message });
  return new AppError('TRANSACTION_FAILED', 'The blockchain cannot be reached right now; the payment will be settled when it can', { reason: 'unavailable' }, 503);
}

/** What the embedded ledger adds for development: minting test USDC and fee SOL. */
interface Faucet {
  mintTo(wallet: string, amountMicro: bigint): Promise<string>;
  airdrop(wallet: string, lamports: bigint): Promise<unknown>;
}
const hasFaucet = (ledger: Ledger): ledger is Ledger & Faucet => typeof (ledger as Partial<Faucet>).mintTo === 'function';
/** Enough SOL for thousands of transaction fees. */
const FEE_LAMPORTS = 1_000_000_000n;

export interface PaymentServiceOptions {
  /** Called after a commit that recorded provider events (wakes the event bus). */
  onEvents?: () => void;
  log?: (error: unknown, message: string) => void;
}

/**
 * Accepting an order is paying for it: check the payment header against the order, record the
 * payment, submit the consumer's transaction, forward the agent's share (the split), mark the order
 * PAID and emit `order:paid`. Each step is recorded before the next starts, so `reconcile()` (run at
 * start-up and periodically) finishes what a dead process left, and a retry never pays twice.
 */
export class PaymentService {
  readonly #db: Database;
  readonly #ledger: Ledger;
  readonly #commissionBps: number;
  readonly #options: PaymentServiceOptions;

  constructor(db: Database, ledger: Ledger, options: PaymentServiceOptions & { commissionBps: number }) {
    this.#db = db;
    this.#ledger = ledger;
    this.#commissionBps = options.commissionBps;
    this.#options = options;
  }

  get ledger(): Ledger {
    return this.#ledger;
  }

  config(): PaymentConfig {
    const l = this.#ledger;
    return {
      currency: 'USDC',
      mint: l.mint,
      decimals: 6,
      destination: l.marketplaceWallet,
      destinationTokenAccount: l.marketplaceTokenAccount,
      cluster: l.cluster,
      commissionBps: this.#commissionBps,
      rpcUrl: l.rpcUrl,
    };
  }

  /** Development faucet (embedded ledger only): test USDC, plus SOL so the wallet can pay transaction fees. */
  async faucet(wallet: string, amount: number) {
    const ledger = this.#ledger;
    if (!hasFaucet(ledger)) throw new AppError('NOT_FOUND', 'The faucet exists only with the embedded ledger');
    try {
      const signature = await ledger.mintTo(wallet, usdcToMicro(amount)!);
      await ledger.airdrop(wallet, FEE_LAMPORTS);
      return { wallet, amount, balance: microToUsdc(await ledger.usdcBalance(wallet)), signature };
    } catch (error) {
      throw ledgerFailure(error);
    }
  }

  async accept(wallet: string, id: string, input: OrderAccept): Promise<PaymentReceipt> {
    if (input.clientWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet');
    const em = this.#db.em();
    const order = await em.findOne(Order, { id });
    if (!order) throw orderNotFound(id);
    if (order.clientWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'Only the consumer of this order can accept it');
    requireStartState('accept', order.status);

    const checked = await checkPayment({
      header: input.paymentHeader,
      paymentMethod: input.paymentMethod,
      order: { id, priceMicro: order.priceMicro },
      payer: wallet,
      ledger: this.#ledger,
    });
    // A transaction the chain refused for this very order (no fee SOL yet, say) may be sent again: it never
    // moved money, and on a ledger whose blockhash stands still the client cannot build a different one.
    // The same transaction while its payment of this order is in flight (a retry after a 503) is that payment.
    // One statement: any earlier payment with this transaction, whether an order was paid with it, the agent's wallet.
    const [seen] = await em.execute<{ earlier_state: string | null; earlier_order: string | null; used: boolean; agent_wallet: string | null }[]>(
      `select p.state as earlier_state, p.order_id as earlier_order,
              exists(select 1 from orders where tx_signature = ?) as used,
              (select wallet_address from agent where id = ? and deleted_at is null) as agent_wallet
       from (select 1) one left join payment p on p.tx_signature = ?`,
      [checked.signature, order.agent, checked.signature],
    );
    const earlier = seen?.earlier_state ? { state: seen.earlier_state, order: seen.earlier_order } : undefined;
    const retry = earlier?.state === 'FAILED' && earlier.order === id;
    if (earlier?.order === id && LIVE_PAYMENT_STATES.includes(earlier.state)) throw paymentInProgress();
    if ((earlier && !retry) || seen?.used) throw transactionUsed(checked.signature);
    if (!seen?.agent_wallet) throw agentNotFound(order.agent);
    const balance = await this.#ledger.usdcBalance(wallet).catch((error: unknown) => Promise.reject(ledgerFailure(error)));
    if (balance < order.priceMicro) {
      throw new AppError('INSUFFICIENT_FUNDS', 'The wallet has insufficient USDC balance', {
        balance: microToUsdc(balance),
        required: microToUsdc(order.priceMicro),
      });
    }

    const commission = commissionMicro(order.priceMicro, order.commissionBps);
    // The agent's share is signed now and recorded with the payment: whatever happens next, this very transfer is
    // what is sent (and sent again, byte-identical, by a recovery), so a crash can never lead to a second payout.
    const split = await this.#signSplit(seen.agent_wallet, id, order.priceMicro - commission);
    const now = new Date();
    const payment: Payment = {
      txSignature: checked.signature,
      order: id,
      transaction: Buffer.from(checked.transaction).toString('base64'),
      amountMicro: order.priceMicro,
      agentAmountMicro: order.priceMicro - commission,
      commissionAmountMicro: commission,
      state: 'SUBMITTED',
      splitSignature: split.signature,
      splitTransaction: Buffer.from(split.transaction).toString('base64'),
      failure: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#db.em().transactional(async (em) => {
      // Order then agent, the lock order of every writer: cancel and delete see this payment or run before it.
      const locked = await em.findOneOrFail(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      requireStartState('accept', locked.status);
      const agent = await em.findOne(Agent, { id: locked.agent, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!agent) throw agentNotFound(locked.agent);
      if (await em.count(Payment, { order: id, state: { $in: LIVE_PAYMENT_STATES } })) throw paymentInProgress();
      try {
        if (!retry) await em.insert(Payment, payment);
        else if (!(await em.nativeUpdate(Payment, { txSignature: payment.txSignature, order: id, state: 'FAILED' }, payment))) throw paymentInProgress();
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) {
          throw (await em.count(Payment, { txSignature: payment.txSignature })) ? transactionUsed(payment.txSignature) : paymentInProgress();
        }
        throw error;
      }
    });
    failpoint('payment-recorded');

    const settled = await this.#advance(payment, true);
    if (settled.state === 'FAILED') throw ledgerFailure(new LedgerError('rejected', settled.failure ?? 'failed'));
    return {
      orderId: id,
      status: 'PAID',
      txSignature: settled.txSignature,
      agentAmount: microToUsdc(settled.agentAmountMicro),
      commissionAmount: microToUsdc(settled.commissionAmountMicro),
      paidAt: settled.updatedAt.toISOString(),
    };
  }

  /** The marketplace's transfer of the agent's share, signed (not sent). A memo of its own per attempt: a re-signed split must not be a byte-identical duplicate. */
  async #signSplit(agentWallet: string, orderId: string, amountMicro: bigint) {
    try {
      return await this.#ledger.signPayout(agentWallet, amountMicro, `order ${orderId} split ${randomUUID().slice(0, 8)}`);
    } catch (error) {
      throw ledgerFailure(error);
    }
  }

  /**
   * Finishes every payment still in flight: at start-up (`olderThanMs` 0) and periodically for ones a
   * chain outage left behind. Safe to run in several processes at once: every step is a
   * compare-and-set and resubmitting a signed transaction cannot pay twice.
   */
  async reconcile(olderThanMs = 0): Promise<{ settled: number; failed: number; pending: number }> {
    const stale = await this.#db.em().find(Payment, {
      state: { $in: LIVE_PAYMENT_STATES },
      updatedAt: { $lte: new Date(Date.now() - olderThanMs) },
    });
    const result = { settled: 0, failed: 0, pending: 0 };
    for (const payment of stale) {
      try {
        const done = await this.#advance(payment, false);
        if (done.state === 'DONE') result.settled++;
        else result.failed++;
      } catch (error) {
        result.pending++;
        this.#options.log?.(error, `payment ${payment.txSignature} of order ${payment.order} is still unsettled`);
      }
    }
    return result;
  }

  /**
   * Moves a payment through its states until DONE or FAILED; throws (state kept) when the chain is unreachable.
   * Every ledger failure of every step leaves as the API reports it (an outage while signing or checking the
   * agent's share is a 503 like one while submitting, never a 500).
   */
  async #advance(payment: Payment, fresh: boolean): Promise<Payment> {
    let p = payment;
    try {
      for (;;) {
        if (p.state === 'SUBMITTED') p = await this.#confirm(p, fresh);
        else if (p.state === 'CONFIRMED') p = await this.#recordSplit(p);
        else if (p.state === 'SPLIT_SENT') p = await this.#sendSplit(p);
        else return p;
      }
    } catch (error) {
      throw error instanceof LedgerError ? ledgerFailure(error) : error;
    }
  }

  /** Submits the consumer's transaction (after checking the chain has not already seen it, when recovering). */
  async #confirm(p: Payment, fresh: boolean): Promise<Payment> {
    const status = fresh ? 'unknown' : await this.#ledger.status(p.txSignature);
    if (status === 'failed') return this.#fail(p, 'The transaction failed on chain');
    if (status === 'unknown') {
      try {
        await this.#ledger.submit(Buffer.from(p.transaction, 'base64'));
      } catch (error) {
        if (error instanceof LedgerError && error.kind !== 'unavailable') {
          const failed = await this.#fail(p, error.message);
          if (!fresh) return failed; // recovering: a failed payment, reported as such
          throw ledgerFailure(error); // accepting: the chain's own reason (insufficient funds, say) to the client
        }
        throw ledgerFailure(error);
      }
      failpoint('payment-submitted');
    }
    // A payment recorded with its split goes straight to sending it; one recorded without (before the split was signed
    // at accept time) signs it first.
    const next = await this.#move(p, 'SUBMITTED', { state: p.splitTransaction ? 'SPLIT_SENT' : 'CONFIRMED' });
    failpoint('payment-confirmed');
    return next;
  }

  /** Signs the agent's share (again, when the chain failed the last one) and records it before sending, so a crash resends this very transfer. */
  async #recordSplit(p: Payment, replacing: string | null = null): Promise<Payment> {
    const order = await this.#db.em().findOneOrFail(Order, { id: p.order });
    const agent = await this.#db.em().findOneOrFail(Agent, { id: order.agent });
    const split = await this.#signSplit(agent.walletAddress, p.order, p.agentAmountMicro);
    const next = await this.#move(p, p.state, {
      state: 'SPLIT_SENT',
      splitSignature: split.signature,
      splitTransaction: Buffer.from(split.transaction).toString('base64'),
    }, { splitSignature: replacing });
    failpoint('split-recorded');
    return next;
  }

  async #sendSplit(p: Payment): Promise<Payment> {
    const signature = p.splitSignature!;
    let status = await this.#ledger.status(signature);
    if (status === 'unknown') {
      try {
        await this.#ledger.submit(Buffer.from(p.splitTransaction!, 'base64'));
        status = 'succeeded';
        failpoint('split-submitted');
      } catch (error) {
        if (!(error instanceof LedgerError) || error.kind === 'unavailable') throw ledgerFailure(error);
        status = 'failed';
      }
    }
    if (status === 'failed') {
      // The marketplace's own transfer failed (e.g. its fee balance ran dry): sign a new one; it is retried until it lands.
      this.#options.log?.(new Error(`split ${signature} failed`), `payout of order ${p.order} failed; re-signing`);
      await this.#recordSplit(p, signature);
      throw new AppError('TRANSACTION_FAILED', 'The payment was received; forwarding the agent share failed and will be retried', { reason: 'split-failed' }, 503);
    }
    return this.#finalize(p);
  }

  /** The order becomes PAID and `order:paid` is recorded in one transaction. */
  async #finalize(p: Payment): Promise<Payment> {
    const paidAt = new Date();
    const done = await this.#db.em().transactional(async (em) => {
      const moved = await em.nativeUpdate(Payment, { txSignature: p.txSignature, state: 'SPLIT_SENT' }, { state: 'DONE', updatedAt: paidAt });
      if (moved !== 1) return em.findOneOrFail(Payment, { txSignature: p.txSignature }); // another process finished it
      // The payment was live until now, so the order is still waiting for it (a live payment holds off cancel).
      const [order] = await em.execute<{ conversation_id: string; agent_wallet: string }[]>(
        `update orders set status = ?, tx_signature = ?, split_signature = ?, agent_amount_micro = ?, commission_amount_micro = ?,
                paid_at = ?, updated_at = ?
         where id = ? and status = ?
         returning conversation_id, (select wallet_address from agent where agent.id = orders.agent_id) as agent_wallet`,
        [TRANSITIONS.accept.to, p.txSignature, p.splitSignature, String(p.agentAmountMicro), String(p.commissionAmountMicro), paidAt, paidAt, p.order, TRANSITIONS.accept.from],
      );
      if (!order) throw new Error(`order ${p.order} was not waiting for its payment ${p.txSignature}`);
      await recordEvent(em, order.agent_wallet, 'order:paid', {
        orderId: p.order,
        conversationId: order.conversation_id,
        amount: microToUsdc(p.agentAmountMicro),
        txSignature: p.txSignature,
        splitSignature: p.splitSignature!,
        paidAt: paidAt.toISOString(),
      });
      return { ...p, state: 'DONE', updatedAt: paidAt };
    });
    this.#options.onEvents?.();
    return done;
  }

  async #fail(p: Payment, failure: string): Promise<Payment> {
    return this.#move(p, 'SUBMITTED', { state: 'FAILED', failure: failure.slice(0, 1000) });
  }

  /** Compare-and-set of a payment's state; when another process moved it first, continues from what it recorded. */
  async #move(p: Payment, from: string, changes: Partial<Payment>, also: Partial<Payment> = {}): Promise<Payment> {
    const em = this.#db.em();
    const updatedAt = new Date();
    const moved = await em.nativeUpdate(Payment, { txSignature: p.txSignature, state: from, ...also }, { ...changes, updatedAt });
    return moved === 1 ? { ...p, ...changes, updatedAt } : em.findOneOrFail(Payment, { txSignature: p.txSignature });
  }
}
