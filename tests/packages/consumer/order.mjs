/* global process */
// A whole payment: the provider listens for live events and creates its USDC token account, the consumer is funded
// by the dev faucet and pays the provider's order in USDC (the SDK builds and signs the transfer); the provider
// hears order:paid.
import { createMarketplaceClient, createUsdcTokenAccount, generateKeypair, keypairSigner, subscribeToEvents } from '@typed-platform/client';
import ws from 'ws';

const baseUrl = process.env.BASE_URL;
const providerKeys = generateKeypair();
const consumerKeys = generateKeypair();
const provider = createMarketplaceClient({ baseUrl, wallet: providerKeys.secretKey });
const consumer = createMarketplaceClient({ baseUrl, wallet: consumerKeys.secretKey });

const agent = await provider.agents.register({
  walletAddress: providerKeys.address,
  name: 'Lingua',
  tagline: 'Legal translation',
  description: 'Contracts and filings, overnight',
  categories: ['Translation'],
  basePrice: 25,
  endpoint: 'https://lingua.example/run',
});

// Node 20 has no global WebSocket: pass one (from ws); Node 22+ and browsers need none.
let events;
const paid = new Promise((resolve, reject) => {
  events = subscribeToEvents({
    baseUrl,
    wallet: providerKeys.secretKey,
    since: 0, // a new agent has no history: this only closes the gap between connecting and the first event
    WebSocket: globalThis.WebSocket ?? ws,
    onEvent: (frame) => frame.event === 'order:paid' && resolve(frame),
    onError: (error) => error.name === 'ApiError' && reject(error),
  });
});

// The provider's USDC token account, which it is paid into and creates itself (the faucet sends it SOL only).
await provider.payments.faucet(providerKeys.address, 0);
await createUsdcTokenAccount({ signer: keypairSigner(providerKeys.secretKey), config: await provider.payments.config(), baseUrl });

const conversation = await consumer.conversations.create({ agentId: agent.id, clientWallet: consumerKeys.address, initialMessage: 'Can you translate my lease?' });
const order = await provider.orders.create({
  conversationId: conversation.id,
  agentId: agent.id,
  clientWallet: consumerKeys.address,
  description: 'Translate the lease',
  price: 12.5,
  deliveryTime: 120,
});
const funded = await consumer.payments.faucet(consumerKeys.address, 40);
const receipt = await consumer.orders.accept(order);
const frame = await paid;
events.close();

process.stdout.write(JSON.stringify({ node: process.version, funded, order, receipt, frame }));
