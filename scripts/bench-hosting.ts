/**
 * Documentation hosting (issue 6), on the embedded default (PGlite, the in-process server, builds in child
 * processes as in production):
 *   push -> served   a 100-page generated repository (scripts/bench-docs.ts's pages) in a local git repository:
 *                    the time from the push webhook to the first 200 of the new content, split into the webhook
 *                    call (fetch + queue), waiting for the queue, the build process and storing the files; first
 *                    push (clone, cold build) and a second push changing one page.
 *   cached page      GET of one built page, again and again (gzip, as browsers ask): requests/s, p50/p99 (autocannon,
 *                    10 connections, in a worker thread, as scripts/bench.ts).
 *   redirect         GET of a `redirects` path: 307 requests/s.
 *   MCP search       search_docs through the MCP SDK's client (a fresh stateless request each), one at a time:
 *                    p50/p99 ms; and the index query alone.
 *   npm run bench -- hosting
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer } from '../server/app.ts';
import { defaultDocsConfig, type Config } from '../server/platform/config.ts';
import { createLogger } from '../server/platform/logger.ts';
import { buildSearchIndex, SiteSearch } from '../server/docs-hosting/serving/search.ts';
import { createGitRepo } from '../tests/helpers/git-repo.ts';
import { generateSite, writeOurSource } from './bench-docs.ts';

const PAGES = 100;
const CONNECTIONS = 10;
const SECONDS = 5;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const s = (value: number) => `${(value / 1000).toFixed(2)} s`;

async function load(url: string, headers: Record<string, string>, expectStatus: number) {
  const run = (duration: number) => autocannon({ url, headers, connections: CONNECTIONS, duration, workers: 1 });
  await run(1);
  const result = await run(SECONDS);
  const ok = (result.statusCodeStats as Record<string, { count?: number }> | undefined)?.[String(expectStatus)]?.count ?? 0;
  return { perSecond: Math.round(ok / result.duration), p50: result.latency.p50, p99: result.latency.p99, other: result['2xx'] + result.non2xx - ok + result.errors };
}

export async function benchHosting(): Promise<void> {
  console.log(`\n== Documentation hosting: PGlite, a ${PAGES}-page repository`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hosting-'));
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    database: { kind: 'pglite', dataDir },
    rateLimits: 'off',
    logLevel: 'silent',
    shutdownTimeoutMs: 5_000,
    commissionBps: 1000,
    ledger: { kind: 'embedded' },
    docs: { ...defaultDocsConfig({ kind: 'pglite', dataDir }), workDir: join(dataDir, 'docs') },
  };
  const server = await startServer(config, createLogger('silent'));
  const repo = createGitRepo();
  try {
    const { apiKey } = await server.services.organizations.create('Bench');
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return (await res.json()) as Record<string, unknown> & { webhookSecret: string; pages: number; createdAt: string; startedAt: string; finishedAt: string };
    };
    const site = generateSite(PAGES);
    writeOurSource(repo.dir, site);
    const target = site.pages[50]!;
    const docsJson = JSON.parse(readFileSync(join(repo.dir, 'docs.json'), 'utf8')) as object;
    repo.write({ 'docs.json': JSON.stringify({ ...docsJson, redirects: { '/old/path': target.route } }) });
    repo.commit('docs');
    const { webhookSecret } = await api('POST', '/api/docs/repositories', { owner: 'bench', repo: 'docs', source: repo.dir });

    const push = async (label: string, marker: string) => {
      const after = repo.git('rev-parse', 'HEAD');
      const body = JSON.stringify({ ref: 'refs/heads/main', after });
      const started = performance.now();
      const res = await fetch(`${server.url}/api/docs/repositories/bench/docs/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${createHmac('sha256', webhookSecret).update(body).digest('hex')}` },
        body,
      });
      const accepted = performance.now() - started;
      const { builds } = (await res.json()) as { builds: { id: string }[] };
      for (;;) {
        const page = await fetch(`${server.url}/bench/docs${target.route}`);
        if (page.status === 200 && (await page.text()).includes(marker)) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const served = performance.now() - started;
      const build = await api('GET', `/api/docs/builds/${builds[0]!.id}`);
      const queued = Date.parse(build.startedAt) - Date.parse(build.createdAt);
      const building = Date.parse(build.finishedAt) - Date.parse(build.startedAt);
      console.log(`  ${label.padEnd(30)} push -> served ${s(served)}   (webhook answered ${ms(accepted)}, queued ${ms(queued)}, build + store ${s(building)}, ${build.pages} pages)`);
    };
    await push('first push (clone, cold build)', target.title);
    repo.write({ [target.file]: `---\ntitle: ${target.title}\n---\n\nChanged page: second push.\n` });
    repo.commit('one page changed');
    await push('second push (one page changed)', 'Changed page: second push.');

    const page = await load(`${server.url}/bench/docs${target.route}`, { 'accept-encoding': 'gzip' }, 200);
    console.log(`  cached page  GET /bench/docs${target.route} (gzip):  ${page.perSecond} req/s, p50 ${page.p50} ms, p99 ${page.p99} ms${page.other ? `, ${page.other} other answers` : ''}`);
    const redirect = await load(`${server.url}/bench/docs/old/path`, {}, 307);
    console.log(`  redirect     GET /bench/docs/old/path -> 307:  ${redirect.perSecond} req/s, p50 ${redirect.p50} ms, p99 ${redirect.p99} ms${redirect.other ? `, ${redirect.other} other answers` : ''}`);

    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/bench/docs/mcp`)));
    const queries = ['request timeout', 'payment wallet', 'configuring retries', 'webhook secret', 'database record'];
    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      await client.callTool({ name: 'search_docs', arguments: { query: queries[i % queries.length]!, limit: 5 } });
      latencies.push(performance.now() - started);
    }
    await client.close();
    latencies.sort((a, b) => a - b);
    // The index query alone, on the same pages (what each search_docs call spends in MiniSearch).
    const index = new SiteSearch(buildSearchIndex(site.pages.map((p) => ({ id: p.route, title: p.title, text: p.text }))));
    const queryStarted = performance.now();
    for (let i = 0; i < 2000; i++) index.search(queries[i % queries.length]!, 5);
    const perQuery = (performance.now() - queryStarted) / 2000;
    console.log(`  MCP search   search_docs (HTTP, stateless MCP request, 5 results): p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} over ${latencies.length} calls; the index query alone ${(perQuery * 1000).toFixed(0)} µs`);
  } finally {
    await server.close();
    repo.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchHosting();
