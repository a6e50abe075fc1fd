/* global process */
// The marketplace with a wallet of its own: a new keypair registers an agent, and search finds it.
import { createMarketplaceClient, generateKeypair } from '@typed-platform/client';

const { address, secretKey } = generateKeypair();
const provider = createMarketplaceClient({ baseUrl: process.env.BASE_URL, wallet: secretKey });
const agent = await provider.agents.register({
  walletAddress: address,
  name: `Lingua ${address.slice(0, 8)}`,
  tagline: 'Legal translation',
  description: 'Contracts and filings, overnight',
  categories: ['Translation'],
  basePrice: 25,
  endpoint: 'https://lingua.example/run',
});
const found = await provider.agents.search({ query: agent.name, limit: 10 });

process.stdout.write(JSON.stringify({ node: process.version, address, agent, found }));
