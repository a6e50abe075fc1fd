/**
 * The embedded PGlite database (collected only without DATABASE_URL): one process owns a data dir at a time, and
 * the first start creates a development organization.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import { openDatabase } from '../../server/platform/db/orm.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { createTestDatabase, testConfig } from '../helpers/server.ts';

let database: { config: DatabaseConfig; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('the embedded database', () => {
  it('refuses a second opener of the same data dir at once, with a clear message, and opens again once released', async () => {
    const holder = await openDatabase(database.config);
    try {
      await expect(openDatabase(database.config)).rejects.toThrow(/in use by another process/);
    } finally {
      await holder.close();
    }
    const reopened = await openDatabase(database.config);
    await reopened.close();
  });
});

describe('the development organization', () => {
  it('is created on the first start, its key kept in <dataDir>/dev-organization.json (0600); a restart adds none', async () => {
    const { config, drop } = await createTestDatabase();
    try {
      const first = await startServer(testConfig(config), createLogger('silent'));
      const file = join((config as { dataDir: string }).dataDir, 'dev-organization.json');
      const credentials = JSON.parse(readFileSync(file, 'utf8')) as { orgId: string; apiKey: string };
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await first.services.organizations.authenticate(credentials.apiKey)).toBe(credentials.orgId);
      expect(await first.services.organizations.count()).toBe(1);
      await first.close();
      rmSync(file);
      const second = await startServer(testConfig(config), createLogger('silent'));
      expect(await second.services.organizations.count()).toBe(1);
      expect(existsSync(file)).toBe(false);
      await second.close();
    } finally {
      await drop();
    }
  });
});
