/** Organizations and their API keys (the service behind `Authorization: Bearer <key>`), on the real database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganizationService } from '../../server/platform/organizations/service.ts';
import { breakDatabase, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.destroy());

describe('organizations', () => {
  it('a key authenticates as its own organization, also when answered from the cache; other keys as nothing', async () => {
    const organizations = server.services.organizations;
    const a = await organizations.create('A');
    const b = await organizations.create('B');
    expect(a.orgId).not.toBe(b.orgId);
    expect(a.apiKey).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
    for (let i = 0; i < 2; i++) {
      expect(await organizations.authenticate(a.apiKey)).toBe(a.orgId);
      expect(await organizations.authenticate(b.apiKey)).toBe(b.orgId);
    }
    expect(await organizations.authenticate(`${a.apiKey}x`)).toBeUndefined();
    expect(await organizations.authenticate('')).toBeUndefined();
    // A fresh service (another process) reads the same keys from the database.
    expect(await new OrganizationService(server.db).authenticate(a.apiKey)).toBe(a.orgId);
  });
  it('keeps only a hash of each key', async () => {
    const { apiKey } = await server.services.organizations.create('Hashed');
    const rows = await server.db.em().getConnection().execute<{ key_hash: string }[]>('select key_hash from api_key');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.key_hash.includes(apiKey) || apiKey.includes(row.key_hash))).toBe(false);
  });
  it('counts organizations', async () => {
    const before = await server.services.organizations.count();
    await server.services.organizations.create('Counted');
    expect(await server.services.organizations.count()).toBe(before + 1);
  });
  it('answers a known key from memory once seen (no query per request); an unknown key is asked again each time', async () => {
    const own = await startTestServer();
    try {
      const { orgId, apiKey } = await own.services.organizations.create('Cached');
      expect(await own.services.organizations.authenticate(apiKey)).toBe(orgId);
      expect(await own.services.organizations.authenticate('rk_unknown')).toBeUndefined();
      await breakDatabase(own);
      expect(await own.services.organizations.authenticate(apiKey)).toBe(orgId);
      await expect(own.services.organizations.authenticate('rk_unknown')).rejects.toThrow();
    } finally {
      await own.destroy().catch(() => {});
    }
  });
});
