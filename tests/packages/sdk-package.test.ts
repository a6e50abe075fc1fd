/**
 * The SDK as a package (client-sdk/package.json): packed once, installed once into a fresh project outside the
 * repository, then used from there with the system Node (Node 20 here, the package's oldest major) against a
 * live test server, and type-checked by the repository's tsc with library checks on. Nothing in that project can
 * reach the repository's sources: what passes here is what a consumer of the tarball gets.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageName } from '../../client-sdk/build/dependencies.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';
import { createConsumerProject, run, systemNode, typeCheck, type ConsumerProject } from './consumer-project.ts';

const sdkManifest = JSON.parse(readFileSync(new URL('../../client-sdk/package.json', import.meta.url), 'utf8'));
const rootManifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

let server: TestServer;
let project: ConsumerProject;
let env: { BASE_URL: string; API_KEY: string };
let systemNodeVersion: string;

beforeAll(async () => {
  // order.mjs needs a WebSocket on Node 20 (ws); typed.ts's library check needs Node's types (@solana/kit's
  // declarations name undici's and V8's).
  const packages = [`ws@${rootManifest.dependencies.ws}`, '@types/node@20'];
  // Both at once; whichever started is cleaned up by afterAll even when the other failed.
  const [started, installed] = await Promise.allSettled([startTestServer(), createConsumerProject(packages)]);
  if (started.status === 'fulfilled') server = started.value;
  if (installed.status === 'fulfilled') project = installed.value;
  for (const result of [started, installed]) if (result.status === 'rejected') throw result.reason;
  const { apiKey } = await createOrganization(server, 'SDK consumer');
  env = { BASE_URL: server.url, API_KEY: apiKey };
  systemNodeVersion = (await run(systemNode(), ['--version'], project.dir)).stdout.trim();
}, 600_000);
afterAll(async () => {
  await server?.destroy();
  project?.remove();
});

// Each case spawns a process (a tsc over the installed declarations takes seconds): generous on a busy machine.
describe('the packed SDK', { timeout: 180_000 }, () => {
  it('installs as dist/ and its README, importing nothing but its declared dependencies', () => {
    const installed = join(project.dir, 'node_modules', sdkManifest.name);
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    expect(readdirSync(join(installed, 'dist')).sort()).toEqual(['index.d.ts', 'index.js']);
    // Both files import declared dependencies only: no server code, no path out of the package.
    for (const file of ['index.js', 'index.d.ts']) {
      const source = readFileSync(join(installed, 'dist', file), 'utf8');
      const imported = [...source.matchAll(/^import [^;]*? from ["']([^"']+)["'];$/gm)].map((match) => packageName(match[1]!));
      expect(imported.length).toBeGreaterThan(0);
      expect(imported.filter((name) => !(name in sdkManifest.dependencies))).toEqual([]);
    }
  });

  it('runs on the system Node: resource calls with an organization API key', async () => {
    const { node, created, employees } = await project.runScript<{ node: string; created: { orgId: string }; employees: unknown[] }>('resources.mjs', env);
    expect(node).toBe(systemNodeVersion);
    expect(created).toMatchObject({ resourceId: 'emp-1', resourceName: 'Ada Lovelace', email: 'ada@example.com', orgId: expect.any(String) });
    expect(employees).toEqual([expect.objectContaining({ resourceId: 'emp-1', email: 'ada@example.com' })]);
  });

  it('runs on the system Node: a new keypair registers an agent and search finds it', async () => {
    const { address, agent, found } = await project.runScript<{
      address: string;
      agent: { id: string; name: string };
      found: { agents: { id: string }[]; total: number };
    }>('marketplace.mjs', env);
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(agent).toEqual({ id: expect.any(String), walletAddress: address, name: `Lingua ${address.slice(0, 8)}`, status: 'ACTIVE', createdAt: ISO });
    expect(found.agents.map((a) => a.id)).toContain(agent.id);
  });

  it('runs on the system Node: pays an order in USDC and hears order:paid', async () => {
    const { funded, order, receipt, frame } = await project.runScript<Record<string, Record<string, unknown>>>('order.mjs', env);
    expect(funded).toMatchObject({ amount: 40, balance: 40 });
    expect(receipt).toMatchObject({ orderId: order!.id, status: 'PAID', agentAmount: 11.25, commissionAmount: 1.25, paidAt: ISO });
    expect(frame).toMatchObject({ event: 'order:paid', data: { orderId: order!.id, amount: 11.25, txSignature: receipt!.txSignature } });
  });

  it('runs on the system Node: failures are ApiError with the status and the server code', async () => {
    const { unknownAgent, wrongKey } = await project.runScript<Record<string, unknown>>('errors.mjs', env);
    expect(unknownAgent).toMatchObject({ isApiError: true, name: 'ApiError', status: 404, code: 'AGENT_NOT_FOUND' });
    expect(wrongKey).toMatchObject({ isApiError: true, name: 'ApiError', status: 401, code: 'UNAUTHORIZED' });
  });

  it('type-checks a consumer under strict nodenext with library checks, tRPC inference included', async () => {
    const checked = await typeCheck(
      project.dir,
      { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false },
      ['typed.ts'],
    );
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});
