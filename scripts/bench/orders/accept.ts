/**
 * POST /api/orders/:id/accept, full accept-and-pay: every operation pays a PENDING order with a fresh signed
 * USDC transfer (payment check, replay checks, balance, consumer transfer on the ledger, agent payout, order
 * PAID + `order:paid`). Over HTTP from the client process and through PaymentService.accept, ACCEPT_CONCURRENCY
 * in flight, each from a pool of prepared orders.
 */
import type { RunningServer } from '../../../server/app.ts';
import { integer, secondsSince } from '../common/format.ts';
import { measureDirect } from '../common/measure.ts';
import type { Measurement } from '../common/stats.ts';
import { fromRun, type BenchClient } from './client.ts';
import { acceptRequests, prepareAccepts, type Payments, type PreparedAccept } from './payments.ts';
import { PRICE, type Seeded } from './seed.ts';
import type { BenchWallet } from './wallet.ts';

/** "A few in flight", for the accepts and the event samples. */
export const ACCEPT_CONCURRENCY = 4;
const ACCEPT_SECONDS = 5;
/** PENDING orders prepared per accept run: the run ends early (and says so) if it uses them all up. */
const ACCEPT_POOL = 1_500;
const ACCEPT_WARMUP = 30;

/** The accept of a prepared order through the service, as the route calls it. */
export function acceptThroughService(server: RunningServer, payer: BenchWallet, { orderId, paymentHeader }: PreparedAccept) {
  return server.services.payments.accept(payer.address, orderId, { clientWallet: payer.address, paymentMethod: 'usdc', paymentHeader });
}

export async function benchAccept(server: RunningServer, client: BenchClient, seeded: Seeded, payments: Payments): Promise<Measurement[]> {
  const scenario = `POST /api/orders/:id/accept (pay ${PRICE} USDC)`;
  const preparing = performance.now();
  const httpAccepts = await prepareAccepts(server, seeded, payments, ACCEPT_POOL + ACCEPT_WARMUP);
  const directAccepts = await prepareAccepts(server, seeded, payments, ACCEPT_POOL + ACCEPT_WARMUP);
  const requests = await acceptRequests(seeded.payer, httpAccepts, false);
  console.log(
    `  accept-and-pay: ${integer(httpAccepts.length + directAccepts.length)} PENDING orders inserted and their payment headers built ` +
      `(SDK buildPaymentHeader, blockhash ${payments.blockhash.blockhash.slice(0, 8)}… from ${payments.config.rpcUrl}) in ${secondsSince(preparing)}; ` +
      `${ACCEPT_WARMUP} warm-up operations, then up to ${ACCEPT_SECONDS} s`,
  );
  const http = await client.run({ baseUrl: server.url, requests, concurrency: ACCEPT_CONCURRENCY, warmup: ACCEPT_WARMUP, seconds: ACCEPT_SECONDS });
  const direct = await measureDirect(
    scenario,
    'service payments.accept',
    { concurrency: ACCEPT_CONCURRENCY, warmup: { operations: ACCEPT_WARMUP }, seconds: ACCEPT_SECONDS, count: directAccepts.length },
    (index) => acceptThroughService(server, seeded.payer, directAccepts[index]!),
  );
  return [fromRun(scenario, `HTTP (fetch, ${ACCEPT_CONCURRENCY} in flight)`, http), direct];
}
