// A TypeScript consumer, type-checked against the installed package only (strict, nodenext, library checks on).
// Its types come from the server's AppRouter through tRPC's inference: were they lost (any), each expected
// error below would be missing, which is an error too.
import {
  ApiError,
  createMarketplaceClient,
  createResourceClient,
  generateKeypair,
  type AgentRegistrationInput,
  type AppRouter,
  type EventFrame,
} from '@typed-platform/client';

const baseUrl = 'http://localhost:3000';

export async function employeeEmails(apiKey: string): Promise<string[]> {
  const api = createResourceClient({ baseUrl, apiKey });
  // @ts-expect-error isActive is a boolean
  await api.employees.create({ resourceId: 'e', resourceName: 'E', timezone: 'UTC', createdAt: '2026-01-15T09:30:00Z', isActive: 'yes', userId: 'u', email: 'e@example.com' });
  return (await api.employees.list()).map((employee) => employee.email);
}

export async function registerAndFind(): Promise<{ id: string; total: number; prices: number[] }> {
  const { address, secretKey } = generateKeypair();
  const market = createMarketplaceClient({ baseUrl, wallet: secretKey });
  const input: AgentRegistrationInput = {
    walletAddress: address,
    name: 'Lingua',
    tagline: 'Legal translation',
    description: 'Contracts and filings, overnight',
    categories: ['Translation'],
    basePrice: 25,
    endpoint: 'https://lingua.example/run',
  };
  // @ts-expect-error basePrice is a number of USDC
  await market.agents.register({ ...input, basePrice: '25' });
  // @ts-expect-error categories are the marketplace's own
  await market.agents.register({ ...input, categories: ['Cooking'] });
  const { id } = await market.agents.register(input);
  const { agents, total } = await market.agents.search({ query: 'legal', limit: 10 });
  // @ts-expect-error search results carry no wallet secret
  void agents[0]?.secretKey;
  return { id, total, prices: agents.map((agent) => agent.basePrice) };
}

/** The event names, from the inlined server types. */
export const eventName = (frame: EventFrame): 'conversation:new' | 'message:received' | 'order:paid' => frame.event;

/** The router's top-level procedures, for calling it with @trpc/client directly. */
export const routes: (keyof AppRouter['_def']['record'])[] = ['resources', 'agents', 'orders'];

export const describeFailure = (error: unknown): string => (error instanceof ApiError ? `${error.status} ${error.code}` : String(error));
