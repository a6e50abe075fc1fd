/**
 * Documentation hosting on several servers over one PostgreSQL (collected only with DATABASE_URL): built files
 * live in the database, so a site published through one server is served by another.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startServer } from '../../server/app.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { get, hostingConfig, published, smallDocsRepo } from '../helpers/hosting.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, createTestDatabase, testConfig } from '../helpers/server.ts';

const repos: GitFixture[] = [];
afterAll(() => repos.forEach((repo) => repo.cleanup()));

describe('two servers on one PostgreSQL', () => {
  it('a site published through one is served by the other (built files live in the database)', async () => {
    const { config: database, drop } = await createTestDatabase();
    const a = await startServer({ ...testConfig(database), rateLimits: 'off', docs: hostingConfig() }, createLogger('silent'));
    const b = await startServer({ ...testConfig(database), rateLimits: 'off', docs: hostingConfig({ buildConcurrency: 1 }) }, createLogger('silent'));
    try {
      const rest = restClient(a.url, (await createOrganization(a)).apiKey);
      const repo = smallDocsRepo();
      repos.push(repo);
      expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'shared', source: repo.dir })).status).toBe(201);
      await published(rest, 'acme/shared');
      expect((await get(b.url, '/acme/shared/page-1')).text).toContain('Text of page 1.');
      expect((await get(a.url, '/acme/shared/page-1')).text).toContain('Text of page 1.');
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  }, 120_000);
});
