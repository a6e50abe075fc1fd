/**
 * What hosted documentation offers machines and readers' questions (docs/docs-hosting.md "MCP endpoint", "Chat panel"): the MCP endpoint
 * at /{owner}/{repo}/mcp through the MCP SDK's real client, 404 with `mcp.enabled: false`; the chat panel's
 * questions answered from the site's pages through a registered model provider (a stand-in of the providers' HTTP
 * APIs on 127.0.0.1), with the hourly limits of `agent.limits`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { hostingConfig, published } from '../helpers/hosting.ts';
import { startModelStandIn, type ModelStandIn } from '../helpers/model-stand-in.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let rest: Rest;
let models: ModelStandIn;
const repos: GitFixture[] = [];

const PAGES = {
  'index.mdx': '---\ntitle: Gizmo\ndescription: The Gizmo toolkit\n---\n\nGizmo builds widgets from YAML.\n',
  'install.mdx': '---\ntitle: Installing Gizmo\ndescription: Get Gizmo on your machine\n---\n\nRun `npm install gizmo-cli` and then `gizmo init` in an empty folder.\n\n## Requirements\n\nNode 24 or newer.\n',
  'config.mdx': '---\ntitle: Configuration\n---\n\nThe `gizmo.yaml` file sets the output folder with the `out` key.\n',
};

/** A repository registered and published with this docs.json. */
const sources = new Map<string, string>();
let gizmo: GitFixture;
async function publishSite(name: string, docsJson: object, commit = true): Promise<GitFixture> {
  const repo = createGitRepo();
  repos.push(repo);
  sources.set(name, repo.dir);
  repo.write({ ...PAGES, 'docs.json': JSON.stringify(docsJson) });
  repo.commit('docs');
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: name, source: repo.dir })).status).toBe(201);
  if (commit) await published(rest, `acme/${name}`);
  return repo;
}

beforeAll(async () => {
  models = await startModelStandIn({ keys: { openai: 'sk-test-openai', anthropic: 'sk-ant-test' } });
  server = await startTestServer({
    rateLimits: 'off',
    docs: hostingConfig({
      buildConcurrency: 2,
      providerUrls: { openai: models.baseUrl('openai'), anthropic: models.baseUrl('anthropic') },
    }),
  });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
  [gizmo] = await Promise.all([publishSite('gizmo', { name: 'Gizmo' }), publishSite('closed', { name: 'Closed', mcp: { enabled: false } })]);
}, 120_000);
afterAll(async () => {
  await server?.destroy();
  await models?.close();
  for (const repo of repos) repo.cleanup();
});

async function mcpClient(path: string) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(path, server.url)));
  return client;
}

describe('mcp: /{owner}/{repo}/mcp', () => {
  it('is a Streamable-HTTP MCP server with tools to search the site, list its pages and read a page as Markdown', async () => {
    const client = await mcpClient('/acme/gizmo/mcp');
    try {
      expect(client.getServerVersion()?.name).toBe('acme/gizmo documentation');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['list_pages', 'read_page', 'search_docs']);

      const search = await client.callTool({ name: 'search_docs', arguments: { query: 'install gizmo-cli' } });
      const results = (search.structuredContent as { results: { title: string; url: string; snippet: string }[] }).results;
      expect(results[0]).toMatchObject({ title: 'Installing Gizmo', url: `${server.url}/acme/gizmo/install` });
      expect(results[0]!.snippet).toContain('npm install gizmo-cli');

      const list = await client.callTool({ name: 'list_pages', arguments: {} });
      expect((list.structuredContent as { pages: { title: string }[] }).pages.map((p) => p.title).sort()).toEqual(['Configuration', 'Gizmo', 'Installing Gizmo']);

      const read = await client.callTool({ name: 'read_page', arguments: { path: '/config' } });
      expect((read.content as { text: string }[])[0]!.text).toBe('# Configuration\n\nThe `gizmo.yaml` file sets the output folder with the `out` key.\n');
      const byUrl = await client.callTool({ name: 'read_page', arguments: { path: `${server.url}/acme/gizmo/install` } });
      expect((byUrl.content as { text: string }[])[0]!.text).toContain('## Requirements');
      const missing = await client.callTool({ name: 'read_page', arguments: { path: '/nope' } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serves each ref’s own content (/{owner}/{repo}~{ref}/mcp)', async () => {
    const client = await mcpClient('/acme/gizmo~main/mcp');
    try {
      const read = await client.callTool({ name: 'read_page', arguments: { path: '/install' } });
      expect((read.content as { text: string }[])[0]!.text).toContain('Node 24 or newer');
    } finally {
      await client.close();
    }
  });

  it("search answers from each build's own pages: one built from the last build's index finds a changed page by its new words only", async () => {
    gizmo.git('checkout', '-q', '-b', 'renamed');
    gizmo.write({ 'install.mdx': '---\ntitle: Installing Gizmo\n---\n\nRun `pnpm add gizmo-tool` first.\n', 'extra.mdx': '# Extra\n\nFrobnicate the sprockets.\n' });
    gizmo.remove('config.mdx');
    gizmo.commit('renamed');
    gizmo.git('checkout', '-q', 'main');
    await published(rest, 'acme/gizmo', 'renamed');
    const search = async (site: string, query: string) => {
      const client = await mcpClient(`/acme/${site}/mcp`);
      try {
        const found = await client.callTool({ name: 'search_docs', arguments: { query } });
        return (found.structuredContent as { results: { title: string }[] }).results.map((result) => result.title);
      } finally {
        await client.close();
      }
    };
    expect(await search('gizmo~renamed', 'pnpm')).toEqual(['Installing Gizmo']);
    expect(await search('gizmo~renamed', 'sprockets')).toEqual(['Extra']);
    expect(await search('gizmo~renamed', 'output')).toEqual([]);
    expect(await search('gizmo~renamed', 'empty')).toEqual([]);
    expect(await search('gizmo', 'empty')).toEqual(['Installing Gizmo']);
    expect(await search('gizmo', 'sprockets')).toEqual([]);
    expect(await search('gizmo', 'output')).toEqual(['Configuration']);
  });

  it('returns 404 when mcp.enabled is false', async () => {
    const res = await fetch(`${server.url}/acme/closed/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(res.status).toBe(404);
    await expect(mcpClient('/acme/closed/mcp')).rejects.toThrow();
    expect((await fetch(`${server.url}/acme/closed/install`)).status).toBe(200); // the site itself is served
  });
});

describe('chat panel: POST {site}/_chat', () => {
  let agentKey: string;
  const ask = (site: string, body: object) =>
    fetch(`${server.url}/${site}/_chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** `docs agent create` for the site, then its docs.json names the credential, published. */
  async function withAgent(name: string, apiKey: string, agent: object = {}, provider = 'openai') {
    const repo = repos.find((r) => r.dir === sources.get(name)) ?? (await publishSite(name, { name }, false));
    const created = await rest('POST', `/api/docs/repositories/acme/${name}/agents`, { owner: 'acme', repo: name, provider, apiKey });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(apiKey);
    repo.write({ 'docs.json': JSON.stringify({ name, agent: { key: created.body.key, ...agent } }) });
    repo.commit('agent');
    await published(rest, `acme/${name}`);
    return created.body.key as string;
  }

  beforeAll(async () => {
    agentKey = await withAgent('chatty', 'sk-test-openai', { limits: { ip: 200, repo: 6 } });
  }, 60_000);

  it('is 404 until the site sets agent.key of an agent registered for it', async () => {
    const res = await ask('acme/gizmo', { question: 'How do I install it?' });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([404, 'NOT_FOUND']);
    // The key of another repository's agent does not work either.
    await publishSite('borrower', { name: 'Borrower', agent: { key: agentKey } });
    expect((await ask('acme/borrower', { question: 'How do I install it?' })).status).toBe(404);
  });

  it('answers from the site’s own pages through the registered provider, naming its sources', async () => {
    const before = models.requests.length;
    const res = await ask('acme/chatty', { question: 'How do I install Gizmo?' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { answer: string; sources: { title: string; url: string }[] };
    expect(body.answer).toContain('Answer (openai/');
    expect(body.answer).toContain('How do I install Gizmo?');
    expect(body.sources[0]).toEqual({ title: 'Installing Gizmo', url: '/acme/chatty/install' });
    const sent = models.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBe('Bearer sk-test-openai');
    const system = (sent[0]!.body as { messages: { role: string; content: string }[] }).messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Run `npm install gizmo-cli`');
    expect(system.content).toContain('documentation of chatty');
  });

  it('validates the question (422) and allows only POST', async () => {
    const empty = await ask('acme/chatty', { question: '  ' });
    expect([empty.status, ((await empty.json()) as { details: object }).details]).toEqual([422, { question: 'Must not be empty' }]);
    expect((await fetch(`${server.url}/acme/chatty/_chat`)).status).toBe(405);
  });

  it('a failing provider is 502 (the site’s credentials refused) or 503 with Retry-After (try again), never a 500', async () => {
    models.setNext({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const refused = await ask('acme/chatty', { question: 'Install?' });
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([502, 'PROVIDER_ERROR']);
    models.setNext({ status: 503, body: { error: { message: 'overloaded', type: 'server_error' } } });
    const down = await ask('acme/chatty', { question: 'Install?' });
    expect([down.status, ((await down.json()) as { error: string }).error, down.headers.get('retry-after')]).toEqual([503, 'PROVIDER_UNAVAILABLE', '30']);
    models.setNext({ status: 429, body: { error: { message: 'slow down', type: 'rate_limit' } }, headers: { 'retry-after': '7' } });
    const limited = await ask('acme/chatty', { question: 'Install?' });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([503, '7']);
  });

  it('limits questions per repository per hour (agent.limits.repo): 429 with Retry-After beyond', async () => {
    // Six an hour for this site; four were asked above (questions the provider failed to answer count too).
    expect((await ask('acme/chatty', { question: 'What is the out key?' })).status).toBe(200);
    expect((await ask('acme/chatty', { question: 'Which Node version?', history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] })).status).toBe(200);
    const limited = await ask('acme/chatty', { question: 'One more?' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: string }).error).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('a preview cannot raise the limits: every ref counts against the default branch’s agent.limits', async () => {
    // A site of its own with one question an hour, used up on the default branch here.
    const key = await withAgent('frugal', 'sk-test-openai', { limits: { ip: 100, repo: 1 } });
    expect((await ask('acme/frugal', { question: 'How do I install it?' })).status).toBe(200);
    const repo = repos.find((r) => r.dir === sources.get('frugal'))!;
    repo.git('checkout', '-q', '-b', 'generous');
    repo.write({ 'docs.json': JSON.stringify({ name: 'frugal', agent: { key, limits: { ip: 100_000, repo: 100_000 } } }) });
    repo.commit('generous limits');
    repo.git('checkout', '-q', 'main');
    await published(rest, 'acme/frugal', 'generous');
    const res = await ask('acme/frugal~generous', { question: 'Still limited?' });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
  });

  it('limits questions per client IP per hour (agent.limits.ip)', async () => {
    await withAgent('gizmo', 'sk-ant-test', { limits: { ip: 1 } }, 'anthropic');
    expect((await ask('acme/gizmo', { question: 'How do I install it?' })).status).toBe(200);
    expect(models.requests.at(-1)!.headers['x-api-key']).toBe('sk-ant-test');
    expect((await ask('acme/gizmo', { question: 'And configure it?' })).status).toBe(429);
  });

});
