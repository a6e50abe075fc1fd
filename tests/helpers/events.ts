/**
 * Clients of the live-events channel for the events tests: a `/ws` connection that collects its frames, the
 * answer to a refused upgrade, and the requests that cause events.
 */
import { expect } from 'vitest';
import WebSocket from 'ws';
import { signedEventsUrl, signedHeaders, type EventFrame, type WalletSigner } from '../../client-sdk/index.ts';
import { registration, walletFor, type Wallet } from './marketplace.ts';

export const wsBase = (url: string) => url.replace(/^http/, 'ws');

/** A `/ws` URL with the SDK's query-parameter proof of `signer`, good for one connection. */
export const eventsUrl = (baseUrl: string, signer: WalletSigner, options: { since?: number; now?: number } = {}) => signedEventsUrl(signer, baseUrl, options);

/**
 * A `/ws` URL with a v1 signature in the query (no host): `GET:<the URL without its proof>:<timestamp>`, `since`
 * signed; `unsignedSince` is added after signing, as SDKs did before `since` was signed.
 */
export async function v1EventsUrl(baseUrl: string, signer: WalletSigner, { since, unsignedSince }: { since?: number; unsignedSince?: number } = {}) {
  const query = new URLSearchParams({ wallet: signer.address });
  if (since !== undefined) query.set('since', String(since));
  const headers = await signedHeaders(signer, 'GET', `/ws?${query}`);
  const proof = new URLSearchParams({ timestamp: headers['X-Timestamp'], signature: headers['X-Signature'] });
  if (unsignedSince !== undefined) proof.set('since', String(unsignedSince));
  return `${wsBase(baseUrl)}/ws?${query}&${proof}`;
}

/** An open `/ws` connection that collects its frames. */
export class Listener {
  readonly frames: EventFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly ws: WebSocket;
  #waiters: (() => void)[] = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)));
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<Listener> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const listener = new Listener(ws);
      ws.once('open', () => resolve(listener));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  static async for(baseUrl: string, signer: WalletSigner, options: { since?: number } = {}) {
    return Listener.open(await eventsUrl(baseUrl, signer, options));
  }

  /** Waits until `n` frames have arrived (not taken yet), then takes them. */
  async take(n: number, timeoutMs = 10_000): Promise<EventFrame[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${n} frames, got ${this.frames.length}: ${JSON.stringify(this.frames.map((f) => f.event))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.frames.splice(0, n);
  }

  close() {
    this.ws.close();
    return this.closed;
  }
}

/** The HTTP answer to a refused upgrade. */
export function refusal(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    ws.on('error', () => {});
  });
}

export const openConversation = async (from: Wallet, agent: string, initialMessage = 'Can you translate a contract?') => {
  const res = await from.rest('POST', '/api/conversations', { agentId: agent, clientWallet: from.address, initialMessage });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

export const sendMessage = async (from: Wallet, conversationId: string, content: string) => {
  const res = await from.rest('POST', `/api/conversations/${conversationId}/messages`, { senderWallet: from.address, content, messageType: 'TEXT' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

/** A wallet with a registered agent. */
export async function newProvider(baseUrl: string) {
  const wallet = walletFor(baseUrl);
  const agent = (await wallet.sdk.agents.register(registration(wallet.address))).id;
  return { wallet, agentId: agent };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const increasing = (ids: number[]) => ids.every((id, i) => i === 0 || id > ids[i - 1]!);
