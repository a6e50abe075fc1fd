import { address, createSolanaRpc } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { buildPaymentHeader, type PaymentConfig } from '../../client-sdk/index.ts';
import { registration, walletFor, type Wallet } from './marketplace.ts';

/** Public JSON call without a wallet (payments config, faucet). */
export async function publicCall<T = Record<string, unknown>>(baseUrl: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export const paymentConfig = async (baseUrl: string) => (await publicCall<PaymentConfig>(baseUrl, 'GET', '/api/payments/config')).body;

/** Test USDC (and fee SOL) from the embedded ledger's faucet. */
export async function fund(baseUrl: string, wallet: string, amount: number) {
  const res = await publicCall(baseUrl, 'POST', '/dev/faucet', { wallet, amount });
  if (res.status !== 200) throw new Error(`faucet: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The paymentHeader a consumer sends to accept `order`, built by the SDK against the server's own RPC. */
export async function paymentHeader(baseUrl: string, payer: Wallet, order: { id: string; price: number }, config?: PaymentConfig) {
  return buildPaymentHeader({ signer: payer.signer, order, config: config ?? (await paymentConfig(baseUrl)), baseUrl });
}

/** An agent, a consumer and a conversation between them: the start of every order. */
export async function agentAndConsumer(baseUrl: string) {
  const agent = walletFor(baseUrl);
  const client = walletFor(baseUrl);
  const registered = await agent.rest('POST', '/api/agents/register', registration(agent.address));
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const agentId = registered.body.id as string;
  const conversation = await client.rest('POST', '/api/conversations', { agentId, clientWallet: client.address, initialMessage: 'Hello' });
  if (conversation.status !== 201) throw new Error(`conversation: ${conversation.status}`);
  return { agent, client, agentId, conversationId: conversation.body.id as string };
}

export type Parties = Awaited<ReturnType<typeof agentAndConsumer>>;

/** The same parties, talking to another server (a restarted process on the same data). */
export const onServer = (p: Parties, baseUrl: string): Parties => ({
  ...p,
  agent: walletFor(baseUrl, p.agent.secretKey),
  client: walletFor(baseUrl, p.client.secretKey),
});

/** A PENDING order the agent created in the conversation. */
export async function createOrder(p: Parties, overrides: Record<string, unknown> = {}) {
  const res = await p.agent.rest('POST', '/api/orders', {
    conversationId: p.conversationId,
    agentId: p.agentId,
    clientWallet: p.client.address,
    description: 'Translate the contract into German',
    price: 12.5,
    deliveryTime: 120,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; price: number; status: string } & Record<string, unknown>;
}

/** Accepts and pays the order with a freshly built header. */
export async function acceptOrder(baseUrl: string, p: Parties, order: { id: string; price: number }, header?: string, httpHeaders?: Record<string, string>) {
  const body = { clientWallet: p.client.address, paymentMethod: 'usdc', paymentHeader: header ?? (await paymentHeader(baseUrl, p.client, order)) };
  return p.client.rest('POST', `/api/orders/${order.id}/accept`, body, httpHeaders);
}

/** A wallet's USDC (micro) as a client sees it: its associated token account, through the server's JSON-RPC. */
export async function usdcBalance(baseUrl: string, wallet: string, config?: PaymentConfig): Promise<bigint> {
  const cfg = config ?? (await paymentConfig(baseUrl));
  const [ata] = await findAssociatedTokenPda({ owner: address(wallet), mint: address(cfg.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const rpc = createSolanaRpc(new URL(cfg.rpcUrl, baseUrl).href);
  try {
    const { value } = await rpc.getTokenAccountBalance(ata).send();
    return BigInt(value.amount);
  } catch (error) {
    if (/could not find account|Invalid param/i.test(String(error))) return 0n;
    throw error;
  }
}
