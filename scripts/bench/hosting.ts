/**
 * Documentation hosting, on the embedded default (PGlite, the in-process server, builds in child
 * processes as in production):
 *   push -> served   a 1,000-page (BENCH_HOSTING_PAGES) generated repository (docs/site.ts's pages) in a local git
 *                    repository: the time from the push webhook to the first 200 of the new content, split into the
 *                    webhook call (fetch + queue), waiting for the queue, extracting the commit's files, the build
 *                    process and storing the files (the last three from the queue's log); first push (clone, cold
 *                    build), then three pushes each changing one page, each as soon as the last one is served
 *                    (the server's next build process may still be starting), and their median.
 *   social image     the og:image of 20 pages never asked for before (the hosted build only describes them: each is
 *                    drawn on its first request), one at a time: first-request p50/max ms; then the same again.
 *   cached page      GET of one built page, again and again (gzip, as browsers ask): requests/s, p50/p99 (autocannon,
 *                    10 connections, in a worker thread, as the API part).
 *   redirect         GET of a `redirects` path: 307 requests/s.
 *   MCP search       search_docs through the MCP SDK's client (a fresh stateless request each), one at a time:
 *                    p50/p99 ms; and the index query alone.
 *   npm run bench -- hosting
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defaultDocsConfig } from '../../server/platform/config.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { buildSearchIndex, SiteSearch } from '../../server/docs-hosting/serving/search.ts';
import { createGitRepo } from '../lib/git-fixture.ts';
import { generateSite, writeOurSource } from './docs/site.ts';
import { integer, milliseconds, seconds } from './common/format.ts';
import { measureAutocannon } from './common/measure.ts';
import { startBenchServer } from './common/server.ts';
import { ascending, percentile, type Measurement } from './common/stats.ts';

/** Pages of the generated repository (BENCH_HOSTING_PAGES; the issue's figure is for 1,000). */
const PAGES = Number(process.env.BENCH_HOSTING_PAGES ?? 1000);
/** Pushes that change one page, after the first. */
const ONE_PAGE_PUSHES = 3;
const CONNECTIONS = 10;
const SECONDS = 5;

/** GET `url` repeated by autocannon; only `expectStatus` answers count. */
const load = (url: string, headers: Record<string, string>, expectStatus: number) =>
  measureAutocannon(url, { url, headers }, { connections: CONNECTIONS, warmupSeconds: 1, seconds: SECONDS, expectStatus });

const loadFigures = (m: Measurement) =>
  `${integer(m.opsPerSecond)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms${m.failed ? `, ${m.failed} other answers` : ''}`;

export async function benchHosting(): Promise<void> {
  console.log(`\n== Documentation hosting: PGlite, a ${PAGES}-page repository`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hosting-'));
  const database = { kind: 'pglite', dataDir } as const;
  // The queue's log line of each build that succeeded: where its time went (the commit's files, the build process,
  // storing). Only during the pushes: the load figures below are taken with the server silent.
  const succeeded: { extractMs: number; buildMs: number; storeMs: number }[] = [];
  const logger = createLogger('info', { destination: { write: (line: string) => void (line.includes('"docs build succeeded"') && succeeded.push(JSON.parse(line))) } });
  const server = await startBenchServer(database, { docs: { ...defaultDocsConfig(database), workDir: join(dataDir, 'docs') } }, logger);
  const repo = createGitRepo();
  try {
    const { apiKey } = await server.services.organizations.create('Bench');
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return (await res.json()) as Record<string, unknown> & { webhookSecret: string; pages: number; createdAt: string; startedAt: string };
    };
    const site = generateSite(PAGES);
    writeOurSource(repo.dir, site);
    const target = site.pages[50]!;
    const docsJson = JSON.parse(readFileSync(join(repo.dir, 'docs.json'), 'utf8')) as object;
    repo.write({ 'docs.json': JSON.stringify({ ...docsJson, redirects: { '/old/path': target.route } }) });
    repo.commit('docs');
    const { webhookSecret } = await api('POST', '/api/docs/repositories', { owner: 'bench', repo: 'docs', source: repo.dir });

    let pushes = 0;
    const push = async (label: string, marker: string) => {
      pushes++;
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
      // The page can be served a moment before the queue logs the build.
      while (succeeded.length < pushes) await new Promise((resolve) => setTimeout(resolve, 10));
      const { extractMs, buildMs, storeMs } = succeeded[pushes - 1]!;
      console.log(`  ${label.padEnd(32)} push -> served ${seconds(served)}   (webhook answered ${milliseconds(accepted)}, queued ${milliseconds(queued)}, extract ${milliseconds(extractMs)}, build process ${seconds(buildMs)}, store ${seconds(storeMs)}, ${build.pages} pages)`);
      return served;
    };
    await push('first push (clone, cold build)', target.title);
    const onePage: number[] = [];
    for (let n = 1; n <= ONE_PAGE_PUSHES; n++) {
      repo.write({ [target.file]: `---\ntitle: ${target.title}\n---\n\nChanged page: push ${n}.\n` });
      repo.commit('one page changed');
      onePage.push(await push(`one page changed (push ${n + 1} of ${ONE_PAGE_PUSHES + 1})`, `Changed page: push ${n}.`));
    }
    console.log(`  one page changed, median of ${ONE_PAGE_PUSHES}: push -> served ${seconds(percentile(ascending(onePage), 50))}`);
    logger.level = 'silent';

    // Social images: each drawn when first asked for, at the URL its page's og:image names.
    const imagePaths: string[] = [];
    for (const p of site.pages.slice(0, 20)) {
      const html = await (await fetch(`${server.url}/bench/docs${p.route}`)).text();
      imagePaths.push(new URL(/<meta property="og:image" content="([^"]+)"/.exec(html)![1]!).pathname);
    }
    const timeImages = async () => {
      const times: number[] = [];
      for (const path of imagePaths) {
        const started = performance.now();
        const res = await fetch(`${server.url}${path}`);
        if (res.status !== 200 || (await res.arrayBuffer()).byteLength < 1000) throw new Error(`${path} answered ${res.status}`);
        times.push(performance.now() - started);
      }
      return ascending(times);
    };
    const drawn = await timeImages();
    const again = await timeImages();
    console.log(
      `  social image first request (drawn), ${drawn.length} pages one at a time: p50 ${milliseconds(percentile(drawn, 50))}, max ${milliseconds(drawn.at(-1)!)}; ` +
        `again (stored): p50 ${milliseconds(percentile(again, 50))}, max ${milliseconds(again.at(-1)!)}`,
    );

    const page = await load(`${server.url}/bench/docs${target.route}`, { 'accept-encoding': 'gzip' }, 200);
    console.log(`  cached page  GET /bench/docs${target.route} (gzip):  ${loadFigures(page)}`);
    const redirect = await load(`${server.url}/bench/docs/old/path`, {}, 307);
    console.log(`  redirect     GET /bench/docs/old/path -> 307:  ${loadFigures(redirect)}`);

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
    ascending(latencies);
    // The index query alone, on the same pages (what each search_docs call spends in MiniSearch).
    const index = new SiteSearch(buildSearchIndex(site.pages.map((p) => ({ id: p.route, title: p.title, text: p.text }))));
    const queryStarted = performance.now();
    for (let i = 0; i < 2000; i++) index.search(queries[i % queries.length]!, 5);
    const perQuery = (performance.now() - queryStarted) / 2000;
    console.log(`  MCP search   search_docs (HTTP, stateless MCP request, 5 results): p50 ${milliseconds(percentile(latencies, 50))}, p99 ${milliseconds(percentile(latencies, 99))} over ${latencies.length} calls; the index query alone ${integer(perQuery * 1000)} µs`);
  } finally {
    await server.close();
    repo.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchHosting();
