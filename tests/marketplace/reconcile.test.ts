/**
 * Reconciliation, in-process: a payment left at each state of settlement (the process "crashed" there) is
 * finished by `PaymentService.reconcile()` with each transaction sent to the chain at most once, exact shares
 * and one `order:paid`; a chain outage keeps it pending and says so; a transaction that failed on chain fails
 * the payment; only payments older than the threshold are touched. payment-recovery.test.ts proves the same
 * with real SIGKILLed server processes; this file drives the same code where a test can see every step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentConfig } from '../../client-sdk/index.ts';
import { Order, Payment, ProviderEvent } from '../../server/marketplace/entities.ts';
import { LedgerError, type Ledger } from '../../server/marketplace/ledgers/ledger.ts';
import { commissionMicro } from '../../server/marketplace/money.ts';
import { PaymentService } from '../../server/marketplace/payments.ts';
import {
  agentAndConsumer,
  closeTokenAccount,
  createOrder,
  fund,
  lamportsOf,
  openTokenAccount,
  paymentConfig,
  paymentHeader,
  usdcBalance,
  type Parties,
} from '../helpers/orders.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const PRICE_MICRO = 12_500_000n;
const COMMISSION = commissionMicro(PRICE_MICRO, 1000);

/** Where the process dies: before a ledger call, or right after the call did its work. */
type Crash = { method: 'submit' | 'signPayout'; call: number; after: boolean };

class Crashed extends Error {}

/**
 * The server's real ledger, recording every submitted signature, that can "crash" once at a chosen call
 * or be unreachable (every call an 'unavailable' LedgerError) while `down` is set.
 */
class FaultyLedger {
  readonly submitted: Uint8Array[] = [];
  #calls = { submit: 0, signPayout: 0 };
  down = false;
  readonly real: Ledger;
  readonly crash: Crash | undefined;
  constructor(real: Ledger, crash?: Crash) {
    this.real = real;
    this.crash = crash;
  }

  async #call<T>(method: 'submit' | 'signPayout', run: () => Promise<T>): Promise<T> {
    if (this.down) throw new LedgerError('unavailable', 'the node does not answer');
    const n = ++this.#calls[method];
    const dies = this.crash?.method === method && this.crash.call === n;
    if (dies && !this.crash!.after) throw new Crashed(`crashed before ${method} #${n}`);
    const result = await run();
    if (dies) throw new Crashed(`crashed after ${method} #${n}`);
    return result;
  }

  ledger(): Ledger {
    const real = this.real;
    return Object.assign(Object.create(real) as Ledger, {
      usdcBalance: (wallet: string) => (this.down ? Promise.reject(new LedgerError('unavailable', 'down')) : real.usdcBalance(wallet)),
      status: (signature: string) => (this.down ? Promise.reject(new LedgerError('unavailable', 'down')) : real.status(signature)),
      submit: (tx: Uint8Array) =>
        this.#call('submit', async () => {
          await real.submit(tx);
          this.submitted.push(tx);
        }),
      signPayout: (wallet: string, amount: bigint, memo: string) => this.#call('signPayout', () => real.signPayout(wallet, amount, memo)),
    });
  }
}

describe('reconcile() finishes a payment left at any step', () => {
  let server: TestServer;
  let config: PaymentConfig;
  let marketplace: bigint;
  const logged: string[] = [];
  const service = (ledger: Ledger) =>
    new PaymentService(server.db, ledger, { commissionBps: 1000, log: (_error, message) => void logged.push(message) });

  beforeAll(async () => {
    server = await startTestServer({ rateLimits: 'off' });
    config = await paymentConfig(server.url);
  });
  afterAll(() => server?.destroy());

  /** A consumer with 100 USDC, an order of 12.5, and an accept that dies at `crash`. */
  async function leftAt(crash: Crash) {
    const p = await agentAndConsumer(server.url);
    await fund(server.url, p.client.address, 100);
    const order = await createOrder(p, { price: 12.5 });
    const header = await paymentHeader(server.url, p.client, order, config);
    marketplace = await usdcBalance(server.url, config.destination, config);
    const faulty = new FaultyLedger(server.services.payments.ledger, crash);
    const accepting = service(faulty.ledger()).accept(p.client.address, order.id, { clientWallet: p.client.address, paymentMethod: 'usdc', paymentHeader: header });
    await expect(accepting).rejects.toThrow();
    return { p, order, left: await server.db.em().findOneOrFail(Payment, { order: order.id }) };
  }

  async function expectPaidOnce(p: Parties, orderId: string) {
    const order = await server.db.em().findOneOrFail(Order, { id: orderId });
    expect(order).toMatchObject({ status: 'PAID', agentAmountMicro: PRICE_MICRO - COMMISSION, commissionAmountMicro: COMMISSION });
    expect(order.txSignature).toEqual(expect.any(String));
    expect(order.splitSignature).toEqual(expect.any(String));
    expect(await usdcBalance(server.url, p.client.address, config)).toBe(100_000_000n - PRICE_MICRO);
    expect(await usdcBalance(server.url, p.agent.address, config)).toBe(PRICE_MICRO - COMMISSION);
    expect(await usdcBalance(server.url, config.destination, config)).toBe(marketplace + COMMISSION);
    const events = await server.db.em().find(ProviderEvent, { event: 'order:paid', wallet: p.agent.address });
    expect(events.map((e) => e.data)).toEqual([
      {
        orderId,
        conversationId: p.conversationId,
        amount: 11.25,
        txSignature: order.txSignature,
        splitSignature: order.splitSignature,
        paidAt: order.paidAt!.toISOString(),
      },
    ]);
    const payment = await server.db.em().findOneOrFail(Payment, { order: orderId });
    expect(payment).toMatchObject({ state: 'DONE', txSignature: order.txSignature, splitSignature: order.splitSignature });
  }

  // [crash point, the state it leaves, transactions reconcile must send]
  // The agent's share is signed before the payment is recorded and recorded with it: every crash point below finds
  // it, and recovery sends that very transfer (never a second one).
  const cases: [string, Crash, string, number][] = [
    ['before the consumer’s transfer is sent', { method: 'submit', call: 1, after: false }, 'SUBMITTED', 2],
    ['after the consumer’s transfer landed', { method: 'submit', call: 1, after: true }, 'SUBMITTED', 1],
    ['before the agent’s share is sent', { method: 'submit', call: 2, after: false }, 'SUBMITTED', 1],
    ['after the agent’s share landed', { method: 'submit', call: 2, after: true }, 'SUBMITTED', 0],
  ];

  it.for(cases)('crashed %s: PAID, each transaction sent once, one order:paid', async ([, crash, state, resent]) => {
    const { p, order, left } = await leftAt(crash);
    expect(left.state).toBe(state);
    expect([left.splitSignature, left.splitTransaction]).toEqual([expect.any(String), expect.any(String)]);
    const recovery = new FaultyLedger(server.services.payments.ledger);
    expect(await service(recovery.ledger()).reconcile()).toEqual({ settled: 1, failed: 0, pending: 0 });
    expect(recovery.submitted).toHaveLength(resent);
    await expectPaidOnce(p, order.id);
    expect((await server.db.em().findOneOrFail(Order, { id: order.id })).splitSignature).toBe(left.splitSignature); // the recorded one
    // Running it again finds nothing to do.
    expect(await service(recovery.ledger()).reconcile()).toEqual({ settled: 0, failed: 0, pending: 0 });
    expect(recovery.submitted).toHaveLength(resent);
  });

  it('a payment recorded without its split (by a version that signed it later) is finished too: the split signed once', async () => {
    const { p, order, left } = await leftAt({ method: 'submit', call: 1, after: false });
    await server.db.em().nativeUpdate(Payment, { txSignature: left.txSignature }, { splitSignature: null, splitTransaction: null });
    const recovery = new FaultyLedger(server.services.payments.ledger);
    expect(await service(recovery.ledger()).reconcile()).toEqual({ settled: 1, failed: 0, pending: 0 });
    expect(recovery.submitted).toHaveLength(2);
    await expectPaidOnce(p, order.id);
  });

  it('a crash while signing the agent’s share leaves nothing to finish: no payment recorded, no money moved', async () => {
    const p = await agentAndConsumer(server.url);
    await fund(server.url, p.client.address, 100);
    const order = await createOrder(p, { price: 12.5 });
    const header = await paymentHeader(server.url, p.client, order, config);
    const faulty = new FaultyLedger(server.services.payments.ledger, { method: 'signPayout', call: 1, after: false });
    await expect(service(faulty.ledger()).accept(p.client.address, order.id, { clientWallet: p.client.address, paymentMethod: 'usdc', paymentHeader: header })).rejects.toThrow();
    expect(await server.db.em().count(Payment, { order: order.id })).toBe(0);
    expect(faulty.submitted).toHaveLength(0);
    expect(await usdcBalance(server.url, p.client.address, config)).toBe(100_000_000n);
  });

  it('two processes reconciling at once pay once and record one order:paid', async () => {
    const { p, order } = await leftAt({ method: 'submit', call: 1, after: true });
    const one = new FaultyLedger(server.services.payments.ledger);
    const two = new FaultyLedger(server.services.payments.ledger);
    const results = await Promise.all([service(one.ledger()).reconcile(), service(two.ledger()).reconcile()]);
    expect(results.reduce((n, r) => n + r.settled, 0)).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.failed === 0 && r.pending === 0)).toBe(true);
    await expectPaidOnce(p, order.id);
  });

  it('during an outage the payment stays where it was, counted pending and logged; it settles once the chain is back', async () => {
    const { p, order, left } = await leftAt({ method: 'submit', call: 1, after: true });
    const faulty = new FaultyLedger(server.services.payments.ledger);
    faulty.down = true;
    logged.length = 0;
    expect(await service(faulty.ledger()).reconcile()).toEqual({ settled: 0, failed: 0, pending: 1 });
    expect(logged).toEqual([`payment ${left.txSignature} of order ${order.id} is still unsettled`]);
    const kept = await server.db.em().findOneOrFail(Payment, { order: order.id });
    expect(kept).toMatchObject({ state: 'SUBMITTED', failure: null });
    expect((await server.db.em().findOneOrFail(Order, { id: order.id })).status).toBe('PENDING');

    faulty.down = false;
    expect(await service(faulty.ledger()).reconcile()).toEqual({ settled: 1, failed: 0, pending: 0 });
    expect(faulty.submitted).toHaveLength(1);
    await expectPaidOnce(p, order.id);
  });

  it('only payments untouched for olderThanMs are picked up (the periodic pass leaves ones in flight alone)', async () => {
    const { p, order } = await leftAt({ method: 'submit', call: 1, after: true });
    const ledger = new FaultyLedger(server.services.payments.ledger).ledger();
    expect(await service(ledger).reconcile(60_000)).toEqual({ settled: 0, failed: 0, pending: 0 });
    expect((await server.db.em().findOneOrFail(Payment, { order: order.id })).state).toBe('SUBMITTED');
    await server.db.em().nativeUpdate(Payment, { order: order.id }, { updatedAt: new Date(Date.now() - 61_000) });
    expect(await service(ledger).reconcile(60_000)).toEqual({ settled: 1, failed: 0, pending: 0 });
    await expectPaidOnce(p, order.id);
  });

  it('a consumer’s transfer that failed on chain fails the payment: counted failed, the order still PENDING and payable', async () => {
    const { order, left } = await leftAt({ method: 'submit', call: 1, after: false });
    const real = server.services.payments.ledger;
    const failedOnChain = Object.assign(Object.create(real) as Ledger, { status: async () => 'failed' as const });
    expect(await service(failedOnChain).reconcile()).toEqual({ settled: 0, failed: 1, pending: 0 });
    expect(await server.db.em().findOneOrFail(Payment, { txSignature: left.txSignature })).toMatchObject({
      state: 'FAILED',
      failure: 'The transaction failed on chain',
    });
    expect((await server.db.em().findOneOrFail(Order, { id: order.id })).status).toBe('PENDING');
  });

  it('a transfer the chain refuses while recovering fails the payment with the chain’s reason (counted failed, not retried)', async () => {
    const { order, left } = await leftAt({ method: 'submit', call: 1, after: false });
    const real = server.services.payments.ledger;
    const refusing = Object.assign(Object.create(real) as Ledger, {
      submit: async () => Promise.reject(new LedgerError('rejected', 'Blockhash not found')),
    });
    expect(await service(refusing).reconcile()).toEqual({ settled: 0, failed: 1, pending: 0 });
    expect(await server.db.em().findOneOrFail(Payment, { txSignature: left.txSignature })).toMatchObject({ state: 'FAILED', failure: 'Blockhash not found' });
    expect((await server.db.em().findOneOrFail(Order, { id: order.id })).status).toBe('PENDING');
    expect(await service(real).reconcile()).toEqual({ settled: 0, failed: 0, pending: 0 });
  });

  it('an agent that closes its token account while its payment settles: the share waits, no rent paid, and is paid once the account exists again', async () => {
    const p = await agentAndConsumer(server.url);
    await fund(server.url, p.client.address, 100);
    const order = await createOrder(p, { price: 12.5 });
    const header = await paymentHeader(server.url, p.client, order, config);
    marketplace = await usdcBalance(server.url, config.destination, config);
    const marketplaceSol = await lamportsOf(server.url, config.destination, config);
    // The account is there when the accept checks it, and gone once the consumer's transfer landed.
    const real = server.services.payments.ledger;
    let submits = 0;
    const closing = Object.assign(Object.create(real) as Ledger, {
      submit: async (tx: Uint8Array) => {
        await real.submit(tx);
        if (++submits === 1) await closeTokenAccount(server.url, p.agent, config);
      },
    });
    const accepting = service(closing).accept(p.client.address, order.id, { clientWallet: p.client.address, paymentMethod: 'usdc', paymentHeader: header });
    await expect(accepting).rejects.toMatchObject({ code: 'TRANSACTION_FAILED', status: 503, details: { reason: 'split-failed' } });
    // The payment was received and is held: the order waits with its payment in flight, the share is not lost.
    expect(await usdcBalance(server.url, p.client.address, config)).toBe(100_000_000n - PRICE_MICRO);
    expect((await server.db.em().findOneOrFail(Order, { id: order.id })).status).toBe('PENDING');
    expect((await server.db.em().findOneOrFail(Payment, { order: order.id })).state).toBe('SPLIT_SENT');

    // While the account is missing, reconciliation sends nothing (the transfer would fail; creating it is not ours to pay).
    const recovery = new FaultyLedger(real);
    logged.length = 0;
    expect(await service(recovery.ledger()).reconcile()).toEqual({ settled: 0, failed: 0, pending: 1 });
    expect(recovery.submitted).toHaveLength(0);
    expect(logged).toEqual([expect.stringContaining(`of order ${order.id} is still unsettled`)]);
    expect(await lamportsOf(server.url, config.destination, config)).toBe(marketplaceSol);

    await openTokenAccount(server.url, p.agent, config);
    expect(await service(recovery.ledger()).reconcile()).toEqual({ settled: 1, failed: 0, pending: 0 });
    expect(recovery.submitted).toHaveLength(1);
    await expectPaidOnce(p, order.id);
    // One transaction of the marketplace's landed, the agent's share: its fee (5,000 lamports), no rent.
    expect(await lamportsOf(server.url, config.destination, config)).toBe(marketplaceSol - 5_000n);
  });
});
