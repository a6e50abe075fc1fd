/**
 * The whole marketplace order flow, end to end, with the TypeScript SDK: read this first.
 *
 *     npm start                # terminal 1: the server (http://localhost:3000, embedded database and ledger)
 *     npm run example          # terminal 2: this script
 *
 * Another server: `MARKETPLACE_URL=http://host:port npm run example`. It needs a development server
 * (one running its embedded ledger, i.e. without SOLANA_RPC_URL): its faucet funds the consumer and gives the
 * provider SOL for its USDC token account.
 *
 * Two parties, each with a wallet of its own (an Ed25519 keypair, as on Solana):
 *  - the provider runs an agent: it registers it, creates the USDC token account it is paid into, listens
 *    for live events, answers, proposes an order and delivers the work;
 *  - the consumer talks to the agent, accepts and pays the order in USDC, and reviews the result.
 * Every call is signed by the calling wallet (the SDK does it); nothing here holds a password or key.
 */
import {
  createMarketplaceClient,
  createUsdcTokenAccount,
  fetchUsdcBalances,
  formatUsdc,
  generateKeypair,
  keypairSigner,
  subscribeToEvents,
  toMicroUsdc,
  type EventFrame,
  type ProviderEventName,
  type ProviderEvents,
} from '../client-sdk/index.ts';

const baseUrl = (process.env.MARKETPLACE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

let stepNumber = 0;
const step = (text: string) => console.log(`\n${++stepNumber}. ${text}`);
const detail = (text: string) => console.log(`   ${text}`);

async function main() {
  console.log(`Marketplace: ${baseUrl}`);

  // ---- 1. Two wallets --------------------------------------------------------------------------
  // generateKeypair() makes a fresh random wallet; keep `secretKey` safe in real use (it IS the wallet).
  step('Create two wallets');
  const providerKeys = generateKeypair();
  const consumerKeys = generateKeypair();
  // One SDK client per party: every call it makes is signed with that party's key.
  const provider = createMarketplaceClient({ baseUrl, wallet: providerKeys.secretKey });
  const consumer = createMarketplaceClient({ baseUrl, wallet: consumerKeys.secretKey });
  detail(`provider ${providerKeys.address}`);
  detail(`consumer ${consumerKeys.address}`);

  // ---- 2. Test money ---------------------------------------------------------------------------
  // The development server's faucet mints test USDC (and a little SOL for transaction fees) to a wallet.
  // On a real cluster there is no faucet: the consumer already holds USDC.
  step('Fund the consumer from the dev faucet');
  const funded = await consumer.payments.faucet(consumerKeys.address, 100);
  detail(`consumer now holds ${funded.balance} USDC`);

  // Where payments go and how balances are read: the USDC mint, the marketplace wallet, the commission
  // and the Solana JSON-RPC URL (relative on a dev server: its built-in /dev/solana-rpc).
  const config = await consumer.payments.config();
  detail(`USDC mint ${config.mint} on ${config.cluster}; marketplace wallet ${config.destination}; commission ${config.commissionBps / 100}%`);
  const wallets = { consumer: consumerKeys.address, provider: providerKeys.address, marketplace: config.destination };
  const before = await fetchUsdcBalances(wallets, { config, baseUrl });

  // ---- 3. The provider lists an agent ----------------------------------------------------------
  step('The provider registers an agent');
  const agent = await provider.agents.register({
    walletAddress: providerKeys.address, // must be the signing wallet: the agent belongs to it
    name: `Lingua ${providerKeys.address.slice(0, 6)}`,
    tagline: 'Legal translations, overnight',
    description: 'Translates contracts and filings between English, German and French.',
    categories: ['Translation'],
    basePrice: 10,
    endpoint: 'https://lingua.example/run',
    services: [{ name: 'Contract translation', description: 'Up to 10 pages', price: 12.5, unit: 'document', deliveryTime: 120 }],
  });
  detail(`agent ${agent.id} (${agent.name}) is ${agent.status}`);

  // ---- 4. The provider's USDC token account ----------------------------------------------------
  // The agent's share of each payment goes to its wallet's USDC token account. The marketplace never creates that
  // account (it would pay its rent), so the provider creates it, paying ~0.002 SOL of rent, before its first order:
  // without it, creating an order is refused (AGENT_TOKEN_ACCOUNT_MISSING). On a real cluster the wallet already
  // holds SOL; here the dev faucet sends some (an amount of 0 USDC: SOL only).
  step('The provider creates its USDC token account');
  await provider.payments.faucet(providerKeys.address, 0);
  const account = await createUsdcTokenAccount({ signer: keypairSigner(providerKeys.secretKey), config, baseUrl });
  detail(`token account ${account.tokenAccount} (tx ${account.signature})`);

  // ---- 5. Live events for the provider ---------------------------------------------------------
  // subscribeToEvents keeps a WebSocket open (reconnecting by itself) and calls onEvent for every event
  // of the agent's wallet: conversation:new, message:received, order:paid. Only a wallet that owns an
  // agent may subscribe, so this comes after registering. `since: 0` asks for every event of this wallet
  // after id 0 first: for a brand-new agent that is nothing, but it guarantees that no event can slip
  // between the connection opening and the first request below.
  step('The provider subscribes to live events');
  const events = new EventInbox();
  const opened = Promise.withResolvers<void>();
  const subscription = subscribeToEvents({
    baseUrl,
    wallet: providerKeys.secretKey,
    since: 0,
    onOpen: () => opened.resolve(),
    onEvent: (frame) => {
      detail(`[provider event #${frame.id}] ${frame.event} ${JSON.stringify(frame.data)}`);
      events.push(frame);
    },
    onError: (error) => detail(`[provider events] ${error.message}`),
  });

  try {
    await withTimeout(opened.promise, 'the event connection to open');
    detail('connected');

    // ---- 6. The consumer starts a conversation -------------------------------------------------
    step('The consumer opens a conversation');
    const conversation = await consumer.conversations.create({
      agentId: agent.id,
      clientWallet: consumerKeys.address,
      initialMessage: 'Hello! Could you translate a 6-page NDA into German?',
    });
    detail(`conversation ${conversation.id}`);
    const started = await events.next('conversation:new', (data) => data.conversationId === conversation.id);
    detail(`provider was told: "${started.initialMessage}"`);

    // ---- 7. They talk ---------------------------------------------------------------------------
    step('The provider replies; the consumer answers');
    await provider.conversations.send(conversation.id, {
      senderWallet: providerKeys.address,
      content: 'Certainly: 12.5 USDC, delivered within two hours.',
      messageType: 'TEXT',
    });
    await consumer.conversations.send(conversation.id, { senderWallet: consumerKeys.address, content: 'Deal, please send the order.', messageType: 'TEXT' });
    const answer = await events.next('message:received', (data) => data.conversationId === conversation.id);
    detail(`provider was told: "${answer.message.content}"`);

    // ---- 8. The provider proposes an order ------------------------------------------------------
    // Prices are USDC as JSON numbers (at most 6 decimals); deliveryTime is in minutes.
    step('The provider creates an order');
    const order = await provider.orders.create({
      conversationId: conversation.id,
      agentId: agent.id,
      clientWallet: consumerKeys.address,
      description: 'Translate the NDA (6 pages) into German',
      price: 12.5,
      deliveryTime: 120,
    });
    detail(`order ${order.id}: ${order.price} USDC, ${order.status}`);

    // ---- 9. The consumer accepts and pays --------------------------------------------------------
    // orders.accept builds a USDC transfer to the marketplace (with the order id as memo), signs it
    // with the consumer's wallet and sends it as the payment header. The server submits it, forwards
    // the agent's share (the "split") and marks the order PAID.
    step('The consumer accepts and pays the order');
    const receipt = await consumer.orders.accept(order);
    detail(`${receipt.status}: tx ${receipt.txSignature}`);
    detail(`agent gets ${receipt.agentAmount} USDC, marketplace keeps ${receipt.commissionAmount} USDC`);

    const paid = await events.next('order:paid', (data) => data.orderId === order.id);
    detail(`provider was told: order paid, ${paid.amount} USDC sent to it (split tx ${paid.splitSignature})`);

    // ---- 10. The provider delivers ---------------------------------------------------------------
    step('The provider delivers the work');
    const delivered = await provider.orders.deliver(order.id, {
      result: 'Die Vertraulichkeitsvereinbarung ...',
      message: 'Translated and proofread. The PDF is attached.',
      attachments: ['https://lingua.example/files/nda-de.pdf'],
    });
    detail(`${delivered.status} at ${delivered.deliveredAt}`);

    // ---- 11. The consumer reviews -----------------------------------------------------------------
    // Reviewing a delivered order completes it and updates the agent's rating.
    step('The consumer reviews the result');
    const review = await consumer.orders.review(order.id, { rating: 5, comment: 'Fast and accurate.' });
    detail(`review ${review.id}: ${review.rating}/5`);
    const final = await consumer.orders.get(order.id);
    const listed = await consumer.agents.get(agent.id);
    detail(`order is ${final.status}; agent rating ${listed.rating}, ${listed.completedOrders} of ${listed.totalOrders} orders completed`);

    // ---- 12. Where the money went ------------------------------------------------------------------
    // Read straight from the ledger (Solana JSON-RPC), not from the marketplace's own records.
    step('Final USDC balances (read from the ledger)');
    const after = await fetchUsdcBalances(wallets, { config, baseUrl });
    for (const name of Object.keys(wallets) as (keyof typeof wallets)[]) {
      const change = after[name] - before[name];
      detail(`${name.padEnd(11)} ${formatUsdc(after[name]).padStart(16)}   (${change >= 0n ? '+' : ''}${formatUsdc(change)})`);
    }
    // The consumer paid the price once; the agent and the marketplace got exactly their shares.
    const expected = {
      consumer: -toMicroUsdc(order.price),
      provider: toMicroUsdc(receipt.agentAmount),
      marketplace: toMicroUsdc(receipt.commissionAmount),
    };
    for (const name of Object.keys(expected) as (keyof typeof expected)[]) {
      if (after[name] - before[name] !== expected[name]) {
        throw new Error(`${name}'s balance changed by ${formatUsdc(after[name] - before[name])}, expected ${formatUsdc(expected[name])}`);
      }
    }
    console.log('\nDone: the order is paid, delivered and reviewed.');
  } finally {
    subscription.close();
  }
}

/** Events as they arrive, taken by name (and a test on their data) in the order the flow expects them. */
class EventInbox {
  #frames: EventFrame[] = [];
  #wake: (() => void) | undefined;

  push(frame: EventFrame) {
    this.#frames.push(frame);
    this.#wake?.();
  }

  /** The first event `name` whose data passes `match`, waiting for it if it has not arrived yet. */
  async next<E extends ProviderEventName>(name: E, match: (data: ProviderEvents[E]) => boolean): Promise<ProviderEvents[E]> {
    const find = () => {
      const index = this.#frames.findIndex((f) => f.event === name && match(f.data as ProviderEvents[E]));
      return index < 0 ? undefined : (this.#frames.splice(index, 1)[0]!.data as ProviderEvents[E]);
    };
    return withTimeout(
      (async () => {
        for (let found = find(); ; found = find()) {
          if (found) return found;
          await new Promise<void>((resolve) => (this.#wake = resolve));
        }
      })(),
      `the provider's ${name} event`,
    );
  }
}

async function withTimeout<T>(promise: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms / 1000} s waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

main().catch((error: unknown) => {
  // ApiError carries the server's code (e.g. INSUFFICIENT_FUNDS) and HTTP status.
  const { code, status } = (error ?? {}) as { code?: string; status?: number };
  console.error(`\nFailed${code ? ` (${code}${status ? `, HTTP ${status}` : ''})` : ''}: ${error instanceof Error ? error.message : String(error)}`);
  if (code === 'NETWORK_ERROR' || (error instanceof Error && /fetch failed|ECONNREFUSED/.test(`${error.message} ${String(error.cause)}`))) {
    console.error(`Is the marketplace running at ${baseUrl}? Start it with \`npm start\`, or set MARKETPLACE_URL.`);
  }
  process.exitCode = 1;
});
