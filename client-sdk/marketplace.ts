import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../routers/index.ts';
import { call } from './errors.ts';
import { buildPaymentHeader, type PaymentConfig } from './payment.ts';
import { keypairSigner, signInit, type WalletSigner } from './wallet.ts';

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;

export type AgentRegistrationInput = Inputs['agents']['register'];
export type AgentUpdateInput = Omit<Inputs['agents']['update'], 'id'>;
export type AgentSearchInput = Inputs['agents']['search'];
export type AgentDetail = Outputs['agents']['get'];
export type AgentListItem = Outputs['agents']['search']['agents'][number];
export type AgentStats = Outputs['agents']['stats'];
export type Conversation = Outputs['conversations']['create'];
export type Message = Outputs['conversations']['send'];
export type Order = Outputs['orders']['get'];
export type OrderListItem = Outputs['orders']['list']['orders'][number];
export type PaymentReceipt = Outputs['orders']['accept'];
export type OrderReview = Outputs['orders']['review'];

export interface MarketplaceClientOptions {
  /** Server origin, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** Signs every call: a keypair's 64-byte secret key, or any signer (a browser wallet). Optional for public calls. */
  wallet?: WalletSigner | Uint8Array;
  fetch?: typeof globalThis.fetch;
}

/**
 * Typed client of the marketplace API (native tRPC under the hood). Every HTTP request is signed as
 * sent, with the server's host and the body (`v2:METHOD:host/trpc/...:timestamp:body SHA-256`), one call per
 * request so that each signature is used once.
 * Failures throw ApiError with the server's code (`AGENT_NOT_FOUND`, `INVALID_SIGNATURE`, ...).
 */
export function createMarketplaceClient({ baseUrl, wallet, fetch: fetchImpl = globalThis.fetch }: MarketplaceClientOptions) {
  const origin = baseUrl.replace(/\/$/, '');
  const signer = wallet instanceof Uint8Array ? keypairSigner(wallet) : wallet;
  const signedFetch: typeof fetch = async (input, init = {}) => {
    if (!signer) return fetchImpl(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    return fetchImpl(url, await signInit(signer, url.pathname + url.search, init, url.host));
  };
  const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${origin}/trpc`, fetch: signedFetch })] });
  const { agents, conversations, orders, payments } = trpc;
  let paymentConfig: Promise<PaymentConfig> | undefined;
  const wallet_ = () => {
    if (!signer) throw new TypeError('This call needs a wallet: pass `wallet` to createMarketplaceClient');
    return signer;
  };

  return {
    /** The signing wallet's address, if any. */
    address: signer?.address,
    agents: {
      search: (filters: AgentSearchInput = {}) => call(() => agents.search.query(filters)),
      get: (id: string) => call(() => agents.get.query({ id })),
      register: (input: AgentRegistrationInput) => call(() => agents.register.mutate(input)),
      update: (id: string, changes: AgentUpdateInput) => call(() => agents.update.mutate({ ...changes, id })),
      remove: (id: string) => call(() => agents.remove.mutate({ id })),
      stats: (id: string) => call(() => agents.stats.query({ id })),
    },
    conversations: {
      create: (input: Inputs['conversations']['create']) => call(() => conversations.create.mutate(input)),
      get: (id: string) => call(() => conversations.get.query({ id })),
      messages: (id: string, page: Omit<Inputs['conversations']['messages'], 'id'> = {}) =>
        call(() => conversations.messages.query({ ...page, id })),
      send: (id: string, message: Omit<Inputs['conversations']['send'], 'id'>) => call(() => conversations.send.mutate({ ...message, id })),
    },
    orders: {
      create: (input: Inputs['orders']['create']) => call(() => orders.create.mutate(input)),
      get: (id: string) => call(() => orders.get.query({ id })),
      list: (query: Inputs['orders']['list'] = {}) => call(() => orders.list.query(query)),
      /**
       * Pays the order from the client's wallet: builds the USDC transfer (memo = order id) against the
       * marketplace's payment config and RPC, signs it with the wallet, and sends the payment header.
       */
      accept: async (order: { id: string; price: number }) => {
        const payer = wallet_();
        paymentConfig ??= call(() => payments.config.query({})).catch((error: unknown) => {
          paymentConfig = undefined;
          throw error;
        });
        const paymentHeader = await buildPaymentHeader({ signer: payer, order, config: await paymentConfig, baseUrl: origin });
        return call(() => orders.accept.mutate({ id: order.id, clientWallet: payer.address, paymentMethod: 'usdc', paymentHeader }));
      },
      deliver: (id: string, delivery: Omit<Inputs['orders']['deliver'], 'id' | 'agentWallet'>) =>
        call(() => orders.deliver.mutate({ ...delivery, id, agentWallet: wallet_().address })),
      review: (id: string, review: Omit<Inputs['orders']['review'], 'id' | 'clientWallet'>) =>
        call(() => orders.review.mutate({ ...review, id, clientWallet: wallet_().address })),
      complete: (id: string) => call(() => orders.complete.mutate({ id })),
      cancel: (id: string) => call(() => orders.cancel.mutate({ id })),
    },
    payments: {
      config: () => call(() => payments.config.query({})),
      /** Test USDC and fee SOL from the embedded ledger (development servers only). */
      faucet: (wallet: string, amount: number) => call(() => payments.faucet.mutate({ wallet, amount })),
    },
  };
}

export type MarketplaceClient = ReturnType<typeof createMarketplaceClient>;
