/**
 * One anonymous search request must not stall or kill the server (docs/docs-hosting.md "MCP endpoint", "Chat panel"):
 * hostile queries to MCP `search_docs` and the chat panel, each while `/health` is asked back to back, and the
 * documented answers they get. Unbounded, each held the event loop for seconds, and a long previous turn ran the
 * process out of memory.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { mulberry32 } from '../../server/platform/random.ts';
import { hostingConfig, published } from '../helpers/hosting.ts';
import { startModelStandIn, type ModelStandIn } from '../helpers/model-stand-in.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The slowest `/health` allowed while a hostile search runs. Unbounded, on this site and a busy machine, the MCP query
 * held the event loop ~8 s and the chat question ~15 s (a connection was reset, `/health` got a 408), the long previous
 * turn a minute. Bounded, the loop is free: `/health` takes a few ms on a quiet machine, and up to ~1 s on one as busy
 * (a normal question's too, in this in-process server).
 */
const RESPONSIVE_MS = 2_000;

let server: TestServer;
let models: ModelStandIn;
let repo: GitFixture;
let mcp: Client;

/**
 * 40 pages of 3,000 made-up words each from 5,000 (every word a prefix of many others, as in a large real site), and
 * two pages with a word of their own.
 */
function pages(): Record<string, string> {
  const random = mulberry32(35);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'da', 'fe', 'gu', 'hi', 'jo', 'be', 'ci', 'wo', 'xa', 'ye', 'qu', 'ti', 'mo', 'la', 're', 'si'];
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const vocabulary = Array.from({ length: 5000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(syllables)).join(''));
  const files: Record<string, string> = {
    'index.mdx': '# Home\n\nMade-up words.\n',
    'needle.mdx': '# Needle\n\nThe quasarbeam is here.\n',
    'other.mdx': '# Other\n\nThe nebulatrix is here.\n',
  };
  for (let i = 1; i <= 40; i++) files[`p${i}.mdx`] = `# Page ${i}\n\n${Array.from({ length: 3000 }, () => pick(vocabulary)).join(' ')}.\n`;
  return files;
}

/** `count` one-letter words, every letter in turn. */
const letters = (count: number) => Array.from({ length: count }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join(' ');

/**
 * `request` while `/health` is asked back to back until it settles: its outcome and the slowest `/health` answer (a
 * blocked event loop holds the one in flight).
 */
async function withHealthChecks<T>(request: () => Promise<T>): Promise<{ result: T; slowestHealthMs: number }> {
  let settled = false;
  const running = request().finally(() => (settled = true));
  let slowestHealthMs = 0;
  do {
    const start = performance.now();
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    slowestHealthMs = Math.max(slowestHealthMs, performance.now() - start);
  } while (!settled);
  return { result: await running, slowestHealthMs };
}

type Results = { results: { title: string }[] };
const searchDocs = (query: string) => mcp.callTool({ name: 'search_docs', arguments: { query } });

beforeAll(async () => {
  models = await startModelStandIn({ keys: { openai: 'sk-test-openai' } });
  server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ providerUrls: { openai: models.baseUrl('openai') } }) });
  const rest = restClient(server.url, (await createOrganization(server)).apiKey);
  repo = createGitRepo();
  repo.write({ ...pages(), 'docs.json': JSON.stringify({ name: 'Words' }) });
  repo.commit('docs');
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'words', source: repo.dir })).status).toBe(201);
  const agent = await rest('POST', '/api/docs/repositories/acme/words/agents', { owner: 'acme', repo: 'words', provider: 'openai', apiKey: 'sk-test-openai' });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  repo.write({ 'docs.json': JSON.stringify({ name: 'Words', agent: { key: agent.body.key } }) });
  repo.commit('agent');
  await published(rest, 'acme/words');
  mcp = new Client({ name: 'test-client', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL('/acme/words/mcp', server.url)));
  // What a first search costs whatever it asks (the build looked up, the index loaded) is not what is measured below.
  expect((await searchDocs('quasarbeam')).isError).toBeFalsy();
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await server?.destroy();
  await models?.close();
  repo?.cleanup();
});


describe('MCP search_docs', () => {
  it('245 one-letter words and one real one: /health answers meanwhile, and the real word finds its page', async () => {
    const query = `${letters(245)} quasarbeam`;
    expect(query.length).toBe(500);
    const { result, slowestHealthMs } = await withHealthChecks(() => searchDocs(query));
    expect(slowestHealthMs).toBeLessThan(RESPONSIVE_MS);
    expect((result.structuredContent as Results).results[0]?.title).toBe('Needle');
  });

  it('a query over 500 characters is refused with a message that says so', async () => {
    const refused = await searchDocs(letters(251));
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/500/);
  });
});

describe('chat panel', () => {
  const ask = (body: object) => fetch(`${server.url}/acme/words/_chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const sources = async (res: Response) => ((await res.json()) as { sources: { title: string }[] }).sources.map((source) => source.title);

  it('a 2,000-character question: /health answers meanwhile, and its longest words find the page', async () => {
    const question = `${letters(994)} quasarbeam`;
    expect(question.length).toBe(1998);
    const { result, slowestHealthMs } = await withHealthChecks(() => ask({ question }));
    expect(slowestHealthMs).toBeLessThan(RESPONSIVE_MS);
    expect(result.status).toBe(200);
    expect(await sources(result)).toEqual(['Needle']);
  });

  it('with an 8,000-character previous turn too: the server lives, /health answers meanwhile, the question’s words come first', async () => {
    const previous = `${letters(3990)} nebulatrix`;
    expect(previous.length).toBeGreaterThan(7900);
    const history = [{ role: 'user', content: previous }, { role: 'assistant', content: 'Which one?' }];
    const { result, slowestHealthMs } = await withHealthChecks(() => ask({ question: `${letters(994)} quasarbeam`, history }));
    expect(slowestHealthMs).toBeLessThan(RESPONSIVE_MS);
    expect(result.status).toBe(200);
    // 16 words are searched: the question's longest fill them; the previous turn's only count when it leaves room.
    expect(await sources(result)).toEqual(['Needle']);
    const followUp = await ask({ question: 'Explain further', history });
    expect(await sources(followUp)).toEqual(['Other']);
  });

  it('a longer question or history is refused (422) naming the field, before anything is searched', async () => {
    const refusals = [
      [{ question: 'x'.repeat(2001) }, 'question'],
      [{ question: 'Why?', history: [{ role: 'user', content: 'x'.repeat(8001) }] }, 'history.0.content'],
      [{ question: 'Why?', history: Array.from({ length: 11 }, () => ({ role: 'user', content: 'Hi' })) }, 'history'],
    ] as const;
    for (const [body, field] of refusals) {
      const res = await ask(body);
      const answer = (await res.json()) as { error: string; details: Record<string, string> };
      expect([res.status, answer.error, Object.keys(answer.details)]).toEqual([422, 'VALIDATION_ERROR', [field]]);
    }
  });
});
