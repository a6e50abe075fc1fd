/**
 * A client generated from openapi.json by @hey-api/openapi-ts (its fetch client, types and SDK plugins), as a
 * third party would make one: generated once into a temp folder from the document the running server serves, then
 *
 * 1. type-checked with `tsc --strict` (the project's TypeScript, no tsconfig: only the generated files and
 *    usage.ts below, which calls every operation's happy path through the generated SDK with typed bodies,
 *    parameters and headers, and reads the typed answers);
 * 2. run: usage.ts against the real server, every operation answering 2xx.
 *
 * What a third party writes by hand is kept out of the generated code and out of usage.ts's types: the wallet
 * signature (a `fetch` that signs the final request, per the WalletSignature scheme's description; here the SDK's
 * `signInit`), the USDC payment header (the SDK's `buildPaymentHeader`) and the webhook's HMAC. Nothing is
 * downloaded: the generator reads the local file and writes local files. (openapi-typescript + openapi-fetch:
 * third-party-client.test.ts.)
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient as generateClient } from '@hey-api/openapi-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInit } from '../../client-sdk/index.ts';
import type { GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { hostingConfig, settleBuilds, smallDocsRepo, webhookSignature } from '../helpers/hosting.ts';
import { walletFor, type Wallet } from '../helpers/marketplace.ts';
import { documentOf, operationsOf, root, scratchDir, writeDocument, type OpenApiDocument } from '../helpers/openapi-contract.ts';
import { fund, openTokenAccount, paymentHeader } from '../helpers/orders.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let dns: DnsStandIn;
let repo: GitFixture;
let doc: OpenApiDocument;
let apiKey: string | undefined;
const scratch = scratchDir('openapi-client-');
const clientDir = join(scratch.dir, 'client');
const usageFile = join(scratch.dir, 'usage.ts');

/** The headers an operation declares (`in: header`), to pass the wallet's in the typed calls that declare them. */
function headerParams(operationId: string) {
  const op = operationsOf(doc).find((o) => o.op.operationId === operationId)?.op;
  const params = (op?.parameters ?? []).map((p) => (p.$ref ? resolveRef(p.$ref) : p)) as { name: string; in: string; required?: boolean; schema?: { type?: string } }[];
  return params.filter((p) => p.in === 'header');
}
function resolveRef(ref: string): any {
  let target: any = doc;
  for (const part of ref.slice(2).split('/')) target = target?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return target;
}

/**
 * `headers: {...}` for a wallet's call: the wallet headers the operation declares as required parameters, with
 * values of their declared type (the signing fetch sets the real ones over them), nothing when it declares none.
 */
function walletHeaders(operationId: string, wallet: string): string {
  const entries = headerParams(operationId)
    .filter((p) => p.required && /^x-(wallet-address|timestamp|body-sha256|signature)$/i.test(p.name))
    .map((p) => {
      const numeric = p.schema?.type === 'integer' || p.schema?.type === 'number';
      const value = /address/i.test(p.name) ? `${wallet}.address` : /timestamp/i.test(p.name) ? (numeric ? 'Date.now()' : 'String(Date.now())') : "''";
      return `'${p.name}': ${value}`;
    });
  return entries.length ? `headers: { ${entries.join(', ')} }, ` : '';
}

/** usage.ts: every operation's happy path through the generated SDK. */
function usage(): string {
  const w = (operationId: string, wallet: 'provider' | 'consumer') => `client: ${wallet}.client, ${walletHeaders(operationId, wallet)}`;
  return `// Written by tests/platform/openapi-client.test.ts: type-checked with tsc --strict, then run against the server.
import { createClient, createConfig, type Client } from './client/client/index.js';
import * as sdk from './client/sdk.gen.js';

export interface WalletContext {
  address: string;
  /** A fetch that signs each request with the wallet (X-Wallet-Address, X-Signature, X-Timestamp, X-Body-SHA256). */
  fetch: (request: Request) => Promise<Response>;
}
export interface Context {
  baseUrl: string;
  apiKey: string;
  provider: WalletContext;
  consumer: WalletContext;
  /** The USDC transfer paying an order, as the accept call's paymentHeader. */
  paymentHeader(order: { id: string; price: number }): Promise<string>;
  /** A git repository of documentation pages. */
  docsSource: string;
  /** X-Hub-Signature-256 of a webhook body under the repository's secret. */
  webhookSignature(secret: string, body: string): string;
}

/** operationId -> the status it answered. */
export type Statuses = Record<string, number>;

export async function run(ctx: Context): Promise<Statuses> {
  const statuses: Statuses = {};
  const calls: string[] = [];
  try {
    await callEverything(ctx, statuses, calls);
  } catch (error) {
    throw new Error(\`\${calls.at(-1) ?? 'the first call'} failed: \${error instanceof Error ? error.message : JSON.stringify(error)}\`);
  }
  return statuses;
}

async function callEverything(ctx: Context, statuses: Statuses, calls: string[]): Promise<void> {
  const seen = (operationId: string) => <R extends { response: Response }>(r: R): R => {
    statuses[operationId] = r.response.status;
    return r;
  };
  const logged = (client: Client) => {
    client.interceptors.response.use((response, request) => {
      calls.push(\`\${request.method} \${new URL(request.url).pathname} -> \${response.status}\`);
      return response;
    });
    return client;
  };
  const keyed = logged(createClient(createConfig({ baseUrl: ctx.baseUrl, auth: () => ctx.apiKey, throwOnError: true })));
  const open = logged(createClient(createConfig({ baseUrl: ctx.baseUrl, throwOnError: true })));
  const walletClient = (w: WalletContext): { address: string; client: Client } => ({
    address: w.address,
    client: logged(createClient(createConfig({ baseUrl: ctx.baseUrl, fetch: w.fetch as typeof fetch, throwOnError: true }))),
  });
  const provider = walletClient(ctx.provider);
  const consumer = walletClient(ctx.consumer);
  const createdAt = '2026-01-15T09:30:00.000Z';

  // The resource API
  const employee = await sdk.resourcesEmployeesCreate({ client: keyed, body: { resourceId: 'emp-1', resourceName: 'Ada Lovelace', timezone: 'Europe/London', createdAt, isActive: true, userId: 'user-1', email: 'ada@example.com', calendarSync: 'GCal' } }).then(seen('resources-employees-create'));
  const orgId: string = employee.data.orgId;
  const employees = await sdk.resourcesEmployeesList({ client: keyed }).then(seen('resources-employees-list'));
  const firstEmail: string | undefined = employees.data[0]?.email;
  void firstEmail;
  await sdk.resourcesEmployeesUpdate({ client: keyed, path: { resourceId: 'emp-1' }, body: { role: 'Lead' } }).then(seen('resources-employees-update'));
  await sdk.resourcesAssetsCreate({ client: keyed, body: { resourceId: 'room-1', resourceName: 'Meeting room 1', timezone: 'UTC', createdAt, isActive: true, assetType: 'room', userIdsToNotify: ['user-1'] } }).then(seen('resources-assets-create'));
  await sdk.resourcesAssetsList({ client: keyed }).then(seen('resources-assets-list'));
  await sdk.resourcesAssetsUpdate({ client: keyed, path: { resourceId: 'room-1' }, body: { isActive: false } }).then(seen('resources-assets-update'));
  await sdk.resourcesAll({ client: keyed, query: { orgId } }).then(seen('resources-all'));

  // The marketplace
  const config = await sdk.paymentsConfig({ client: open }).then(seen('payments-config'));
  const mint: string = config.data.mint;
  void mint;
  await sdk.paymentsFaucet({ client: open, body: { wallet: consumer.address, amount: 100 } }).then(seen('payments-faucet'));
  const agent = await sdk.agentsRegister({ ${w('agents-register', 'provider')}body: { walletAddress: provider.address, name: 'Lex', tagline: 'Translates legal documents overnight', description: 'A careful translation agent for contracts and filings.', categories: ['Translation'], basePrice: 25, endpoint: 'https://agent.example.com/run' } }).then(seen('agents-register'));
  const agentId: string = agent.data.id;
  await sdk.agentsSearch({ client: open, query: { query: 'legal', limit: 10 } }).then(seen('agents-search'));
  await sdk.agentsGet({ client: open, path: { id: agentId } }).then(seen('agents-get'));
  await sdk.agentsUpdate({ ${w('agents-update', 'provider')}path: { id: agentId }, body: { tagline: 'Faster now' } }).then(seen('agents-update'));
  await sdk.agentsStats({ ${w('agents-stats', 'provider')}path: { id: agentId } }).then(seen('agents-stats'));
  const conversation = await sdk.conversationsCreate({ ${w('conversations-create', 'consumer')}body: { agentId, clientWallet: consumer.address, initialMessage: 'Hello' } }).then(seen('conversations-create'));
  const conversationId: string = conversation.data.id;
  await sdk.conversationsGet({ ${w('conversations-get', 'consumer')}path: { id: conversationId } }).then(seen('conversations-get'));
  await sdk.conversationsSend({ ${w('conversations-send', 'provider')}path: { id: conversationId }, body: { senderWallet: provider.address, content: 'Hi there' } }).then(seen('conversations-send'));
  await sdk.conversationsMessages({ ${w('conversations-messages', 'consumer')}path: { id: conversationId }, query: { limit: 10 } }).then(seen('conversations-messages'));

  const newOrder = async () => {
    const order = await sdk.ordersCreate({ ${w('orders-create', 'provider')}body: { conversationId, agentId, clientWallet: consumer.address, description: 'Translate the contract', price: 12.5, deliveryTime: 120 } }).then(seen('orders-create'));
    return { id: order.data.id, price: order.data.price };
  };
  const accept = async (order: { id: string; price: number }) =>
    sdk.ordersAccept({ ${w('orders-accept', 'consumer')}path: { id: order.id }, body: { clientWallet: consumer.address, paymentMethod: 'usdc', paymentHeader: await ctx.paymentHeader(order) } }).then(seen('orders-accept'));
  const deliver = (order: { id: string }) =>
    sdk.ordersDeliver({ ${w('orders-deliver', 'provider')}path: { id: order.id }, body: { agentWallet: provider.address, result: 'Done' } }).then(seen('orders-deliver'));

  const first = await newOrder();
  await sdk.ordersList({ ${w('orders-list', 'consumer')}query: { status: 'PENDING', limit: 5 } }).then(seen('orders-list'));
  const got = await sdk.ordersGet({ ${w('orders-get', 'consumer')}path: { id: first.id } }).then(seen('orders-get'));
  const status: string = got.data.status;
  void status;
  await accept(first);
  await deliver(first);
  await sdk.ordersReview({ ${w('orders-review', 'consumer')}path: { id: first.id }, body: { clientWallet: consumer.address, rating: 5, comment: 'Great' } }).then(seen('orders-review'));
  const second = await newOrder();
  await accept(second);
  await deliver(second);
  await sdk.ordersComplete({ ${w('orders-complete', 'consumer')}path: { id: second.id }, body: {} }).then(seen('orders-complete'));
  const third = await newOrder();
  await sdk.ordersCancel({ ${w('orders-cancel', 'consumer')}path: { id: third.id }, body: {} }).then(seen('orders-cancel'));
  await sdk.agentsRemove({ ${w('agents-remove', 'provider')}path: { id: agentId } }).then(seen('agents-remove'));

  // Documentation hosting
  const registered = await sdk.docsRepositoriesCreate({ client: keyed, body: { owner: 'acme', repo: 'widgets', source: ctx.docsSource } }).then(seen('docs-repositories-create'));
  const secret: string = registered.data.webhookSecret;
  const site = { owner: 'acme', repo: 'widgets' };
  await sdk.docsRepositoriesGet({ client: keyed, path: site }).then(seen('docs-repositories-get'));
  await sdk.docsRepositoriesUpdate({ client: keyed, path: site, body: { readerBuilds: { commits: true } } }).then(seen('docs-repositories-update'));
  const published = await sdk.docsRepositoriesPublish({ client: keyed, path: site, body: { ref: 'main' } }).then(seen('docs-repositories-publish'));
  let build = await sdk.docsBuildsGet({ client: keyed, path: { id: published.data.id } }).then(seen('docs-builds-get'));
  for (let i = 0; i < 600 && (build.data.status === 'QUEUED' || build.data.status === 'BUILDING'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    build = await sdk.docsBuildsGet({ client: keyed, path: { id: published.data.id } });
  }
  await sdk.docsRepositoriesBuilds({ client: keyed, path: site, query: { limit: 5 } }).then(seen('docs-repositories-builds'));
  const push = { ref: 'refs/heads/main', before: '0'.repeat(39) + '1', after: build.data.commit, repository: { name: 'widgets', full_name: 'acme/widgets' }, pusher: { name: 'ada' } };
  await sdk.docsRepositoriesWebhook({
    client: open,
    path: site,
    headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': ctx.webhookSignature(secret, JSON.stringify(push)) },
    body: push,
  }).then(seen('docs-repositories-webhook'));
  await sdk.docsRepositoriesCreateAgent({ client: keyed, path: site, body: { provider: 'openai', apiKey: 'sk-test-key', model: 'gpt-4o-mini' } }).then(seen('docs-repositories-createAgent'));
  await sdk.docsDomainsCreate({ client: keyed, body: { hostname: 'docs.acme.test', owner: 'acme', repo: 'widgets' } }).then(seen('docs-domains-create'));
  await sdk.docsDomainsVerify({ client: keyed, path: { hostname: 'docs.acme.test' } }).then(seen('docs-domains-verify'));
  await sdk.docsDomainsRemove({ client: keyed, path: { hostname: 'docs.acme.test' } }).then(seen('docs-domains-remove'));
}
`;
}

/** `tsc --strict` on usage.ts and the generated client (what it imports), no tsconfig: the CLI as anyone runs it. */
function typeCheck(): Promise<string> {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '--strict', '--noEmit', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--lib', 'ES2022,DOM,DOM.Iterable', '--pretty', 'false', usageFile];
  return new Promise((resolve) => execFile(process.execPath, args, { cwd: scratch.dir, maxBuffer: 16 << 20 }, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`.trim())));
}

/** A wallet's signing fetch for the generated client: the SDK's v2 signature over the final request. */
const signingFetch = (wallet: Wallet) => async (request: Request) => {
  const url = new URL(request.url);
  const body = request.body === null ? undefined : await request.text();
  const init = await signInit(wallet.signer, url.pathname + url.search, { method: request.method, headers: request.headers, ...(body === undefined ? {} : { body }) }, url.host);
  return fetch(request.url, init);
};

let generated: { ms: number; error?: unknown } = { ms: 0 };

beforeAll(async () => {
  dns = await startDnsStandIn();
  server = await startTestServer({ docs: hostingConfig({ dnsServers: [dns.server] }) });
  doc = await documentOf(server.url);
  const input = writeDocument(doc, scratch.dir);
  const started = Date.now();
  try {
    await generateClient({
      input,
      output: { path: clientDir },
      // throwOnError: a refused call throws (its error body), so a call's `data` is typed as the success answer.
      plugins: [{ name: '@hey-api/client-fetch', throwOnError: true }, '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent', file: false },
    });
  } catch (error) {
    generated.error = error;
  }
  generated = { ...generated, ms: Date.now() - started };
  writeFileSync(usageFile, usage());
}, 90_000);

afterAll(async () => {
  // Builds the webhook queued are settled before the server stops.
  if (server && apiKey) await settleBuilds(restClient(server.url, apiKey), 'acme/widgets');
  await server?.destroy();
  await dns?.close();
  repo?.cleanup();
  scratch.remove();
});

/** What usage.ts exports (its own types are checked by tsc; the test calls it through this one). */
interface Usage {
  run(ctx: {
    baseUrl: string;
    apiKey: string;
    provider: { address: string; fetch: (request: Request) => Promise<Response> };
    consumer: { address: string; fetch: (request: Request) => Promise<Response> };
    paymentHeader(order: { id: string; price: number }): Promise<string>;
    docsSource: string;
    webhookSignature(secret: string, body: string): string;
  }): Promise<Record<string, number>>;
}

describe('a client generated by @hey-api/openapi-ts', () => {
  it('is generated from the served document', () => {
    expect(generated.error).toBeUndefined();
    console.log(`[hey-api] generated in ${generated.ms} ms`);
  });

  it('type-checks under tsc --strict, calls included', async () => {
    const diagnostics = await typeCheck();
    expect(diagnostics.split('\n').filter(Boolean)).toEqual([]);
  }, 60_000);

  it("calls every operation's happy path against the real server", async () => {
    ({ apiKey } = await createOrganization(server));
    const provider = walletFor(server.url);
    const consumer = walletFor(server.url);
    await openTokenAccount(server.url, provider);
    await fund(server.url, consumer.address, 0); // SOL for fees; the USDC comes from the faucet call below
    repo = smallDocsRepo();
    const { run } = (await import(pathToFileURL(usageFile).href)) as Usage;
    const statuses = await run({
      baseUrl: server.url,
      apiKey,
      provider: { address: provider.address, fetch: signingFetch(provider) },
      consumer: { address: consumer.address, fetch: signingFetch(consumer) },
      paymentHeader: (order) => paymentHeader(server.url, consumer, order),
      docsSource: repo.dir,
      webhookSignature,
    });
    const notOk = operationsOf(doc)
      .map((o) => [o.op.operationId, statuses[o.op.operationId]] as const)
      .filter(([, status]) => status === undefined || status < 200 || status >= 300)
      .map(([id, status]) => `${id}: ${status ?? 'not called'}`);
    expect(notOk).toEqual([]);
  }, 120_000);
});
