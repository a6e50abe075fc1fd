/**
 * Property-based: random and malformed requests to every documentation-hosting endpoint (the organization API, the
 * webhook, site paths, the chat panel, MCP) never answer 500, answer the documented error body, and change nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDocsConfig } from '../../server/platform/config.ts';
import { DocsAgent, DocsBuild, DocsDeployment, DocsDomain, DocsRepository } from '../../server/docs-hosting/entities.ts';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { published } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let rest: Rest;
let repo: GitFixture;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer({ docs: { ...defaultDocsConfig({ kind: 'pglite', dataDir: '' }), workDir: mkdtempSync(join(tmpdir(), 'docs-props-')), allowLocalSources: true } });
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
