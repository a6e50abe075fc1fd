/**
 * What an accept costs, one call at a time: the whole accept through the service, then its non-database parts
 * one call at a time through the server's own ledger (journal fdatasync'd): what is left of the accept is its SQL.
 */
import { randomUUID } from 'node:crypto';
import { buildPaymentHeader, buildPaymentTransaction } from '../../../client-sdk/payment.ts';
import type { RunningServer } from '../../../server/app.ts';
import { usdcToMicro } from '../../../server/marketplace/money.ts';
import { checkPayment } from '../../../server/marketplace/payment-check.ts';
import { integer } from '../common/format.ts';
import { acceptThroughService } from './accept.ts';
import { prepareAccepts, type Payments } from './payments.ts';
import { PRICE, type Seeded } from './seed.ts';

const BREAKDOWN_ITERATIONS = 200;
const BREAKDOWN_ACCEPTS = 50;

/** Mean µs of `operation` over `iterations` sequential calls with indexes 0..iterations - 1, after a warm-up call with index `iterations`. */
async function microseconds(iterations: number, operation: (i: number) => unknown): Promise<number> {
  await operation(iterations);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await operation(i);
  return ((performance.now() - started) * 1_000) / iterations;
}

export async function acceptBreakdown(server: RunningServer, seeded: Seeded, payments: Payments): Promise<void> {
  const ledger = server.services.payments.ledger;
  const { payer } = seeded;
  const sequential = await prepareAccepts(server, seeded, payments, BREAKDOWN_ACCEPTS + 1);
  const acceptUs = await microseconds(BREAKDOWN_ACCEPTS, (i) => acceptThroughService(server, payer, sequential[i]!));


  const orderId = randomUUID();
  const header = await buildPaymentHeader({ signer: payer.signer, order: { id: orderId, price: PRICE }, config: payments.config, blockhash: payments.blockhash });
  const priceMicro = usdcToMicro(PRICE)!;
  const check = await microseconds(BREAKDOWN_ITERATIONS * 5, () =>
    checkPayment({ header, paymentMethod: 'usdc', order: { id: orderId, priceMicro }, payer: payer.address, ledger }),
  );
  const balance = await microseconds(BREAKDOWN_ITERATIONS * 5, () => ledger.usdcBalance(payer.address));
  const transfers = await Promise.all(
    Array.from({ length: BREAKDOWN_ITERATIONS + 1 }, () =>
      buildPaymentTransaction({ signer: payer.signer, order: { id: randomUUID(), price: PRICE }, config: payments.config, blockhash: payments.blockhash }),
    ),
  );
  const submit = await microseconds(BREAKDOWN_ITERATIONS, (i) => ledger.submit(transfers[i]!));
  const payouts: Uint8Array[] = [];
  // An agent that already has a token account (paid above), as most payouts find them.
  const agent = seeded.agents[0]!.wallet.address;
  const signPayout = await microseconds(BREAKDOWN_ITERATIONS, async () => {
    payouts.push((await ledger.signPayout(agent, 1_350_000n, `bench payout ${randomUUID().slice(0, 8)}`)).transaction);
  });
  const payout = await microseconds(BREAKDOWN_ITERATIONS, (i) => ledger.submit(payouts[i]!));
  const parts = [
    ['checkPayment (decode, allow-list, Ed25519)', check],
    ['ledger.usdcBalance', balance],
    ['ledger.submit (consumer transfer)', submit],
    ['ledger.signPayout', signPayout],
    ['ledger.submit (agent payout)', payout],
  ] as const;
  const total = parts.reduce((sum, [, us]) => sum + us, 0);
  const width = Math.max(...parts.map(([label]) => label.length));
  const line = (label: string, us: number, note = '') => console.log(`    ${label.padEnd(width)}  ${integer(us).padStart(6)} µs${note}`);
  console.log(`  accept cost breakdown, one call at a time (mean of ${BREAKDOWN_ACCEPTS} accepts, ${BREAKDOWN_ITERATIONS}+ calls of each part; ledger journal fdatasync'd):`);
  line('service payments.accept, whole', acceptUs);
  for (const [label, us] of parts) line(`  ${label}`, us);
  line('  = without the database', total, ` (${integer((100 * total) / acceptUs)}%)`);
  line('  the rest: 4 SQL statements', acceptUs - total, ' (2 reads; the payment recorded and the settlement, one statement each: 2 commits)');
}
