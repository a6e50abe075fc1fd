/**
 * POST /api/orders/:id/accept as clients meet it over HTTP: every error code of the operation, the
 * payment attacks (tests/marketplace/payment-check.test.ts covers each header check in isolation), the payments
 * config, and the same flow against a real-cluster ledger: the server's RpcLedger talking to a local
 * JSON-RPC stand-in on 127.0.0.1 backed by LiteSVM, including an outage in the middle of a payment.
 */
import { createServer, type Server } from 'node:http';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
} from '@solana/kit';
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPaymentHeader,
  buildPaymentTransaction,
  encodePaymentHeader,
  fetchPaymentBlockhash,
  generateKeypair,
  toTransactionSigner,
  type PaymentConfig,
} from '../../client-sdk/index.ts';
import { answerSolanaRpc, LiteSvmLedger } from '../../server/marketplace/ledgers/index.ts';
import { stringifyWithBigInts } from '../../server/marketplace/ledgers/solana-rpc.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { walletFor } from '../helpers/marketplace.ts';
import {
  acceptOrder,
  agentAndConsumer,
  closeTokenAccount,
  createOrder,
  fund,
  lamportsOf,
  openTokenAccount,
  paymentConfig,
  paymentHeader,
  publicCall,
  usdcBalance,
  type Parties,
} from '../helpers/orders.ts';

const PRICE = 12.5;
const PRICE_MICRO = 12_500_000n;
/** What one transaction with one signature costs its fee payer, in lamports (the split is the marketplace's only one). */
const SIGNATURE_FEE = 5_000n;

/** The body of POST /api/orders for the parties' conversation. */
const orderBody = (p: Parties) => ({ conversationId: p.conversationId, agentId: p.agentId, clientWallet: p.client.address, description: 'Translate', price: PRICE, deliveryTime: 120 });

/** The details of AGENT_TOKEN_ACCOUNT_MISSING: the agent's wallet, the mint and the account it has to create. */
async function missingAccount(p: Parties, config: PaymentConfig) {
  const [tokenAccount] = await findAssociatedTokenPda({ owner: address(p.agent.address), mint: address(config.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return { wallet: p.agent.address, mint: config.mint, tokenAccount };
}

/** A signed USDC transfer for `order` without a memo: the one shape a replay onto another order could take. */
async function transferWithoutMemo(payer: Parties['client'], config: PaymentConfig, baseUrl: string, amount = PRICE_MICRO) {
  const signer = toTransactionSigner(payer.signer);
  const mint = address(config.mint);
  const [source] = await findAssociatedTokenPda({ owner: signer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const { blockhash, lastValidBlockHeight } = await fetchPaymentBlockhash(config, baseUrl);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight }, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferCheckedInstruction({ source, mint, destination: address(config.destinationTokenAccount), authority: signer, amount, decimals: 6 })],
        m,
      ),
  );
  return Uint8Array.from(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)));
}

describe('accept and pay on the embedded ledger', () => {
  let server: TestServer;
  let p: Parties;
  let config: PaymentConfig;
  const accept = (order: { id: string }, paymentHeader: string, parties = p) =>
    parties.client.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: parties.client.address, paymentMethod: 'usdc', paymentHeader });

  beforeAll(async () => {
    server = await startTestServer({ rateLimits: 'off' });
    p = await agentAndConsumer(server.url);
    await fund(server.url, p.client.address, 100);
    config = await paymentConfig(server.url);
  });
  afterAll(() => server?.destroy());

  it('GET /api/payments/config tells clients what to pay with', async () => {
    expect(config).toEqual({
      currency: 'USDC',
      mint: expect.any(String),
      decimals: 6,
      destination: expect.any(String),
      destinationTokenAccount: expect.any(String),
      cluster: 'localnet',
      commissionBps: 1000,
      rpcUrl: '/dev/solana-rpc',
    });
    const [ata] = await findAssociatedTokenPda({ owner: address(config.destination), mint: address(config.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect(config.destinationTokenAccount).toBe(ata);
  });

  it('moves exactly: consumer -price, agent +agentAmount, marketplace +commissionAmount', async () => {
    const before = await Promise.all([p.client, p.agent].map((w) => usdcBalance(server.url, w.address, config)));
    const marketplaceBefore = await usdcBalance(server.url, config.destination, config);
    const order = await createOrder(p, { price: PRICE });
    const res = await acceptOrder(server.url, p, order);
    expect(res.status).toBe(200);
    expect(await usdcBalance(server.url, p.client.address, config)).toBe(before[0]! - PRICE_MICRO);
    expect(await usdcBalance(server.url, p.agent.address, config)).toBe(before[1]! + 11_250_000n);
    expect(await usdcBalance(server.url, config.destination, config)).toBe(marketplaceBefore + 1_250_000n);
  });

  it('INVALID_PAYMENT_HEADER (400): not base64 JSON of the documented shape; a destination other than the marketplace', async () => {
    const order = await createOrder(p);
    const garbage = await accept(order, 'not a header');
    expect([garbage.status, garbage.body.error]).toEqual([400, 'INVALID_PAYMENT_HEADER']);
    const transaction = await buildPaymentTransaction({ signer: p.client.signer, order, config, blockhash: await fetchPaymentBlockhash(config, server.url) });
    const elsewhere = await accept(order, encodePaymentHeader({ transaction, amount: PRICE, destination: generateKeypair().address }));
    expect([elsewhere.status, elsewhere.body.error, elsewhere.body.details.reason]).toEqual([400, 'INVALID_PAYMENT_HEADER', 'destination']);
    const tooLarge = await accept(order, 'A'.repeat(5000));
    expect([tooLarge.status, tooLarge.body.details.reason]).toEqual([400, 'too_large']);
  });

  it('AMOUNT_MISMATCH (422): the header or the transfer says another amount than the order price', async () => {
    const order = await createOrder(p, { price: PRICE });
    const cheaper = await paymentHeader(server.url, p.client, { id: order.id, price: 1 }, config);
    const res = await accept(order, cheaper);
    expect([res.status, res.body.error]).toEqual([422, 'AMOUNT_MISMATCH']);
    const transaction = await buildPaymentTransaction({ signer: p.client.signer, order: { id: order.id, price: 1 }, config, blockhash: await fetchPaymentBlockhash(config, server.url) });
    const lying = await accept(order, encodePaymentHeader({ transaction, amount: PRICE, destination: config.destination }));
    expect([lying.status, lying.body.error, lying.body.details.reason]).toEqual([422, 'AMOUNT_MISMATCH', 'transfer_amount']);
  });

  it('INSUFFICIENT_FUNDS (422): the consumer’s USDC balance is below the price; nothing is recorded', async () => {
    const poor = await agentAndConsumer(server.url);
    await fund(server.url, poor.client.address, 5);
    const order = await createOrder(poor, { price: PRICE });
    const res = await acceptOrder(server.url, poor, order);
    expect([res.status, res.body.error, res.body.message, res.body.details]).toEqual([422, 'INSUFFICIENT_FUNDS', 'The wallet has insufficient USDC balance', { balance: 5, required: PRICE }]);
    expect((await poor.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('PENDING');
    // Funded later, the consumer can pay the same order.
    await fund(server.url, poor.client.address, 10);
    expect((await acceptOrder(server.url, poor, order)).status).toBe(200);
  });

  it('INVALID_SIGNATURE (401): a transaction whose signature does not verify', async () => {
    const order = await createOrder(p);
    const transaction = await buildPaymentTransaction({ signer: p.client.signer, order, config, blockhash: await fetchPaymentBlockhash(config, server.url) });
    transaction[10]! ^= 0xff; // inside the first signature
    const res = await accept(order, encodePaymentHeader({ transaction, amount: PRICE, destination: config.destination }));
    expect([res.status, res.body.error, res.body.details.reason]).toEqual([401, 'INVALID_SIGNATURE', 'wrong']);
  });

  it('UNAUTHORIZED_ACCESS (403): the transfer is signed by a wallet other than the consumer', async () => {
    const order = await createOrder(p);
    const other = walletFor(server.url);
    await fund(server.url, other.address, 50);
    const res = await accept(order, await paymentHeader(server.url, other, order, config));
    expect([res.status, res.body.error, res.body.details?.reason]).toEqual([403, 'UNAUTHORIZED_ACCESS', 'authority']);
  });

  it('UNAUTHORIZED_ACCESS (403): a clientWallet other than the signing wallet; another wallet than the order’s consumer', async () => {
    const order = await createOrder(p);
    const header = await paymentHeader(server.url, p.client, order, config);
    const other = walletFor(server.url);
    const claimed = await p.client.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: other.address, paymentMethod: 'usdc', paymentHeader: header });
    expect([claimed.status, claimed.body.error]).toEqual([403, 'UNAUTHORIZED_ACCESS']);
    expect(claimed.body.message).toBe('clientWallet must be the signing wallet');
    // The stranger pays with a valid transfer of their own, so only the consumer-only rule can refuse it.
    await fund(server.url, other.address, 50);
    const strangersHeader = await paymentHeader(server.url, other, order, config);
    const stranger = await other.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: other.address, paymentMethod: 'usdc', paymentHeader: strangersHeader });
    expect([stranger.status, stranger.body.error, stranger.body.message]).toEqual([403, 'UNAUTHORIZED_ACCESS', 'Only the consumer of this order can accept it']);
    expect(await usdcBalance(server.url, other.address, config)).toBe(50_000_000n);
    expect((await acceptOrder(server.url, p, order, header)).status).toBe(200); // nothing was used up
  });

  it('ORDER_NOT_FOUND (404) for an unknown order; AGENT_NOT_FOUND (404) once the order’s agent is deleted', async () => {
    const unknown = await acceptOrder(server.url, p, { id: '00000000-0000-4000-8000-000000000000', price: PRICE });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'ORDER_NOT_FOUND']);
    const parties = await agentAndConsumer(server.url);
    await fund(server.url, parties.client.address, 20);
    const order = await createOrder(parties);
    expect((await parties.agent.rest('DELETE', `/api/agents/${parties.agentId}`)).status).toBe(204);
    const res = await acceptOrder(server.url, parties, order);
    expect([res.status, res.body.error]).toEqual([404, 'AGENT_NOT_FOUND']);
    expect(await usdcBalance(server.url, parties.client.address, config)).toBe(20_000_000n);
  });

  it('TRANSACTION_FAILED (422) when the chain refuses it; resending it gets the chain’s answer again, a fresh one pays', async () => {
    const order = await createOrder(p);
    const stale = { blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', lastValidBlockHeight: 1n }; // unknown to the ledger
    const transaction = await buildPaymentTransaction({ signer: p.client.signer, order, config, blockhash: stale });
    const header = encodePaymentHeader({ transaction, amount: PRICE, destination: config.destination });
    const res = await accept(order, header);
    expect([res.status, res.body.error, res.body.message]).toEqual([422, 'TRANSACTION_FAILED', 'The blockchain rejected the transaction']);
    expect(res.body.details.reason).toEqual(expect.any(String)); // the chain's own words
    const again = await accept(order, header);
    expect([again.status, again.body.error]).toEqual([422, 'TRANSACTION_FAILED']);
    expect((await acceptOrder(server.url, p, order)).status).toBe(200); // a fresh transaction pays it
    const after = await accept(order, header);
    expect([after.status, after.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
  });

  it('a payment the chain refused does not hold the order: it can still be cancelled', async () => {
    const order = await createOrder(p);
    const stale = { blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', lastValidBlockHeight: 1n };
    const transaction = await buildPaymentTransaction({ signer: p.client.signer, order, config, blockhash: stale });
    const refused = await accept(order, encodePaymentHeader({ transaction, amount: PRICE, destination: config.destination }));
    expect([refused.status, refused.body.error]).toEqual([422, 'TRANSACTION_FAILED']);
    const cancel = await p.client.rest('POST', `/api/orders/${order.id}/cancel`, {});
    expect([cancel.status, cancel.body.status]).toEqual([200, 'CANCELLED']);
  });

  it('INSUFFICIENT_FUNDS (422) from the chain when the consumer has USDC but no SOL for the fee; the same transaction pays once it has', async () => {
    const parties = await agentAndConsumer(server.url);
    const ledger = server.services.payments.ledger as LiteSvmLedger;
    await ledger.mintTo(parties.client.address, PRICE_MICRO); // USDC only: the balance check passes, the fee cannot be paid
    const order = await createOrder(parties);
    const header = await paymentHeader(server.url, parties.client, order, config);
    const refused = await acceptOrder(server.url, parties, order, header);
    expect([refused.status, refused.body.error, refused.body.message]).toEqual([422, 'INSUFFICIENT_FUNDS', 'The wallet has insufficient USDC balance']);
    expect(refused.body.details.reason).toEqual(expect.any(String));
    expect((await parties.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('PENDING');
    // On this ledger the blockhash stands still: the SDK builds the very same transaction again, and it may pay now.
    expect(await paymentHeader(server.url, parties.client, order, config)).toBe(header);
    await ledger.airdrop(parties.client.address, 10_000_000n);
    const paid = await acceptOrder(server.url, parties, order, header);
    expect([paid.status, paid.body.status]).toEqual([200, 'PAID']);
    expect(await usdcBalance(server.url, parties.client.address, config)).toBe(0n);
    // It paid; it pays nothing more (another order: its memo names this one; a memo-less replay: the test below).
    const again = await acceptOrder(server.url, parties, order, header);
    expect([again.status, again.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
  });

  it('a transaction that paid one order never pays another (replay refused, nothing charged)', async () => {
    const first = await createOrder(p);
    const second = await createOrder(p);
    const transaction = await transferWithoutMemo(p.client, config, server.url);
    const header = encodePaymentHeader({ transaction, amount: PRICE, destination: config.destination });
    expect((await accept(first, header)).status).toBe(200);
    const balance = await usdcBalance(server.url, p.client.address, config);
    const replay = await accept(second, header);
    expect([replay.status, replay.body.error, replay.body.message, replay.body.details]).toEqual([
      400,
      'INVALID_PAYMENT_HEADER',
      'This transaction has already been submitted as a payment',
      { reason: 'replayed', txSignature: expect.any(String) },
    ]);
    expect(await usdcBalance(server.url, p.client.address, config)).toBe(balance);
    expect((await p.client.rest('GET', `/api/orders/${second.id}`)).body.status).toBe('PENDING');
  });

  it('validates the body (422) and refuses paymentMethod other than usdc', async () => {
    const order = await createOrder(p);
    const res = await p.client.rest('POST', `/api/orders/${order.id}/accept`, { clientWallet: p.client.address, paymentMethod: 'card', paymentHeader: '' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.details).sort()).toEqual(['paymentHeader', 'paymentMethod']);
  });

  it('POST /dev/faucet validates its body (422); an amount of 0 sends SOL only, no token account', async () => {
    const res = await publicCall(server.url, 'POST', '/dev/faucet', { wallet: 'nope', amount: -1 });
    expect(res.status).toBe(422);
    const wallet = generateKeypair().address;
    const sol = await publicCall(server.url, 'POST', '/dev/faucet', { wallet, amount: 0 });
    expect([sol.status, sol.body]).toEqual([200, { wallet, amount: 0, balance: 0, signature: expect.any(String) }]);
    expect(await lamportsOf(server.url, wallet, config)).toBe(1_000_000_000n);
    expect(await server.services.payments.ledger.canReceiveUsdc(wallet)).toBe(false);
  });

  it('AGENT_TOKEN_ACCOUNT_MISSING (422): an agent without its USDC token account cannot create an order; nothing is created', async () => {
    const parties = await agentAndConsumer(server.url, { tokenAccount: false });
    const refused = await parties.agent.rest('POST', '/api/orders', orderBody(parties));
    expect([refused.status, refused.body.error, refused.body.details]).toEqual([422, 'AGENT_TOKEN_ACCOUNT_MISSING', await missingAccount(parties, config)]);
    expect(refused.body.message).toMatch(/create its associated token account for the USDC mint \(your wallet pays its rent\)/);
    expect((await parties.agent.rest('GET', '/api/orders')).body.total).toBe(0);
    expect((await publicCall<{ totalOrders: number }>(server.url, 'GET', `/api/agents/${parties.agentId}`)).body.totalOrders).toBe(0);
    // Created by the agent (the SDK's createUsdcTokenAccount, its own SOL paying the rent), the order can be made.
    const opened = await openTokenAccount(server.url, parties.agent, config);
    expect(opened).toEqual({ tokenAccount: (await missingAccount(parties, config)).tokenAccount, signature: expect.any(String) });
    expect((await parties.agent.rest('POST', '/api/orders', orderBody(parties))).status).toBe(201);
  });

  it('an agent that closed its token account after creating an order: 422 on accept, nothing charged; paid once it exists again, the marketplace paying no rent', async () => {
    const parties = await agentAndConsumer(server.url);
    await fund(server.url, parties.client.address, 20);
    const order = await createOrder(parties, { price: PRICE });
    await closeTokenAccount(server.url, parties.agent, config);
    const marketplaceSol = await lamportsOf(server.url, config.destination, config);
    const header = await paymentHeader(server.url, parties.client, order, config);
    const refused = await acceptOrder(server.url, parties, order, header);
    expect([refused.status, refused.body.error, refused.body.details]).toEqual([422, 'AGENT_TOKEN_ACCOUNT_MISSING', await missingAccount(parties, config)]);
    expect(refused.body.message).toBe("The agent's wallet has no USDC token account to receive its share; nothing was charged. Pay once the agent has created it");
    expect(await usdcBalance(server.url, parties.client.address, config)).toBe(20_000_000n);
    expect((await parties.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('PENDING');
    expect(await lamportsOf(server.url, config.destination, config)).toBe(marketplaceSol);

    await openTokenAccount(server.url, parties.agent, config);
    const paid = await acceptOrder(server.url, parties, order, header); // the same payment, unused so far
    expect([paid.status, paid.body.status]).toEqual([200, 'PAID']);
    expect(await usdcBalance(server.url, parties.agent.address, config)).toBe(11_250_000n);
    expect(await usdcBalance(server.url, parties.client.address, config)).toBe(20_000_000n - PRICE_MICRO);
    // The marketplace paid the fee of its one transaction, the agent's share, and no rent.
    expect(await lamportsOf(server.url, config.destination, config)).toBe(marketplaceSol - SIGNATURE_FEE);
  });
});

describe('accept: authentication and rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(); // rate limits on, as in production
  });
  afterAll(() => server?.destroy());

  it('INVALID_SIGNATURE (401) without the wallet headers; RATE_LIMIT_EXCEEDED (429) beyond 10 accepts a minute per wallet', async () => {
    const parties = await agentAndConsumer(server.url);
    const order = await createOrder(parties);
    const body = { clientWallet: parties.client.address, paymentMethod: 'usdc', paymentHeader: 'e30=' };
    const unsigned = await publicCall(server.url, 'POST', `/api/orders/${order.id}/accept`, body);
    expect([unsigned.status, (unsigned.body as { error: string }).error]).toEqual([401, 'INVALID_SIGNATURE']);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await parties.client.rest('POST', `/api/orders/${order.id}/accept`, body)).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true); // an empty header, refused, but counted
    const limited = await parties.client.rest('POST', `/api/orders/${order.id}/accept`, body);
    expect([limited.status, limited.body.error, limited.headers.get('x-ratelimit-limit')]).toEqual([429, 'RATE_LIMIT_EXCEEDED', '10']);
    expect(statuses[10]).toBe(429);
  });
});

describe('accept and pay through a real-cluster ledger (JSON-RPC stand-in on 127.0.0.1)', () => {
  let chain: LiteSvmLedger;
  let node: Server;
  let nodeUrl: string;
  /** While set, the stand-in answers this JSON-RPC method with HTTP 503 (an overloaded or unreachable node). */
  let refuse: string | undefined;
  /** While set, the stand-in lets this many sendTransaction calls through, then refuses the next as invalid: the node's verdict, not an outage. */
  let refuseSendAfter: number | undefined;
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    chain = await LiteSvmLedger.open();
    node = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk)).on('end', async () => {
        if (refuse && body.includes(`"${refuse}"`)) return void res.writeHead(503).end();
        if (refuseSendAfter !== undefined && body.includes('"sendTransaction"') && refuseSendAfter-- === 0) {
          refuseSendAfter = undefined;
          const { id } = JSON.parse(body) as { id: unknown };
          return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'invalid transaction (stand-in)' } }));
        }
        const answer = await answerSolanaRpc(chain, JSON.parse(body));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(stringifyWithBigInts(answer));
      });
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;

    // The marketplace wallet of the real-cluster setup: a keypair file, with SOL for fees on the chain.
    dir = mkdtempSync(join(tmpdir(), 'tp-rpc-'));
    const marketplace = generateKeypair();
    writeFileSync(join(dir, 'marketplace.json'), JSON.stringify([...marketplace.secretKey]));
    await chain.airdrop(marketplace.address, 10_000_000_000n);
    server = await startTestServer({
      rateLimits: 'off',
      ledger: { kind: 'rpc', url: nodeUrl, publicRpcUrl: nodeUrl, cluster: 'localnet', mint: chain.mint, marketplaceKeypair: join(dir, 'marketplace.json'), confirmTimeoutMs: 1500 },
    });
  });
  afterAll(async () => {
    await server?.destroy();
    await new Promise((resolve) => node?.close(resolve));
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function fundedParties() {
    const parties = await agentAndConsumer(server.url);
    await chain.mintTo(parties.client.address, 100_000_000n);
    await chain.airdrop(parties.client.address, 1_000_000_000n);
    return parties;
  }

  it('advertises the cluster’s RPC, and a payment settles on the chain with exact shares', async () => {
    const config = await paymentConfig(server.url);
    expect(config).toMatchObject({ rpcUrl: nodeUrl, mint: chain.mint, cluster: 'localnet' });
    const parties = await fundedParties();
    const order = await createOrder(parties, { price: PRICE });
    const res = await acceptOrder(server.url, parties, order);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await chain.usdcBalance(parties.client.address)).toBe(100_000_000n - PRICE_MICRO);
    expect(await chain.usdcBalance(parties.agent.address)).toBe(11_250_000n);
    expect(await chain.usdcBalance(config.destination)).toBe(1_250_000n);
    expect(await chain.status(res.body.txSignature)).toBe('succeeded');
  });

  it('an outage while submitting answers 503 TRANSACTION_FAILED with Retry-After; the payment is settled once the chain is back', async () => {
    const parties = await fundedParties();
    const order = await createOrder(parties, { price: PRICE });
    const header = await paymentHeader(server.url, parties.client, order);
    const retryKey = { 'Idempotency-Key': `accept-${order.id}` };
    refuse = 'sendTransaction';
    let res;
    try {
      res = await acceptOrder(server.url, parties, order, header, retryKey);
    } finally {
      refuse = undefined;
    }
    expect([res.status, res.body.error, res.body.message, res.body.details]).toEqual([
      503,
      'TRANSACTION_FAILED',
      'The blockchain cannot be reached right now; the payment will be settled when it can',
      { reason: 'unavailable' },
    ]);
    expect(res.headers.get('retry-after')).toBe('5');
    // Neither the outage nor "still in flight" is remembered under the Idempotency-Key: a retry sees the order as it is.
    const retried = await acceptOrder(server.url, parties, order, header, retryKey);
    expect([retried.status, retried.body.details, retried.headers.get('idempotent-replayed')]).toEqual([409, { status: 'PENDING', operation: 'accept', reason: 'payment-in-progress' }, null]);
    expect(retried.body.message).toBe('A payment for this order is already in progress');
    // In flight: neither a second payment (another transaction: same transfer plus a compute limit) nor a cancellation may slip in.
    const other = await buildPaymentHeader({ signer: parties.client.signer, order, config: await paymentConfig(server.url), baseUrl: server.url, computeUnitLimit: 20_000 });
    const second = await acceptOrder(server.url, parties, order, other);
    expect([second.status, second.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
    const cancel = await parties.client.rest('POST', `/api/orders/${order.id}/cancel`, {});
    expect([cancel.status, cancel.body.error, cancel.body.message, cancel.body.details]).toEqual([
      409,
      'INVALID_STATUS_TRANSITION',
      'A payment for this order is in progress',
      { status: 'PENDING', operation: 'cancel' },
    ]);

    // Still down: reconciliation leaves it in flight and says so.
    refuse = 'sendTransaction';
    try {
      expect(await server.services.payments.reconcile(0)).toEqual({ settled: 0, failed: 0, pending: 1 });
    } finally {
      refuse = undefined;
    }
    expect(await server.services.payments.reconcile(0)).toMatchObject({ settled: 1 });
    const paid = (await parties.client.rest('GET', `/api/orders/${order.id}`)).body;
    expect(paid).toMatchObject({ status: 'PAID', agentAmount: 11.25, commissionAmount: 1.25 });
    const settled = await acceptOrder(server.url, parties, order, header, retryKey);
    expect([settled.status, settled.body.details?.status]).toEqual([409, 'PAID']);
    expect(await chain.usdcBalance(parties.client.address)).toBe(100_000_000n - PRICE_MICRO);
    expect(await chain.usdcBalance(parties.agent.address)).toBe(11_250_000n);
  });

  it('an outage while signing the agent’s share (before anything is sent) is 503 too, never 500; nothing moved, the same payment pays later', async () => {
    const parties = await fundedParties();
    const order = await createOrder(parties, { price: PRICE });
    const header = await paymentHeader(server.url, parties.client, order);
    refuse = 'getLatestBlockhash'; // the payout needs a fresh blockhash; the consumer's transfer does not
    let res;
    try {
      res = await acceptOrder(server.url, parties, order, header);
    } finally {
      refuse = undefined;
    }
    expect([res.status, res.body.error, res.headers.get('retry-after')]).toEqual([503, 'TRANSACTION_FAILED', '5']);
    // The split is signed before the payment is recorded or the consumer's transfer sent: nothing happened.
    expect(await chain.usdcBalance(parties.client.address)).toBe(100_000_000n);
    expect(await server.services.payments.reconcile(0)).toEqual({ settled: 0, failed: 0, pending: 0 });
    expect((await parties.client.rest('GET', `/api/orders/${order.id}`)).body.status).toBe('PENDING');
    expect((await acceptOrder(server.url, parties, order, header)).status).toBe(200);
    expect(await chain.usdcBalance(parties.agent.address)).toBe(11_250_000n);
    expect(await chain.usdcBalance(parties.client.address)).toBe(100_000_000n - PRICE_MICRO);
  });

  it('an agent share the chain refuses is signed anew: 503 split-failed now, the agent paid by reconciliation', async () => {
    const parties = await fundedParties();
    const order = await createOrder(parties, { price: PRICE });
    const header = await paymentHeader(server.url, parties.client, order);
    refuseSendAfter = 1; // the consumer's transfer goes through; the agent's share is refused
    let res;
    try {
      res = await acceptOrder(server.url, parties, order, header);
    } finally {
      refuseSendAfter = undefined;
    }
    expect([res.status, res.body.error, res.body.details?.reason, res.body.message]).toEqual([
      503,
      'TRANSACTION_FAILED',
      'split-failed',
      'The payment was received; forwarding the agent share failed and will be retried',
    ]);
    expect(await chain.usdcBalance(parties.agent.address)).toBe(0n);
    expect(await server.services.payments.reconcile(0)).toMatchObject({ settled: 1 });
    expect((await parties.client.rest('GET', `/api/orders/${order.id}`)).body).toMatchObject({ status: 'PAID', agentAmount: 11.25 });
    expect(await chain.usdcBalance(parties.agent.address)).toBe(11_250_000n);
    expect(await chain.usdcBalance(parties.client.address)).toBe(100_000_000n - PRICE_MICRO);
  });

  it('the agent’s token account is checked on the cluster: 422 without it, 503 while the node cannot be reached; the payout pays no rent', async () => {
    const config = await paymentConfig(server.url);
    const parties = await agentAndConsumer(server.url, { tokenAccount: false });
    await chain.mintTo(parties.client.address, 100_000_000n);
    await chain.airdrop(parties.client.address, 1_000_000_000n);
    const refused = await parties.agent.rest('POST', '/api/orders', orderBody(parties));
    expect([refused.status, refused.body.error, refused.body.details]).toEqual([422, 'AGENT_TOKEN_ACCOUNT_MISSING', await missingAccount(parties, config)]);

    await openTokenAccount(server.url, parties.agent, config); // through the cluster's RPC, paid by the agent
    refuse = 'getAccountInfo';
    let down;
    try {
      down = await parties.agent.rest('POST', '/api/orders', orderBody(parties));
    } finally {
      refuse = undefined;
    }
    expect([down.status, down.body.error, down.body.details, down.headers.get('retry-after')]).toEqual([503, 'SERVICE_UNAVAILABLE', { reason: 'ledger-unavailable' }, '5']);

    const order = await createOrder(parties, { price: PRICE });
    const marketplaceSol = await lamportsOf(server.url, config.destination, config);
    expect((await acceptOrder(server.url, parties, order)).status).toBe(200);
    expect(await chain.usdcBalance(parties.agent.address)).toBe(11_250_000n);
    expect(await lamportsOf(server.url, config.destination, config)).toBe(marketplaceSol - SIGNATURE_FEE);
  });

  it('has no faucet and no dev RPC of its own (404)', async () => {
    expect((await publicCall(server.url, 'POST', '/dev/faucet', { wallet: generateKeypair().address, amount: 1 })).status).toBe(404);
    expect((await publicCall(server.url, 'POST', '/dev/solana-rpc', { jsonrpc: '2.0', id: 1, method: 'getHealth' })).status).toBe(404);
  });
});

