import { randomUUID } from 'node:crypto';
import { address, createSolanaRpc, getBase64EncodedWireTransaction, lamports } from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import { findAssociatedTokenPda, getCloseAccountInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  buildPaymentHeader,
  createUsdcTokenAccount,
  fetchPaymentBlockhash,
  SPL_MEMO_PROGRAM_ADDRESS,
  toTransactionSigner,
  type PaymentConfig,
} from '../../client-sdk/index.ts';
import { signedTransaction } from '../../client-sdk/transaction.ts';
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

/** The ledger's JSON-RPC as clients reach it: the embedded ledger's /dev/solana-rpc, or a cluster's (a stand-in's). */
const ledgerRpc = (baseUrl: string, config: PaymentConfig) => createSolanaRpc(new URL(config.rpcUrl, baseUrl).href);

/**
 * What an agent does before its first order: SOL for fees and rent (requestAirdrop, which the embedded ledger and the
 * stand-in nodes answer), then its USDC token account, created and paid for by its own wallet (the SDK).
 */
export async function openTokenAccount(baseUrl: string, wallet: Wallet, config?: PaymentConfig) {
  const cfg = config ?? (await paymentConfig(baseUrl));
  await ledgerRpc(baseUrl, cfg).requestAirdrop(address(wallet.address), lamports(100_000_000n)).send();
  return createUsdcTokenAccount({ signer: wallet.signer, config: cfg, baseUrl });
}

/** The wallet closes its (empty) USDC token account, its rent back to itself: SPL Token CloseAccount, signed by the wallet. */
export async function closeTokenAccount(baseUrl: string, wallet: Wallet, config?: PaymentConfig) {
  const cfg = config ?? (await paymentConfig(baseUrl));
  const owner = toTransactionSigner(wallet.signer);
  const [account] = await findAssociatedTokenPda({ owner: owner.address, mint: address(cfg.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const transaction = await signedTransaction(owner, await fetchPaymentBlockhash(cfg, baseUrl), [
    getCloseAccountInstruction({ account, destination: owner.address, owner }),
    getAddMemoInstruction({ memo: `close ${randomUUID()}` }, { programAddress: SPL_MEMO_PROGRAM_ADDRESS }),
  ]);
  const wire = getBase64EncodedWireTransaction(transaction);
  await ledgerRpc(baseUrl, cfg).sendTransaction(wire, { encoding: 'base64' }).send();
}

/** A wallet's SOL, in lamports, from the ledger. */
export async function lamportsOf(baseUrl: string, wallet: string, config?: PaymentConfig): Promise<bigint> {
  const cfg = config ?? (await paymentConfig(baseUrl));
  return (await ledgerRpc(baseUrl, cfg).getBalance(address(wallet)).send()).value;
}

/**
 * An agent, a consumer and a conversation between them: the start of every order. The agent has its USDC token
 * account, as it must to create orders, unless `tokenAccount` is false.
 */
export async function agentAndConsumer(baseUrl: string, { tokenAccount = true } = {}) {
  const agent = walletFor(baseUrl);
  const client = walletFor(baseUrl);
  if (tokenAccount) await openTokenAccount(baseUrl, agent);
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

/** A PENDING order, paid by the (funded) consumer, then delivered by the agent. */
export async function deliveredOrder(baseUrl: string, p: Parties) {
  const order = await createOrder(p);
  const paid = await acceptOrder(baseUrl, p, order);
  if (paid.status !== 200) throw new Error(`accept: ${paid.status} ${JSON.stringify(paid.body)}`);
  const delivered = await p.agent.rest('POST', `/api/orders/${order.id}/deliver`, { agentWallet: p.agent.address, result: 'Done' });
  if (delivered.status !== 200) throw new Error(`deliver: ${delivered.status} ${JSON.stringify(delivered.body)}`);
  return order;
}

/** A wallet's USDC (micro) as a client sees it: its associated token account, through the server's JSON-RPC. */
export async function usdcBalance(baseUrl: string, wallet: string, config?: PaymentConfig): Promise<bigint> {
  const cfg = config ?? (await paymentConfig(baseUrl));
  const [ata] = await findAssociatedTokenPda({ owner: address(wallet), mint: address(cfg.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  try {
    const { value } = await ledgerRpc(baseUrl, cfg).getTokenAccountBalance(ata).send();
    return BigInt(value.amount);
  } catch (error) {
    if (/could not find account|Invalid param/i.test(String(error))) return 0n;
    throw error;
  }
}
