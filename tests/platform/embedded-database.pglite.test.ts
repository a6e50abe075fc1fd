/**
 * The embedded PGlite database (collected only without DATABASE_URL): one process owns a data dir at a time, and
 * the first start creates a development organization.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
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
      let logged = '';
      const destination = new Writable({ write: (chunk, _encoding, done) => ((logged += chunk.toString()), done()) });
      const first = await startServer(testConfig(config), createLogger('info', { pretty: true, destination }));
      const file = join((config as { dataDir: string }).dataDir, 'dev-organization.json');
      const credentials = JSON.parse(readFileSync(file, 'utf8')) as { orgId: string; apiKey: string };
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await first.services.organizations.authenticate(credentials.apiKey)).toBe(credentials.orgId);
      expect(await first.services.organizations.count()).toBe(1);
      await first.close();
      // One readable line says where the key is and how to print it; the key itself is never logged.
      const said = `the development organization's API key is in ${file}: send it as "Authorization: Bearer <key>"; print it with node -p "require('${file}').apiKey"`;
      expect(logged).toContain(said);
      expect(logged).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: /m);
      expect(logged).not.toContain(credentials.apiKey);
      expect(logged).not.toContain('{"level"');
      // It is said again at every start while the file is there.
      logged = '';
      await (await startServer(testConfig(config), createLogger('info', { pretty: true, destination }))).close();
      expect(logged).toContain(said);
      logged = '';
      rmSync(file);
      const second = await startServer(testConfig(config), createLogger('info', { pretty: true, destination }));
      expect(await second.services.organizations.count()).toBe(1);
      expect(existsSync(file)).toBe(false);
      await second.close();
    } finally {
      await drop();
    }
  });
});
