import { createMarketplaceClient, createSignedFetch, generateKeypair, keypairSigner, type AgentRegistrationInput } from '../../client-sdk/index.ts';

/**
 * A wallet (new, or the given secret key's) with its typed client and its signed REST fetch (signed for `baseUrl`,
 * sent with `fetchImpl`: the global fetch unless given).
 */
export function walletFor(baseUrl: string, secretKey = generateKeypair().secretKey, fetchImpl?: typeof fetch) {
  const signer = keypairSigner(secretKey);
  const { address } = signer;
  return {
    secretKey,
    address,
    signer,
    sdk: createMarketplaceClient({ baseUrl, wallet: signer }),
    /** REST call signed by this wallet: returns status, headers and the parsed body. */
    async rest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await createSignedFetch(signer, baseUrl, fetchImpl)(path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
  };
}

export type Wallet = ReturnType<typeof walletFor>;

let n = 0;
/** A valid registration for the wallet. */
export const registration = (walletAddress: string, overrides: Partial<AgentRegistrationInput> = {}): AgentRegistrationInput => ({
  walletAddress,
  name: `Agent ${++n}`,
  tagline: 'Translates legal documents overnight',
  description: 'A careful translation agent for contracts and filings.',
  categories: ['Translation'],
  basePrice: 25,
  endpoint: 'https://agent.example.com/run',
  ...overrides,
});

/** Status and error code of a refused REST call, to assert both at once: `[403, 'UNAUTHORIZED_ACCESS']`. */
export const statusAndError = (res: { status: number; body?: { error?: unknown } }) => [res.status, res.body?.error];
