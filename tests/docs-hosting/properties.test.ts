/**
 * Property-based: random and malformed requests to every documentation-hosting endpoint (the organization API, the
 * webhook, site paths, the chat panel, MCP) never answer 500, answer the documented error body, and change nothing;
 * validly keyed writes with near-valid bodies are often accepted, and then add exactly their row.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocsAgent, DocsBuild, DocsDeployment, DocsDomain, DocsRepository } from '../../server/docs-hosting/entities.ts';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { get, hostingConfig, published } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let dns: DnsStandIn;
let rest: Rest;
let repo: GitFixture;
let apiKey: string;

beforeAll(async () => {
  dns = await startDnsStandIn();
  server = await startTestServer({ docs: hostingConfig({ dnsServers: [dns.server] }) });
  apiKey = (await createOrganization(server)).apiKey;
  rest = restClient(server.url, apiKey);
  repo = createGitRepo();
  repo.write({ 'docs.json': '{ "name": "Props", "redirects": { "/old": "/" } }', 'index.mdx': '# Home\n', 'guide.mdx': '# Guide\n' });
  repo.commit('docs');
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'props', source: repo.dir })).status).toBe(201);
  await published(rest, 'acme/props');
}, 60_000);
afterAll(async () => {
  await server?.destroy();
  await dns?.close();
  repo?.cleanup();
});

/** Everything these requests could change. */
const snapshot = async () => {
  const em = server.db.em();
  return Promise.all([DocsRepository, DocsBuild, DocsDeployment, DocsDomain, DocsAgent].map((entity) => em.count(entity as never, {})));
};

const odd = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '', ' ', '..', '../..', '/', '%00', '~', 'x'.repeat(3000), '__proto__', 'constructor', 'api', 'acme', 'props', 'main', '7', 'a'.repeat(41)),
  fc.string(),
  fc.anything(),
);
/** Bodies near the valid ones (every field the endpoints take, odd values) and plain garbage. */
const body = fc.oneof(
  fc.record({ owner: odd, repo: odd, source: odd, ref: odd, provider: odd, apiKey: odd, question: odd, history: odd }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
  fc.anything({ withNullPrototype: true }).map((value) => JSON.stringify(value) ?? 'null'),
  fc.constantFrom('{', '[]', '"x"', '', '{"question":"hi","history":[{"role":"system","content":"x"}]}', '{"ref":"refs/heads/main","after":"0"}'),
);

const API = [
  ['POST', '/api/docs/repositories'],
  ['POST', '/api/docs/repositories/acme/props/publish'],
  ['POST', '/api/docs/repositories/acme/props/agents'],
  ['POST', '/api/docs/repositories/acme/props/webhook'],
  ['POST', '/api/docs/domains'],
  ['GET', '/api/docs/repositories/acme/props/builds?limit=0&offset=-1'],
  ['GET', '/api/docs/builds/not-a-uuid'],
  ['DELETE', '/api/docs/domains/..'],
] as const;

/** One keyed write of the organization API: its path, its valid body, and which snapshot() count a success adds to. */
const WRITES = [
  { name: 'register a repository', path: '/api/docs/repositories', body: (name: string) => ({ owner: name, repo: 'docs', source: repo.dir }), adds: 0 },
  { name: 'add a custom domain', path: '/api/docs/domains', body: (name: string) => ({ hostname: `${name}.example.org`, owner: 'acme', repo: 'props' }), adds: 3 },
  {
    name: 'register a chat agent',
    path: '/api/docs/repositories/acme/props/agents',
    body: (name: string) => ({ owner: 'acme', repo: 'props', provider: name.length % 2 ? 'openai' : 'anthropic', apiKey: `sk-${name}` }),
    adds: 4,
  },
] as const;

const REMOVE = Symbol('remove');
/** No change half of the time, else one or two fields replaced, removed or added. */
const edits = fc.oneof(
  fc.constant([]),
  fc.array(fc.record({ field: fc.constantFrom('owner', 'repo', 'source', 'hostname', 'provider', 'apiKey', 'model', 'extra'), value: fc.oneof(fc.constant(REMOVE), odd) }), { minLength: 1, maxLength: 2 }),
);

describe('validly keyed random writes to the organization API', () => {
  it('answer a success that added exactly one row of its kind, or the error body and no change; never 500', async () => {
    const accepted = new Map<string, number>(WRITES.map((w) => [w.name, 0]));
    const sent = new Map<string, number>(WRITES.map((w) => [w.name, 0]));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WRITES), fc.stringMatching(/^[a-z][a-z0-9]{2,12}$/), edits, async (write, name, changes) => {
        const body: Record<string, unknown> = write.body(name);
        for (const { field, value } of changes) {
          if (value === REMOVE) delete body[field];
          else body[field] = value;
        }
        const before = await snapshot();
        const res = await fetch(`${server.url}${write.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body) ?? 'null',
        });
        const answer = (await res.json()) as Record<string, unknown>;
        const after = await snapshot();
        sent.set(write.name, sent.get(write.name)! + 1);
        expect(res.status, `${write.name} ${JSON.stringify(answer)}`).toBeLessThan(500);
        if (res.status < 300) {
          accepted.set(write.name, accepted.get(write.name)! + 1);
          expect(after, write.name).toEqual(before.map((count, i) => (i === write.adds ? count + 1 : count)));
        } else {
          expect([typeof answer.error, typeof answer.message]).toEqual(['string', 'string']);
          expect(after, `${write.name} ${res.status} changed something`).toEqual(before);
        }
      }),
      { numRuns: 90 },
    );
    console.log(`[keyed writes] accepted/sent: ${WRITES.map((w) => `${w.name} ${accepted.get(w.name)}/${sent.get(w.name)}`).join(', ')}`);
    for (const write of WRITES) expect(accepted.get(write.name)!, write.name).toBeGreaterThanOrEqual(Math.floor(sent.get(write.name)! / 5));
  }, 240_000);
});

describe('random requests to documentation hosting', () => {
  it('the organization API and the webhook: never 500, the documented { error, message } body, nothing changed', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...API), body, fc.constantFrom('application/json', 'text/plain'), async ([method, path], text, type) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': type, 'x-hub-signature-256': 'sha256=00' },
          ...(method === 'GET' ? {} : { body: text }),
        });
        expect(res.status, `${method} ${path} ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) {
          const error = (await res.json()) as { error?: unknown; message?: unknown };
          expect([typeof error.error, typeof error.message]).toEqual(['string', 'string']);
        }
      }),
      { numRuns: 150 },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('site paths, refs, the chat panel and MCP: never 500, nothing changed', async () => {
    const before = await snapshot();
    const segment = fc.oneof(fc.string(), fc.webSegment(), fc.constantFrom('..', '%2e%2e', '_chat', 'mcp', 'index.html', '_astro', 'pagefind'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 4 }),
        fc.constantFrom('', '~', '~main', '~7', '~zzz', '~%2F', `~${'0'.repeat(40)}`, '~%'),
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'),
        body,
        async (segments, ref, method, text) => {
          const page = ['/acme', `props${ref}`, ...segments.map(encodeURIComponent)].join('/');
          for (const path of [page, `/acme/props${ref}/_chat`, `/acme/props${ref}/mcp`]) {
            const res = await send(path, method, text);
            expect(res, `${method} ${path}`).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 80 },
    );
    expect(await snapshot()).toEqual(before);
  });
});

describe("the service's own routes on any host", () => {
  it('random hosts, each mapped as a custom domain first where the API lets it, never make a site answer the service', async () => {
    const SERVICE = ['/health', '/openapi.json', '/schema.json', '/reference', '/api/agents/search?q=x', '/api/docs/builds/x', '/trpc/agents.search', '/employee-resources'];
    const answer = async (path: string, host?: string) => {
      const res = await get(server.url, path, host ? { host } : {});
      return { status: res.status, type: res.headers['content-type'] };
    };
    const expected = new Map(await Promise.all(SERVICE.map(async (path) => [path, await answer(path)] as const)));
    const host = new URL(server.url).host;
    let mapped = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.domain(), fc.ipV4(), fc.constantFrom('localhost', host, new URL(server.url).hostname, '[::1]', 'api.example.com', 'acme.example.org')),
        fc.constantFrom(...SERVICE),
        async (hostname, path) => {
          const mapping = await rest('POST', '/api/docs/domains', { hostname, owner: 'acme', repo: 'props' });
          if (mapping.status === 201) mapped++;
          expect(await answer(path, hostname), `${hostname}${path}`).toEqual(expected.get(path));
        },
      ),
      { numRuns: 60 },
    );
    expect(mapped).toBeGreaterThan(10); // mappings were made, and still took nothing
  });
});

/** A request whose answer may be a stream (MCP): the status is enough. */
async function send(path: string, method: string, text: string): Promise<number> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}${path}`, {
    method,
    signal: controller.signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: text }),
  });
  controller.abort();
  return res.status;
}
