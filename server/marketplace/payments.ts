import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { Agent, LIVE_PAYMENT_STATES, Order, Payment } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import { OUTBOX_LOCK } from './events/outbox.ts';
import { commissionMicro, microToUsdc, usdcToMicro } from './money.ts';
import { failpoint } from './failpoints.ts';
import { LedgerError, type Ledger } from './ledgers/ledger.ts';
import { checkPayment } from './payment-check.ts';
import { requireAgentTokenAccount } from './payout-account.ts';
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
  airdrop(wallet: string, lamports: bigint): Promise<string>;
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

  /**
   * Development faucet (embedded ledger only): test USDC, plus SOL so the wallet can pay transaction fees and rent.
   * An amount of 0 sends the SOL alone (an agent then creates its USDC token account itself, as on a real cluster).
   */
  async faucet(wallet: string, amount: number) {
    const ledger = this.#ledger;
    if (!hasFaucet(ledger)) throw new AppError('NOT_FOUND', 'The faucet exists only with the embedded ledger');
    try {
      const micro = usdcToMicro(amount)!;
      const minted = micro > 0n ? await ledger.mintTo(wallet, micro) : undefined;
      const airdropped = await ledger.airdrop(wallet, FEE_LAMPORTS);
      return { wallet, amount, balance: microToUsdc(await ledger.usdcBalance(wallet)), signature: minted ?? airdropped };
    } catch (error) {
      throw ledgerFailure(error);
    }
  }

  /**
   * Four statements on the way: the order with its agent's wallet, whether the transaction was seen before, the
   * payment recorded (one statement that locks, checks and inserts), and the settlement (one statement that marks
   * the payment DONE, the order PAID and records `order:paid`). Each commit costs a disk flush, so there are two.
   */
  async accept(wallet: string, id: string, input: OrderAccept): Promise<PaymentReceipt> {
    if (input.clientWallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'clientWallet must be the signing wallet');
    const connection = this.#db.em().getConnection();
    const [order] = await connection.execute<{ status: string; client_wallet: string; price_micro: string | bigint; agent_id: string; commission_bps: number }[]>(
      'select status, client_wallet, price_micro, agent_id, commission_bps from orders where id = ?',
      [id],
    );
    if (!order) throw orderNotFound(id);
    if (order.client_wallet !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'Only the consumer of this order can accept it');
    requireStartState('accept', order.status);
    const priceMicro = BigInt(order.price_micro);

    const checked = await checkPayment({
      header: input.paymentHeader,
      paymentMethod: input.paymentMethod,
      order: { id, priceMicro },
      payer: wallet,
      ledger: this.#ledger,
    });
    // A transaction the chain refused for this very order (no fee SOL yet, say) may be sent again: it never
    // moved money, and on a ledger whose blockhash stands still the client cannot build a different one.
    // The same transaction while its payment of this order is in flight (a retry after a 503) is that payment.
    // One statement: any earlier payment with this transaction, whether an order was paid with it, the agent's wallet.
    const [seen] = await connection.execute<{ earlier_state: string | null; earlier_order: string | null; used: boolean; agent_wallet: string | null }[]>(
      `select p.state as earlier_state, p.order_id as earlier_order,
              exists(select 1 from orders where tx_signature = ?) as used,
              (select wallet_address from agent where id = ? and deleted_at is null) as agent_wallet
       from (select 1) one left join payment p on p.tx_signature = ?`,
      [checked.signature, order.agent_id, checked.signature],
    );
    const earlier = seen?.earlier_state ? { state: seen.earlier_state, order: seen.earlier_order } : undefined;
    if (earlier?.order === id && LIVE_PAYMENT_STATES.includes(earlier.state)) throw paymentInProgress();
    if ((earlier && !(earlier.state === 'FAILED' && earlier.order === id)) || seen?.used) throw transactionUsed(checked.signature);
    if (!seen?.agent_wallet) throw agentNotFound(order.agent_id);
    // Nothing is charged while the agent's share could not be paid out (payout-account.ts).
    const [balance] = await Promise.all([this.#ledger.usdcBalance(wallet), requireAgentTokenAccount(this.#ledger, seen.agent_wallet, 'consumer')]).catch(
      (error: unknown) => Promise.reject(ledgerFailure(error)),
    );
    if (balance < priceMicro) {
      throw new AppError('INSUFFICIENT_FUNDS', 'The wallet has insufficient USDC balance', {
        balance: microToUsdc(balance),
        required: microToUsdc(priceMicro),
      });
    }

    const commission = commissionMicro(priceMicro, order.commission_bps);
    // The agent's share is signed now and recorded with the payment: whatever happens next, this very transfer is
    // what is sent (and sent again, byte-identical, by a recovery), so a crash can never lead to a second payout.
    const split = await this.#signSplit(seen.agent_wallet, id, priceMicro - commission);
    const now = new Date();
    const payment: Payment = {
      txSignature: checked.signature,
      order: id,
      transaction: Buffer.from(checked.transaction).toString('base64'),
      amountMicro: priceMicro,
      agentAmountMicro: priceMicro - commission,
      commissionAmountMicro: commission,
      state: 'SUBMITTED',
      splitSignature: split.signature,
      splitTransaction: Buffer.from(split.transaction).toString('base64'),
      failure: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#record(payment);
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

  /**
   * Records a payment in one statement (its own transaction): the order and then its agent locked (the lock order of
   * every writer, so cancel and agent deletion see this payment or run before it), the order still PENDING and the
   * agent not deleted, then the insert. A payment of this order in flight is the partial unique index's violation; the
   * same transaction refused earlier for this very order (FAILED) is recorded again over its old row.
   */
  async #record(payment: Payment): Promise<void> {
    const p = payment;
    let row: { status: string; agent_id: string; agent: boolean; recorded: boolean } | undefined;
    try {
      // Through the entity manager, which turns the driver's unique violation into UniqueConstraintViolationException.
      [row] = await this.#db.em().execute(
        `with o as materialized (select status, agent_id from orders where id = ? for update),
              a as materialized (select id from agent where id = (select agent_id from o) and deleted_at is null for update),
              recorded as (
                insert into payment (tx_signature, order_id, transaction, amount_micro, agent_amount_micro, commission_amount_micro,
                                     state, split_signature, split_transaction, failure, created_at, updated_at)
                select ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?
                where (select status from o) = ? and exists (select 1 from a)
                on conflict (tx_signature) do update set
                  transaction = excluded.transaction, amount_micro = excluded.amount_micro, agent_amount_micro = excluded.agent_amount_micro,
                  commission_amount_micro = excluded.commission_amount_micro, state = excluded.state, split_signature = excluded.split_signature,
                  split_transaction = excluded.split_transaction, failure = null, updated_at = excluded.updated_at
                where payment.state = 'FAILED' and payment.order_id = excluded.order_id
                returning 1)
         select (select status from o) as status, (select agent_id from o) as agent_id, exists (select 1 from a) as agent,
                exists (select 1 from recorded) as recorded`,
        [
          p.order, p.txSignature, p.order, p.transaction, String(p.amountMicro), String(p.agentAmountMicro), String(p.commissionAmountMicro),
          p.state, p.splitSignature, p.splitTransaction, p.createdAt, p.updatedAt, TRANSITIONS.accept.from,
        ],
      );
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw paymentInProgress();
      throw error;
    }
    if (row!.recorded) return;
    requireStartState('accept', row!.status);
    if (!row!.agent) throw agentNotFound(row!.agent_id);
    // Another accept with this transaction recorded it since it was looked up: for this order, or for another one.
    const [other] = await this.#db.em().getConnection().execute<{ order_id: string }[]>('select order_id from payment where tx_signature = ?', [p.txSignature]);
    throw other?.order_id === p.order ? paymentInProgress() : transactionUsed(p.txSignature);
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
   * The steps follow the states' order, so a step that finds another process ahead (a compare-and-set that lost)
   * continues from where that one got. A payment stays SUBMITTED while its consumer's transaction is confirmed and
   * its recorded split sent (nothing to record in between: recovery asks the chain about both), and becomes DONE.
   * Every ledger failure of every step leaves as the API reports it (an outage while signing or checking the
   * agent's share is a 503 like one while submitting, never a 500).
   */
  async #advance(payment: Payment, fresh: boolean): Promise<Payment> {
    let p = payment;
    try {
      if (p.state === 'SUBMITTED') p = await this.#confirm(p, fresh);
      if (p.state === 'CONFIRMED') p = await this.#recordSplit(p);
      if (p.state === 'SUBMITTED' || p.state === 'SPLIT_SENT') p = await this.#sendSplit(p, fresh);
      return p;
    } catch (error) {
      throw error instanceof LedgerError ? ledgerFailure(error) : error;
    }
  }

  /**
   * Submits the consumer's transaction (after checking the chain has not already seen it, when recovering). Confirmed,
   * the payment stays SUBMITTED with its split recorded; one recorded without a split (by an earlier version) becomes
   * CONFIRMED, to have it signed.
   */
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
    const next = p.splitTransaction ? p : await this.#move(p, 'SUBMITTED', { state: 'CONFIRMED' });
    failpoint('payment-confirmed');
    return next;
  }

  /** Signs the agent's share (again, when the chain failed the last one) and records it before sending, so a crash resends this very transfer. */
  async #recordSplit(p: Payment, replacing: string | null = null): Promise<Payment> {
    const split = await this.#signSplit(await this.#agentWallet(p), p.order, p.agentAmountMicro);
    const next = await this.#move(p, p.state, {
      state: 'SPLIT_SENT',
      splitSignature: split.signature,
      splitTransaction: Buffer.from(split.transaction).toString('base64'),
    }, { splitSignature: replacing });
    failpoint('split-recorded');
    return next;
  }

  /** The wallet the payment's split pays: its order's agent's. */
  async #agentWallet(p: Payment): Promise<string> {
    const order = await this.#db.em().findOneOrFail(Order, { id: p.order });
    return (await this.#db.em().findOneOrFail(Agent, { id: order.agent })).walletAddress;
  }

  /**
   * Sends the recorded split unless the chain has it already; then the payment is DONE. A recovery first checks that
   * the agent's token account exists (an accept checked it a moment ago; should it vanish in that moment, the chain
   * refuses the split and it is signed anew, below): while it is missing, the split waits, recorded, and a later
   * reconciliation sends it. (A split recorded by an earlier version may carry the account's creation at the
   * marketplace's expense: sent only once the account exists, that creation does nothing.)
   */
  async #sendSplit(p: Payment, fresh: boolean): Promise<Payment> {
    const signature = p.splitSignature!;
    let status = await this.#ledger.status(signature);
    if (status === 'unknown') {
      if (!fresh && !(await this.#ledger.canReceiveUsdc(await this.#agentWallet(p)))) {
        throw new AppError(
          'TRANSACTION_FAILED',
          "The payment was received; the agent's USDC token account does not exist, so its share is forwarded once the agent creates it",
          { reason: 'split-failed' },
          503,
        );
      }
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

  /**
   * One statement (its own transaction): the payment DONE, its order PAID and `order:paid` in the outbox. The outbox
   * lock is taken before anything else (the updates wait on it), so the event's id is drawn under it; then the order
   * row, before the payment's: every writer locks an order before its payment (#record inserts a payment under its
   * order's lock, and its insert waits on a payment row another transaction holds), else two accepts of one order
   * deadlock. An order no longer waiting for this payment moves nothing and is reported.
   */
  async #finalize(p: Payment): Promise<Payment> {
    const paidAt = new Date();
    const [row] = await this.#db.em().getConnection().execute<{ done: boolean; events: string | number }[]>(
      `with outbox as materialized (${OUTBOX_LOCK}),
            o as materialized (select status from orders where id = ? and exists (select 1 from outbox) for update),
            done as (
              update payment set state = 'DONE', updated_at = ?
              where tx_signature = ? and split_signature = ? and state in ('SUBMITTED', 'SPLIT_SENT') and (select status from o) = ?
              returning order_id),
            paid as (
              update orders set status = ?, tx_signature = ?, split_signature = ?, agent_amount_micro = ?, commission_amount_micro = ?,
                                paid_at = ?, updated_at = ?
              from done where orders.id = done.order_id and orders.status = ?
              returning orders.id, orders.conversation_id, orders.agent_id),
            event as (
              insert into provider_event (wallet, event, data, created_at)
              select agent.wallet_address, 'order:paid',
                     json_build_object('orderId', paid.id, 'conversationId', paid.conversation_id, 'amount', ?::numeric,
                                       'txSignature', ?::text, 'splitSignature', ?::text, 'paidAt', ?::text),
                     ?
              from paid join agent on agent.id = paid.agent_id
              returning id)
       select exists (select 1 from done) as done, (select count(*) from event) as events`,
      [
        p.order,
        paidAt, p.txSignature, p.splitSignature, TRANSITIONS.accept.from,
        TRANSITIONS.accept.to, p.txSignature, p.splitSignature, String(p.agentAmountMicro), String(p.commissionAmountMicro), paidAt, paidAt,
        TRANSITIONS.accept.from,
        String(microToUsdc(p.agentAmountMicro)), p.txSignature, p.splitSignature, paidAt.toISOString(), paidAt,
      ],
    );
    if (row?.done) {
      if (Number(row.events) !== 1) throw new Error(`payment ${p.txSignature} became DONE without its order ${p.order} becoming PAID`);
      this.#options.onEvents?.();
      return { ...p, state: 'DONE', updatedAt: paidAt };
    }
    const now = await this.#db.em().findOneOrFail(Payment, { txSignature: p.txSignature }, { disableIdentityMap: true });
    if (now.state === 'DONE') return now; // another process finished it
    throw new Error(`order ${p.order} was not waiting for its payment ${p.txSignature} (payment ${now.state})`);
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
