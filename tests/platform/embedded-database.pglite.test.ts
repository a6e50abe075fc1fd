/**
 * The embedded PGlite database (collected only without DATABASE_URL): one process owns a data dir at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/platform/db/orm.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createTestDatabase } from '../helpers/server.ts';

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
