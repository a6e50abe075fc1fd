/**
 * Repositories written for docs.page or Mintlify, hosted unchanged: their vendor key names build, the notes that
 * name our keys come back with the build (severity `info`, never a failure), and the site is served.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { FIXTURES } from '../helpers/docs.ts';
import { get, hostingConfig, published } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let rest: Rest;
const repos: GitFixture[] = [];

/** A git repository holding a fixture folder's files, committed. */
function repositoryOf(fixture: string): GitFixture {
  const dir = join(FIXTURES, fixture);
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[relative(dir, join(entry.parentPath, entry.name))] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  const repo = createGitRepo();
  repo.write(files);
  repo.commit(fixture);
  repos.push(repo);
  return repo;
}

beforeAll(async () => {
  server = await startTestServer({ rateLimits: 'off', docs: hostingConfig() });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
}, 60_000);
afterAll(async () => {
  await server?.destroy();
  repos.forEach((repo) => repo.cleanup());
});

describe('vendor repositories', () => {
  it.for(['config-mintlify', 'config-docs-page'])('%s builds as it is, its notes returned with the build, and is served', { timeout: 120_000 }, async (fixture) => {
    const name = fixture.replace('config-', '');
    expect((await rest('POST', '/api/docs/repositories', { owner: 'vendor', repo: name, source: repositoryOf(fixture).dir })).status).toBe(201);
    const build = await published(rest, `vendor/${name}`);
    expect(build.problems.length).toBeGreaterThan(0);
    expect(build.problems.every((p) => p.severity === 'info')).toBe(true);
    expect(build.problems.map((p) => p.message).join('\n')).toMatch(/name for `[a-zA-Z.]+`: rename it \(or run `docs migrate`\)/);
    const home = await get(server.url, `/vendor/${name}`);
    expect(home.status).toBe(200);
  });
});
