/**
 * The order flow as a new user meets it: the whole flow through the SDK only, against the
 * real server, its real database (PGlite, or PostgreSQL with DATABASE_URL) and its LiteSVM ledger, with
 * every balance read back from the ledger; `examples/order-flow.ts` run as a process against a server
 * process; and two accepts of one order at once, which must charge the consumer exactly once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getBase64Encoder, getSignatureFromTransaction, getTransactionDecoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  buildPaymentHeader,
  createMarketplaceClient,
  createSignedFetch,
  createUsdcTokenAccount,
  fetchUsdcBalances,
  generateKeypair,
  keypairSigner,
  subscribeToEvents,
  toMicroUsdc,
  type EventFrame,
  type PaymentConfig,
} from '../../client-sdk/index.ts';
import { ProviderEvent } from '../../server/marketplace/entities.ts';
import { commissionMicro } from '../../server/marketplace/money.ts';
import { registration } from '../helpers/marketplace.ts';
import { usdcBalance } from '../helpers/orders.ts';
import { createTestDatabase, onPostgres, startTestServer, type TestServer } from '../helpers/server.ts';
import { startServerProcess, stopServerProcess } from '../helpers/server-process.ts';

const root = new URL('../..', import.meta.url).pathname;
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const SIGNATURE = expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

let server: TestServer;
let config: PaymentConfig;

beforeAll(async () => {
  // Rate limits stay on: the flow must fit in them (every party here is a fresh wallet).
  server = await startTestServer();
  config = await createMarketplaceClient({ baseUrl: server.url }).payments.config();
});
afterAll(() => server?.destroy());

/** A party: a fresh wallet and its SDK client. */
function party(baseUrl = server.url) {
  const { address, secretKey } = generateKeypair();
  return { address, secretKey, signer: keypairSigner(secretKey), sdk: createMarketplaceClient({ baseUrl, wallet: secretKey }) };
}
type Party = ReturnType<typeof party>;

/** Balances of the consumer, the agent's wallet and the marketplace wallet, in micro-USDC, from the ledger. */
const balances = (consumer: Party, provider: Party) =>
  fetchUsdcBalances({ consumer: consumer.address, provider: provider.address, marketplace: config.destination }, { config, baseUrl: server.url });

/** Frames of an SDK subscription, collected as they come. */
function collectEvents(provider: Party) {
  const frames: EventFrame[] = [];
  const errors: Error[] = [];
  const opened = Promise.withResolvers<void>();
  const subscription = subscribeToEvents({
    baseUrl: server.url,
    wallet: provider.secretKey,
    since: 0, // a new agent has no history; this only closes the gap between connecting and the first event
    onOpen: () => opened.resolve(),
    onEvent: (frame) => frames.push(frame),
    onError: (error) => errors.push(error),
  });
  return { frames, errors, opened: opened.promise, subscription };
}

describe('the order flow through the SDK', () => {
  it('talk, order, pay, deliver, review: exact ledger balances, the documented events, stats and rating', async () => {
    const provider = party();
    const consumer = party();

    // Money first: the faucet funds the consumer on the embedded ledger.
    const funded = await consumer.sdk.payments.faucet(consumer.address, 40);
    expect(funded).toEqual({ wallet: consumer.address, amount: 40, balance: 40, signature: SIGNATURE });
    const before = await balances(consumer, provider);
    expect(before.consumer).toBe(40_000_000n);
    expect(before.provider).toBe(0n); // no token account yet: the SDK reads 0

    const agent = await provider.sdk.agents.register(registration(provider.address, { basePrice: 7 }));
    expect(agent).toEqual({ id: expect.any(String), walletAddress: provider.address, name: expect.any(String), status: 'ACTIVE', createdAt: ISO });
    // The account the agent is paid into, created by its own wallet (SOL from the faucet: an amount of 0 USDC).
    expect(await provider.sdk.payments.faucet(provider.address, 0)).toEqual({ wallet: provider.address, amount: 0, balance: 0, signature: SIGNATURE });
    expect(await createUsdcTokenAccount({ signer: provider.signer, config, baseUrl: server.url })).toEqual({ tokenAccount: expect.any(String), signature: SIGNATURE });

    const events = collectEvents(provider);
    try {
      await events.opened;

      // conversation:new
      const conversation = await consumer.sdk.conversations.create({ agentId: agent.id, clientWallet: consumer.address, initialMessage: 'Can you translate my lease?' });
      expect(conversation).toMatchObject({ agentId: agent.id, clientWallet: consumer.address, status: 'ACTIVE' });
      await expect.poll(() => events.frames.length, { timeout: 10_000 }).toBe(1);
      expect(events.frames[0]).toEqual({
        id: expect.any(Number),
        event: 'conversation:new',
        data: { conversationId: conversation.id, clientWallet: consumer.address, initialMessage: 'Can you translate my lease?', createdAt: conversation.createdAt },
      });

      // The agent's own reply is no event; the consumer's answer is message:received.
      const reply = await provider.sdk.conversations.send(conversation.id, { senderWallet: provider.address, content: 'Yes: 9.876545 USDC, in an hour.', messageType: 'TEXT' });
      expect(reply).toMatchObject({ conversationId: conversation.id, senderWallet: provider.address, messageType: 'TEXT' });
      const answer = await consumer.sdk.conversations.send(conversation.id, { senderWallet: consumer.address, content: 'Go ahead.', messageType: 'TEXT' });
      await expect.poll(() => events.frames.length, { timeout: 10_000 }).toBe(2);
      expect(events.frames[1]).toEqual({
        id: expect.any(Number),
        event: 'message:received',
        data: {
          conversationId: conversation.id,
          message: { id: answer.id, senderWallet: consumer.address, content: 'Go ahead.', messageType: 'TEXT', createdAt: answer.createdAt },
        },
      });
      const history = await provider.sdk.conversations.messages(conversation.id);
      expect(history.messages.map((m) => m.content)).toEqual(['Can you translate my lease?', 'Yes: 9.876545 USDC, in an hour.', 'Go ahead.']);

      // A price whose 10% commission needs rounding: 9,876,545 micro x 10% = 987,654.5 -> 987,655 (half up).
      const order = await provider.sdk.orders.create({
        conversationId: conversation.id,
        agentId: agent.id,
        clientWallet: consumer.address,
        description: 'Translate the lease into French',
        price: 9.876545,
        deliveryTime: 60,
      });
      expect(order).toMatchObject({ status: 'PENDING', price: 9.876545, deliveryTime: 60, clientWallet: consumer.address, agentId: agent.id, txSignature: null });

      // Accept and pay: the SDK builds and signs the USDC transfer.
      const receipt = await consumer.sdk.orders.accept(order);
      const price = toMicroUsdc(order.price);
      const commission = commissionMicro(price, config.commissionBps);
      expect(receipt).toEqual({
        orderId: order.id,
        status: 'PAID',
        txSignature: SIGNATURE,
        agentAmount: 8.88889,
        commissionAmount: 0.987655,
        paidAt: ISO,
      });
      expect(toMicroUsdc(receipt.agentAmount)).toBe(price - commission);
      expect(toMicroUsdc(receipt.commissionAmount)).toBe(commission);

      // order:paid, with the agent's share as `amount`
      const paid = await consumer.sdk.orders.get(order.id);
      expect(paid).toMatchObject({ status: 'PAID', txSignature: receipt.txSignature, splitSignature: SIGNATURE, agentAmount: 8.88889, commissionAmount: 0.987655, paidAt: receipt.paidAt });
      await expect.poll(() => events.frames.length, { timeout: 10_000 }).toBe(3);
      expect(events.frames[2]).toEqual({
        id: expect.any(Number),
        event: 'order:paid',
        data: { orderId: order.id, conversationId: conversation.id, amount: 8.88889, txSignature: receipt.txSignature, splitSignature: paid.splitSignature, paidAt: receipt.paidAt },
      });
      // Exactly the documented data fields, nothing more; ids increase.
      expect(events.frames.map((f) => Object.keys(f.data).sort())).toEqual([
        ['clientWallet', 'conversationId', 'createdAt', 'initialMessage'],
        ['conversationId', 'message'],
        ['amount', 'conversationId', 'orderId', 'paidAt', 'splitSignature', 'txSignature'],
      ]);
      const ids = events.frames.map((f) => f.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));

      // The ledger: consumer -price, agent +agentAmount, marketplace +commission, exactly.
      const after = await balances(consumer, provider);
      expect(after.consumer - before.consumer).toBe(-price);
      expect(after.provider - before.provider).toBe(price - commission);
      expect(after.marketplace - before.marketplace).toBe(commission);
      // Both transfers landed on the ledger; the SDK's reader agrees with a plain getTokenAccountBalance.
      expect(await server.services.payments.ledger.status(receipt.txSignature)).toBe('succeeded');
      expect(await server.services.payments.ledger.status(paid.splitSignature!)).toBe('succeeded');
      expect(await usdcBalance(server.url, consumer.address, config)).toBe(after.consumer);
      expect(await usdcBalance(server.url, provider.address, config)).toBe(after.provider);
      expect(await usdcBalance(server.url, config.destination, config)).toBe(after.marketplace);

      // Deliver, then review (which completes the order).
      const delivered = await provider.sdk.orders.deliver(order.id, { result: 'Le bail ...', message: 'Done', attachments: ['https://files.example.com/bail.pdf'] });
      expect(delivered).toEqual({ orderId: order.id, status: 'DELIVERED', deliveredAt: ISO });
      const review = await consumer.sdk.orders.review(order.id, { rating: 4, comment: 'Good, a day late.' });
      expect(review).toEqual({ id: expect.any(String), orderId: order.id, agentId: agent.id, clientWallet: consumer.address, rating: 4, comment: 'Good, a day late.', createdAt: ISO });

      const completed = await provider.sdk.orders.get(order.id);
      expect(completed).toMatchObject({
        status: 'COMPLETED',
        completedAt: ISO,
        deliveredAt: delivered.deliveredAt,
        delivery: { result: 'Le bail ...', message: 'Done', attachments: ['https://files.example.com/bail.pdf'] },
        review: { id: review.id, rating: 4, comment: 'Good, a day late.', createdAt: review.createdAt },
      });

      // Stats and rating follow.
      const detail = await consumer.sdk.agents.get(agent.id);
      expect(detail).toMatchObject({ rating: 4, totalOrders: 1, completedOrders: 1 });
      expect(detail.reviews).toEqual([{ id: review.id, rating: 4, comment: 'Good, a day late.', clientWallet: consumer.address, createdAt: review.createdAt }]);
      const stats = await provider.sdk.agents.stats(agent.id);
      expect(stats).toEqual({
        totalRevenue: 8.88889,
        totalOrders: 1,
        completedOrders: 1,
        cancelledOrders: 0,
        averageOrderValue: 9.876545,
        averageRating: 4,
        totalReviews: 1,
        averageResponseTime: expect.any(Number),
        completionRate: 100,
        revenueByMonth: [{ month: receipt.paidAt.slice(0, 7), revenue: 8.88889, orders: 1 }],
      });
      const listed = await consumer.sdk.orders.list({ status: 'COMPLETED' });
      expect(listed.orders.map((o) => o.id)).toEqual([order.id]);

      // No more events than the three (delivery and review are not provider events), and no errors.
      expect(events.frames).toHaveLength(3);
      expect(events.errors).toEqual([]);
      // Nothing moved on the ledger after the payment.
      expect(await balances(consumer, provider)).toEqual(after);
    } finally {
      events.subscription.close();
    }
  });
});

// ---- the example as a process ----------------------------------------------------------------

/** Runs a script to its end: exit code, stdout, stderr. */
function runScript(script: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const child = spawn(process.execPath, [script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // 'exit' may come before the pipes are drained
      child.stdout!.once('close', () => resolve({ code, signal, stdout, stderr }));
      if (child.stdout!.closed) resolve({ code, signal, stdout, stderr });
    }),
  );
}

describe('examples/order-flow.ts', () => {
  it('runs against a server process and exits 0, printing the final balances', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tp-example-'));
    const database = onPostgres ? await createTestDatabase() : undefined;
    const started = await startServerProcess(database?.config ?? 'pglite', { dataDir });
    try {
      const { DATABASE_URL: _db, ...env } = process.env;
      const run = await runScript('examples/order-flow.ts', { ...env, MARKETPLACE_URL: started.url }, 60_000);
      expect({ code: run.code, signal: run.signal }, `${run.stdout}\n${run.stderr}`).toEqual({ code: 0, signal: null });
      expect(run.stderr).not.toMatch(/Failed|Error/);

      const out = run.stdout;
      expect(out).toContain(`Marketplace: ${started.url}`);
      for (const event of ['conversation:new', 'message:received', 'order:paid']) expect(out).toContain(`] ${event} {`);
      expect(out).toMatch(/order is COMPLETED; agent rating 5, 1 of 1 orders completed/);
      // The final balances: 100 from the faucet, a 12.5 USDC order, 10% commission; a fresh ledger's marketplace holds only this one's.
      expect(out).toMatch(/Final USDC balances/);
      expect(out).toMatch(/consumer\s+87\.5 USDC\s+\(-12\.5 USDC\)/);
      expect(out).toMatch(/provider\s+11\.25 USDC\s+\(\+11\.25 USDC\)/);
      expect(out).toMatch(/marketplace\s+1\.25 USDC\s+\(\+1\.25 USDC\)/);
      expect(out).toMatch(/Done: the order is paid, delivered and reviewed\./);

      // What it printed is what the ledger holds.
      const consumer = /consumer ([1-9A-HJ-NP-Za-km-z]{32,44})\n/.exec(out)![1]!;
      const provider = /provider ([1-9A-HJ-NP-Za-km-z]{32,44})\n/.exec(out)![1]!;
      const childConfig = await createMarketplaceClient({ baseUrl: started.url }).payments.config();
      expect(await usdcBalance(started.url, consumer, childConfig)).toBe(87_500_000n);
      expect(await usdcBalance(started.url, provider, childConfig)).toBe(11_250_000n);
      expect(await usdcBalance(started.url, childConfig.destination, childConfig)).toBe(1_250_000n);

      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      await stopServerProcess(started, 'SIGKILL');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// ---- two accepts at once -------------------------------------------------------------------------

/** A funded consumer, an agent, their conversation and a PENDING order, all through the SDK. */
async function pendingOrder(price: number) {
  const provider = party();
  const consumer = party();
  await consumer.sdk.payments.faucet(consumer.address, 50);
  await provider.sdk.payments.faucet(provider.address, 0);
  await createUsdcTokenAccount({ signer: provider.signer, config, baseUrl: server.url });
  const agent = await provider.sdk.agents.register(registration(provider.address));
  const conversation = await consumer.sdk.conversations.create({ agentId: agent.id, clientWallet: consumer.address, initialMessage: 'Hi' });
  const order = await provider.sdk.orders.create({
    conversationId: conversation.id,
    agentId: agent.id,
    clientWallet: consumer.address,
    description: 'One thing',
    price,
    deliveryTime: 30,
  });
  return { provider, consumer, order, before: await balances(consumer, provider) };
}

/** `POST /api/orders/:id/accept` with a given header, signed by the consumer (the SDK's signed fetch). */
async function accept(consumer: Party, orderId: string, paymentHeader: string) {
  const res = await createSignedFetch(consumer.signer, server.url)(`/api/orders/${orderId}/accept`, {
    method: 'POST',
    body: JSON.stringify({ clientWallet: consumer.address, paymentMethod: 'usdc', paymentHeader }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The transaction signature inside a payment header. */
function headerSignature(header: string): string {
  const { payload } = JSON.parse(Buffer.from(header, 'base64').toString()) as { payload: { signedTransaction: string } };
  return getSignatureFromTransaction(getTransactionDecoder().decode(getBase64Encoder().encode(payload.signedTransaction)));
}

/** The order is PAID by `txSignature`; the ledger moved the price once; one order:paid was recorded. */
async function expectPaidOnce({ provider, consumer, order, before }: Awaited<ReturnType<typeof pendingOrder>>, txSignature: string) {
  const price = toMicroUsdc(order.price);
  const commission = commissionMicro(price, config.commissionBps);
  const paid = await consumer.sdk.orders.get(order.id);
  expect(paid).toMatchObject({ status: 'PAID', txSignature });
  expect(toMicroUsdc(paid.agentAmount!)).toBe(price - commission);
  expect(toMicroUsdc(paid.commissionAmount!)).toBe(commission);
  const after = await balances(consumer, provider);
  expect(after.consumer - before.consumer).toBe(-price);
  expect(after.provider - before.provider).toBe(price - commission);
  expect(after.marketplace - before.marketplace).toBe(commission);
  const recorded = await server.db.em().find(ProviderEvent, { event: 'order:paid', wallet: provider.address });
  expect(recorded.map((e) => e.data.orderId)).toEqual([order.id]);
}

/** A replay of a payment already in use: the state error, or the header's replay error. */
const isRefusedRepeat = (res: { status: number; body: Record<string, any> }) =>
  (res.status === 409 && res.body.error === 'INVALID_STATUS_TRANSITION') ||
  (res.status === 400 && res.body.error === 'INVALID_PAYMENT_HEADER' && res.body.details?.reason === 'replayed');

describe('two accepts of one order at once', () => {
  const ROUNDS = [1, 2, 3];

  it.for(ROUNDS)('two different valid payments (round %i): one 200, one 409 INVALID_STATUS_TRANSITION, charged once', async (_round) => {
    const setup = await pendingOrder(6.4);
    const { consumer, order } = setup;
    // Two distinct, valid transactions for the same order: the second carries a priority fee.
    const [first, second] = await Promise.all([
      buildPaymentHeader({ signer: consumer.signer, order, config, baseUrl: server.url }),
      buildPaymentHeader({ signer: consumer.signer, order, config, baseUrl: server.url, computeUnitLimit: 20_000, computeUnitPrice: 1n }),
    ]);
    const signatures = [headerSignature(first), headerSignature(second)];
    expect(signatures[0]).not.toBe(signatures[1]);

    const answers = await Promise.all([accept(consumer, order.id, first), accept(consumer, order.id, second)]);
    expect(answers.map((a) => a.status).sort(), JSON.stringify({ answers, errors: server.loggedErrors.slice(-3) })).toEqual([200, 409]);
    const winner = answers.findIndex((a) => a.status === 200);
    const loser = answers[1 - winner]!;
    expect(answers[winner]!.body).toMatchObject({ orderId: order.id, status: 'PAID', txSignature: signatures[winner] });
    expect(loser.body).toMatchObject({ error: 'INVALID_STATUS_TRANSITION', message: expect.any(String) });

    await expectPaidOnce(setup, signatures[winner]!);
    // The losing transaction never reached the ledger, and sending it again now changes nothing.
    expect(await server.services.payments.ledger.status(signatures[1 - winner]!)).toBe('unknown');
    const again = await accept(consumer, order.id, [first, second][1 - winner]!);
    expect([again.status, again.body.error]).toEqual([409, 'INVALID_STATUS_TRANSITION']);
    await expectPaidOnce(setup, signatures[winner]!);
  });

  it.for(ROUNDS)('the same payment twice (round %i): one 200, the other refused, charged once', async (_round) => {
    const setup = await pendingOrder(3.33);
    const { consumer, order } = setup;
    const header = await buildPaymentHeader({ signer: consumer.signer, order, config, baseUrl: server.url });

    const answers = await Promise.all([accept(consumer, order.id, header), accept(consumer, order.id, header)]);
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok, JSON.stringify(answers)).toHaveLength(1);
    expect(refused.every(isRefusedRepeat), JSON.stringify(refused)).toBe(true);
    await expectPaidOnce(setup, headerSignature(header));
  });

  it('through the SDK: orders.accept twice at once settles once', async () => {
    const setup = await pendingOrder(2.5);
    const { consumer, order } = setup;
    const results = await Promise.allSettled([consumer.sdk.orders.accept(order), consumer.sdk.orders.accept(order)]);
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(fulfilled, JSON.stringify(rejected.map((e) => [(e as ApiError).status, (e as ApiError).code, (e as Error).message]))).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    const error = rejected[0];
    expect(error).toBeInstanceOf(ApiError);
    expect(isRefusedRepeat({ status: (error as ApiError).status, body: { error: (error as ApiError).code, details: (error as ApiError).details } })).toBe(true);
    await expectPaidOnce(setup, fulfilled[0]!.value.txSignature);
  });
});
