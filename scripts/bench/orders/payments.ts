/**
 * Accept-and-pay, prepared before any timed window: PENDING orders of the payer (bulk insert), each with its
 * payment header built by the SDK (buildPaymentHeader, blockhash from the server's /dev/solana-rpc), and their
 * HTTP requests signed.
 */
import { buildPaymentHeader, fetchPaymentBlockhash, type PaymentBlockhash, type PaymentConfig } from '../../../client-sdk/payment.ts';
import { signedHeaders } from '../../../client-sdk/wallet.ts';
import type { RunningServer } from '../../../server/app.ts';
import { Order } from '../../../server/marketplace/entities.ts';
import type { PreparedRequest } from './protocol.ts';
import { orderRow, PRICE, type Seeded } from './seed.ts';
import type { BenchWallet } from './wallet.ts';

const FAUCET_USDC = 100_000;

export interface PreparedAccept {
  orderId: string;
  agent: number;
  paymentHeader: string;
}

export interface Payments {
  config: PaymentConfig;
  blockhash: PaymentBlockhash;
}

/** Payment config and blockhash as a client gets them: GET /api/payments/config, getLatestBlockhash on its rpcUrl. */
export async function paymentsSetUp(server: RunningServer, payer: BenchWallet): Promise<Payments> {
  const configResponse = await fetch(`${server.url}/api/payments/config`);
  if (configResponse.status !== 200) throw new Error(`GET /api/payments/config answered ${configResponse.status}`);
  const config = (await configResponse.json()) as PaymentConfig;
  const blockhash = await fetchPaymentBlockhash(config, server.url);
  const faucet = await fetch(`${server.url}/dev/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: payer.address, amount: FAUCET_USDC }),
  });
  if (faucet.status !== 200) throw new Error(`POST /dev/faucet answered ${faucet.status}: ${await faucet.text()}`);
  return { config, blockhash };
}

/** `count` PENDING orders of the payer (bulk insert), each with its payment header built by the SDK. */
export async function prepareAccepts(server: RunningServer, seeded: Seeded, payments: Payments, count: number): Promise<PreparedAccept[]> {
  const now = Date.now();
  const orders = Array.from({ length: count }, (_, i) => {
    const agent = Math.floor(Math.random() * seeded.agents.length);
    const row = orderRow(seeded.payerConversations[agent]!, seeded.agents[agent]!.id, seeded.payer.address, 'PENDING', new Date(now + i));
    return { agent, row };
  });
  for (let start = 0; start < orders.length; start += 1_000) {
    await server.db.em().insertMany(Order, orders.slice(start, start + 1_000).map((o) => o.row));
  }
  const prepared: PreparedAccept[] = [];
  for (const { agent, row } of orders) {
    const paymentHeader = await buildPaymentHeader({
      signer: seeded.payer.signer,
      order: { id: row.id, price: PRICE },
      config: payments.config,
      blockhash: payments.blockhash,
    });
    prepared.push({ orderId: row.id, agent, paymentHeader });
  }
  return prepared;
}

/** The HTTP request of each accept, signed now (a POST signature is single-use and valid for 5 minutes). */
export async function acceptRequests(payer: BenchWallet, accepts: readonly PreparedAccept[], withFrames: boolean): Promise<PreparedRequest[]> {
  return Promise.all(
    accepts.map(async ({ orderId, agent, paymentHeader }) => {
      const path = `/api/orders/${orderId}/accept`;
      return {
        method: 'POST' as const,
        path,
        headers: { ...(await signedHeaders(payer.signer, 'POST', path)), 'content-type': 'application/json' },
        body: JSON.stringify({ clientWallet: payer.address, paymentMethod: 'usdc', paymentHeader }),
        ...(withFrames ? { expect: { agent, key: orderId } } : {}),
      };
    }),
  );
}
