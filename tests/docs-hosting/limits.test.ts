/**
 * The limits of a build (docs/docs-hosting.md "Errors and limits of hosted sites"): a build over its memory, its
 * file count or its sizes fails with the reason in its status, and nothing of it is served.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildLimits } from '../../server/docs-hosting/builds/queue.ts';
import { DEFAULT_BUILD_LIMITS } from '../../server/docs-hosting/builds/queue.ts';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { DocsBuild } from '../../server/docs-hosting/entities.ts';
import { commitZeroBlob, hostingConfig, settled, smallDocsRepo } from '../helpers/hosting.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';
import { MAX_CONFIG_BYTES } from '../../sites/config/load.ts';
import { MAX_REDIRECTS } from '../../sites/config/schema/redirects.ts';

const servers: TestServer[] = [];
const repos: GitFixture[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.destroy()));
  repos.forEach((repo) => repo.cleanup());
});

/** Publishes a small repository on a server with `limits`; answers the settled build, and how to publish again. */
async function publishUnder(limits: Partial<BuildLimits>) {
  const docs = hostingConfig({ buildLimits: { ...DEFAULT_BUILD_LIMITS, ...limits } });
  const server = await startTestServer({ rateLimits: 'off', docs });
  servers.push(server);
  const repo = smallDocsRepo();
  repos.push(repo);
  const rest = restClient(server.url, (await createOrganization(server)).apiKey);
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'limited', source: repo.dir })).status).toBe(201);
  const publish = async () => settled(rest, (await rest('POST', '/api/docs/repositories/acme/limited/publish', {})).body);
  return { build: await publish(), server, repo, docs, publish };
}

// Each test waits on a hosted build: ~7 s alone, up to ~24 s when the whole suite loads both cores.
describe('build limits', { timeout: 60_000 }, () => {
  it('more files than allowed: FAILED, saying how many and the limit, nothing served', async () => {
    const { build, server } = await publishUnder({ maxFiles: 5 });
    expect([build.status, build.error]).toEqual(['FAILED', expect.stringMatching(/^The built site has \d+ files, more than the 5 a build may store$/)]);
    expect((await fetch(`${server.url}/acme/limited`)).status).toBe(503);
  });

  it('a file over the per-file size: FAILED, naming the file', async () => {
    const { build } = await publishUnder({ maxFileBytes: 4096 });
    expect([build.status, build.error]).toEqual(['FAILED', expect.stringMatching(/^\S+ is \d+\.\d MB, more than the 0\.0 MB a built file may have$/)]);
  });

  it('a site over the total size: FAILED, naming the total', async () => {
    const { build } = await publishUnder({ maxBytes: 64 << 10 });
    expect([build.status, build.error]).toEqual(['FAILED', expect.stringMatching(/^The built site is \d+\.\d MB, more than the 0\.1 MB a build may store$/)]);
  });

  it('a build that needs more memory than its cap is stopped and says so', async () => {
    const { build } = await publishUnder({ memoryMb: 16 });
    expect([build.status, build.error]).toEqual(['FAILED', 'The build needed more than its 16 MB of memory and was stopped']);
  });
});

describe('a commit without pages', () => {
  it('fails, saying what a site is; an empty build once recorded as a success is built again, never reused', async () => {
    const server = await startTestServer({ rateLimits: 'off', docs: hostingConfig() });
    servers.push(server);
    const repo = createGitRepo();
    repos.push(repo);
    repo.write({ 'docs.json': '{ "name": "Nothing yet" }' });
    repo.commit('config only');
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'empty', source: repo.dir })).status).toBe(201);
    const publish = async () => settled(rest, (await rest('POST', '/api/docs/repositories/acme/empty/publish', {})).body);
    const build = await publish();
    expect([build.status, build.pages, build.error]).toEqual(['FAILED', null, expect.stringMatching(/^No pages in .+: a site is a docs\.json \(or docs\.yaml\) and \.mdx or \.md pages beside it$/)]);
    expect((await fetch(`${server.url}/acme/empty`)).status).toBe(503);

    // As an earlier version recorded it: a success with 0 pages. Publishing the commit again builds it again.
    await server.db.em().nativeUpdate(DocsBuild, { id: build.id }, { status: 'SUCCEEDED', pages: 0, error: null });
    const again = await publish();
    expect([again.id, again.status]).toEqual([build.id, 'FAILED']);
  });
});

describe('which unpublished refs readers may have built', () => {
  it('by default pull requests, branches and tags, not any commit by its SHA; each repository decides', async () => {
    const server = await startTestServer({ rateLimits: 'off', docs: hostingConfig() });
    servers.push(server);
    const repo = smallDocsRepo();
    repos.push(repo);
    const sha = repo.git('rev-parse', 'HEAD').trim();
    repo.git('update-ref', 'refs/pull/3/head', sha);
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    const created = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'gated', source: repo.dir, readerBuilds: { pullRequests: false } });
    expect(created.body.readerBuilds).toEqual({ pullRequests: false, branches: true, tags: true, commits: false });
    // A commit by SHA and, here, a pull request: nobody published them, so there is no such version.
    expect((await fetch(`${server.url}/acme/gated~${sha.slice(0, 12)}/`)).status).toBe(404);
    expect((await fetch(`${server.url}/acme/gated~3/`)).status).toBe(404);
    const updated = await rest('PATCH', '/api/docs/repositories/acme/gated', { readerBuilds: { commits: true, pullRequests: true } });
    expect([updated.status, updated.body.readerBuilds]).toEqual([200, { pullRequests: true, branches: true, tags: true, commits: true }]);
    await new Promise((resolve) => setTimeout(resolve, 2100)); // what a ref serves is cached for 2 s
    expect((await fetch(`${server.url}/acme/gated~3/`)).status).toBe(503); // being built now
    const bad = await rest('PATCH', '/api/docs/repositories/acme/gated', { readerBuilds: { commits: 'yes' } });
    expect([bad.status, bad.body.error]).toEqual([422, 'VALIDATION_ERROR']);
  });
});

describe('repository size', () => {
  it('a repository over DOCS_REPOSITORY_MAX_MB is refused at registration, saying its size, and nothing is kept', async () => {
    const server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ maxRepositoryBytes: 1 << 20 }) });
    servers.push(server);
    const repo = smallDocsRepo();
    repos.push(repo);
    repo.write({ 'images/noise.png': randomBytes(3 << 20).toString('latin1') });
    repo.commit('a large file');
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    const refused = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'huge', source: repo.dir });
    expect([refused.status, refused.body.details]).toEqual([422, { source: expect.stringMatching(/^The repository is \d+ MB, more than the 1 MB this server mirrors$/) }]);
    expect((await rest('GET', '/api/docs/repositories/acme/huge')).status).toBe(404);
  });
});

describe("a commit's files (checked out for a build)", () => {
  it('one zero-filled blob at 33 paths (528 MB from a small repository): FAILED before any of it is written, the last build still served', { timeout: 120_000 }, async () => {
    const { build, server, repo, docs, publish } = await publishUnder({});
    expect(build.status).toBe('SUCCEEDED');
    commitZeroBlob(repo, 16 << 20, Array.from({ length: 33 }, (_, i) => `data/zero-${i}.bin`));
    const bomb = await publish();
    expect([bomb.status, bomb.error]).toEqual(['FAILED', "The commit's files are 528.0 MB, more than the 512 MB a build may check out"]);
    expect((await fetch(`${server.url}/acme/limited`)).status).toBe(200);
    // The mirror and the work trees together: a few hundred kB, never the 528 MB.
    expect(execFileSync('du', ['-sk', join(docs.workDir, 'mirrors')], { encoding: 'utf8' })).toMatch(/^\d{1,4}\t/);
  });
});

describe('the configuration file', () => {
  it('more redirects than a site may have, or a file over 2 MB: FAILED before anything is rendered, the problem saying so', { timeout: 120_000 }, async () => {
    const server = await startTestServer({ rateLimits: 'off', docs: hostingConfig() });
    servers.push(server);
    const repo = smallDocsRepo();
    repos.push(repo);
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'moved', source: repo.dir })).status).toBe(201);
    repo.write({ 'docs.json': JSON.stringify({ name: 'Moved', redirects: Object.fromEntries(Array.from({ length: MAX_REDIRECTS + 1 }, (_, i) => [`/old/${i}`, '/'])) }) });
    const manyRedirects = repo.commit('many redirects');
    repo.write({ 'docs.json': JSON.stringify({ name: 'x'.repeat(MAX_CONFIG_BYTES) }) });
    const largeFile = repo.commit('a large docs.json');
    for (const [commit, problem] of [
      [manyRedirects, 'docs.json:1:17  error  redirects  10,001 redirects: a site may have at most 10,000 (only the first 10,000 are used)'],
      [largeFile, 'docs.json:1:1  error  The file is 2.0 MB: a configuration file may have at most 2.0 MB (not read: every setting has its default)'],
    ] as const) {
      const build = await settled(rest, (await rest('POST', '/api/docs/repositories/acme/moved/publish', { ref: commit })).body);
      expect([build.status, build.error]).toEqual(['FAILED', 'The site has errors']);
      expect(build.problems.filter((p) => p.severity === 'error').map((p) => `${p.file}:${p.line}:${p.column}  ${p.severity}  ${p.path ? `${p.path}  ` : ''}${p.message}`)).toEqual([problem]);
    }
  });
});

describe('the build queue', () => {
  it('organizations take turns: a build of one that has not built lately goes before another queued earlier by a busy one', async () => {
    const server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ buildConcurrency: 1 }) });
    servers.push(server);
    const busy = restClient(server.url, (await createOrganization(server, 'Busy')).apiKey);
    const quiet = restClient(server.url, (await createOrganization(server, 'Quiet')).apiKey);
    const repo = smallDocsRepo();
    repos.push(repo);
    const first = repo.git('rev-parse', 'HEAD').trim();
    repo.write({ 'more.mdx': '# More\n' });
    const second = repo.commit('more');
    for (const [rest, owner] of [[busy, 'busy'], [quiet, 'quiet']] as const) {
      expect((await rest('POST', '/api/docs/repositories', { owner, repo: 'docs', source: repo.dir })).status).toBe(201);
    }
    // Busy queues two builds (one starts at once), then Quiet one.
    const a1 = (await busy('POST', '/api/docs/repositories/busy/docs/publish', { ref: first })).body;
    const a2 = (await busy('POST', '/api/docs/repositories/busy/docs/publish', { ref: second })).body;
    const b1 = (await quiet('POST', '/api/docs/repositories/quiet/docs/publish', { ref: first })).body;
    const [doneA1, doneA2, doneB1] = [await settled(busy, a1), await settled(busy, a2), await settled(quiet, b1)];
    expect([doneA1.status, doneA2.status, doneB1.status]).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
    expect(Date.parse(doneB1.startedAt ?? "")).toBeLessThan(Date.parse(doneA2.startedAt ?? ""));
  }, 120_000);
});
