/**
 * Documentation hosting across processes: the `docs` CLI as a process against the server, a server killed or stopped
 * in the middle of a build (the build is finished by the next start, nothing half-published). Two servers on one
 * PostgreSQL serving what either built: processes.postgres.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createLogger } from '../../server/platform/logger.ts';
import type { GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { get, hostingConfig, settled, smallDocsRepo, type Build } from '../helpers/hosting.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, createTestDatabase, onPostgres, startTestServer, testConfig, type TestServer } from '../helpers/server.ts';
import { processEnded, restartServerProcess, startServerProcess, stopServerProcess } from '../helpers/server-process.ts';

const run = promisify(execFile);
const repos: GitFixture[] = [];
afterAll(() => repos.forEach((repo) => repo.cleanup()));
const docsRepo = (pages?: number) => {
  const repo = smallDocsRepo(pages);
  repos.push(repo);
  return repo;
};

describe('the docs CLI against a running server', () => {
  let server: TestServer;
  let dns: DnsStandIn;
  let apiKey: string;
  beforeAll(async () => {
    dns = await startDnsStandIn();
    server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ dnsServers: [dns.server] }) });
    apiKey = (await createOrganization(server)).apiKey;
  });
  afterAll(async () => {
    await server?.destroy();
    await dns?.close();
  });

  const docs = async (args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['sites/cli/docs.ts', ...args], { env: { ...process.env, DOCS_SERVER: server.url, DOCS_API_KEY: apiKey, ...env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('repo add, publish --wait, status, agent create, domain add', async () => {
    const repo = docsRepo();
    const added = await docs(['repo', 'add', 'acme/cli', repo.dir]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`registered acme/cli: ${server.url}/acme/cli`);
    expect(added.stdout).toMatch(/webhook secret \(shown once\): \S{20,}/);

    const publish = await docs(['publish', 'acme/cli', '--wait']);
    expect(publish.code, publish.stderr).toBe(0);
    expect(publish.stdout).toContain(`published 3 pages: ${server.url}/acme/cli`);
    expect((await get(server.url, '/acme/cli/page-2')).text).toContain('Text of page 2.');

    const status = await docs(['status', 'acme/cli']);
    expect(status.stdout).toContain('acme/cli (default branch: main)');
    expect(status.stdout).toMatch(/refs\/heads\/main {2}http:\/\/\S+\/acme\/cli {2}up to date/);
    expect(status.stdout).toMatch(/SUCCEEDED/);

    const agent = await docs(['agent', 'create', 'acme/cli', '--provider', 'mistral'], { MISTRAL_API_KEY: 'mk-secret' });
    expect(agent.code, agent.stderr).toBe(0);
    expect(agent.stdout.trim()).toMatch(/^dak_\S+$/);
    expect(agent.stdout + agent.stderr).not.toContain('mk-secret');
    const mapped = await docs(['domain', 'add', 'docs.cli.test', 'acme/cli']);
    expect(mapped.stdout).toContain('docs.cli.test serves nothing until you prove it is yours');
    const record = /_docs-challenge\.docs\.cli\.test {2}TXT {2}"(docs-verification=[0-9a-f]{32})"/.exec(mapped.stdout);
    expect(record, mapped.stdout).not.toBeNull();
    expect((await docs(['domain', 'verify', 'docs.cli.test'])).code).toBe(1);
    dns.txt('_docs-challenge.docs.cli.test', [record![1]!]);
    const verified = await docs(['domain', 'verify', 'docs.cli.test']);
    expect([verified.code, verified.stdout.trim()]).toEqual([0, 'docs.cli.test is verified and serves its repository: point its DNS at this server']);
  });

  it('a failed publish exits 1 with the problems; usage errors exit 2; an unreachable server exits 1', async () => {
    const repo = docsRepo();
    repo.write({ 'docs.json': '{ "name": ' });
    repo.commit('broken');
    expect((await docs(['repo', 'add', 'acme/broken', repo.dir])).code).toBe(0);
    const failed = await docs(['publish', 'acme/broken', '--wait']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/docs\.json:1:\d+ {2}error/);
    expect(failed.stderr).toContain('Build failed');
    expect((await docs(['publish'])).code).toBe(2);
    expect((await docs(['agent', 'create', 'acme/cli'])).code).toBe(1); // no --provider
    const away = await docs(['status', 'acme/cli'], { DOCS_SERVER: 'http://127.0.0.1:9' });
    expect([away.code, away.stderr]).toEqual([1, expect.stringContaining('Cannot reach http://127.0.0.1:9')]);
  });
});

/** An organization's key on a shared database, made by a server of the test's own. */
async function organizationKey(database: DatabaseConfig): Promise<string> {
  const server = await startServer(testConfig(database), createLogger('silent'));
  try {
    return (await createOrganization(server)).apiKey;
  } finally {
    await server.close();
  }
}

/**
 * A server process on a data dir of its own (and on PostgreSQL a throwaway database) that publishes a 40-page
 * repository as `acme/<name>`: its build is queued when this answers.
 */
async function serverPublishing(name: string, env: NodeJS.ProcessEnv) {
  const dataDir = mkdtempSync(join(tmpdir(), `docs-${name}-`));
  const throwaway = onPostgres ? await createTestDatabase() : undefined;
  const database: DatabaseConfig | 'pglite' = throwaway?.config ?? 'pglite';
  const server = await startServerProcess(database, { dataDir, env });
  const apiKey = throwaway ? await organizationKey(throwaway.config) : (JSON.parse(readFileSync(join(dataDir, 'dev-organization.json'), 'utf8')) as { apiKey: string }).apiKey;
  const rest = restClient(server.url, apiKey);
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: name, source: docsRepo(40).dir })).status).toBe(201);
  const queued = (await rest<Build>('POST', `/api/docs/repositories/acme/${name}/publish`, {})).body;
  return { server, rest, queued, apiKey, database, dataDir, throwaway };
}

describe('a server killed in the middle of a build', () => {
  it('leaves nothing half-published; the next start builds it again and serves the site', async () => {
    // PGlite: the restarted process is the database's only one and takes the build at once; PostgreSQL: after its lease.
    const env = { DOCS_LOCAL_SOURCES: 'on', DOCS_BUILD_LEASE_MS: '3000', RATE_LIMITS: 'off' };
    const { server, rest, queued, apiKey, database, dataDir, throwaway } = await serverPublishing('crash', env);
    // Killed once the build runs.
    for (let i = 0; (await rest<Build>('GET', `/api/docs/builds/${queued.id}`)).body.status !== 'BUILDING'; i++) {
      if (i > 200) throw new Error('the build never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stopServerProcess(server, 'SIGKILL');
    const restarted = await restartServerProcess(database, { dataDir, env });
    const again = restClient(restarted.url, apiKey);
    try {
      expect((await get(restarted.url, '/acme/crash/page-39')).status).not.toBe(200); // nothing served from a build that did not finish
      const build = await settled(again, queued, 120_000);
      expect(build).toMatchObject({ status: 'SUCCEEDED', pages: 40 });
      expect((await get(restarted.url, '/acme/crash/page-39')).text).toContain('Text of page 39.');
      expect((await again('GET', '/api/docs/repositories/acme/crash/builds')).body.total).toBe(1);
    } finally {
      await stopServerProcess(restarted);
      await throwaway?.drop();
    }
  }, 180_000);
});

/** The build process (builds/worker.ts) of a server process, once it runs one. */
async function buildProcessOf(server: number): Promise<number> {
  for (let i = 0; i < 200; i++) {
    for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
        if (parent === server && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('builds/worker.ts')) return Number(entry);
      } catch {
        // it ended while read
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server never started a build process');
}

describe('a server stopped (SIGTERM) in the middle of a build', () => {
  it('ends the build process and exits without waiting for the build; the next start builds it', async () => {
    // On PostgreSQL too the build is queued again at once: no lease to wait for (DOCS_BUILD_LEASE_MS is the default minute).
    const env = { DOCS_LOCAL_SOURCES: 'on', RATE_LIMITS: 'off', SHUTDOWN_TIMEOUT_MS: '10000' };
    const { server, queued, apiKey, database, dataDir, throwaway } = await serverPublishing('stop', env);
    const builder = await buildProcessOf(server.child.pid!);
    const stopping = Date.now();
    expect(await stopServerProcess(server)).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000); // SHUTDOWN_TIMEOUT_MS
    expect(processEnded(builder)).toBe(true);
    const restarted = Date.now();
    const second = await startServerProcess(database, { dataDir, env });
    try {
      const build = (await settled(restClient(second.url, apiKey), queued, 120_000)) as Build & { finishedAt: string };
      expect(build).toMatchObject({ status: 'SUCCEEDED', pages: 40 });
      expect(Date.parse(build.finishedAt)).toBeGreaterThan(restarted); // built by the second server, not while the first stopped
      expect((await get(second.url, '/acme/stop/page-39')).text).toContain('Text of page 39.');
    } finally {
      await stopServerProcess(second);
      await throwaway?.drop();
    }
  }, 180_000);
});

describe('a build whose lease is taken over', () => {
  it('stops, and only the attempt that holds the build finishes it', async () => {
    const server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ leaseMs: 3000 }) });
    try {
      const rest = restClient(server.url, (await createOrganization(server)).apiKey);
      const repo = docsRepo(30);
      expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'lease', source: repo.dir })).status).toBe(201);
      const queued = (await rest<Build>('POST', '/api/docs/repositories/acme/lease/publish', {})).body;
      for (let i = 0; (await rest<Build>('GET', `/api/docs/builds/${queued.id}`)).body.status !== 'BUILDING'; i++) {
        if (i > 200) throw new Error('the build never started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // As if another process had claimed it (its attempt number moves on): this attempt must not finish it.
      await server.db.em().execute(`update docs_build set attempts = attempts + 1 where id = ?`, [queued.id]);
      const build = await settled(rest, queued, 120_000);
      expect(build).toMatchObject({ status: 'SUCCEEDED', pages: 30 });
      // Attempt 1 was fenced off, attempt 2 (the "other process") never ran here, attempt 3 took the build after its lease.
      const [row] = await server.db.em().execute<{ attempts: number }[]>('select attempts from docs_build where id = ?', [queued.id]);
      expect(row?.attempts).toBe(3);
    } finally {
      await server.destroy();
    }
  }, 120_000);
});
