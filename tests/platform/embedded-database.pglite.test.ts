/**
 * The embedded PGlite database (collected only without DATABASE_URL): one process owns a data dir at a time, and
 * the first start creates a development organization.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import { DURABLE_START_PARAMS, DurableNodeFS, fsyncTree, openPgliteDataDir } from '../../server/platform/db/durable-pglite.ts';
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

describe('durability (PGLITE_FSYNC)', () => {
  const settings = async (pglite: { query<T>(sql: string): Promise<{ rows: T[] }> }) =>
    (await pglite.query<{ name: string; setting: string }>("select name, setting from pg_settings where name in ('fsync', 'wal_sync_method') order by name")).rows;

  it('on (the default): PostgreSQL runs with fsync, and every commit syncs before it is acknowledged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-durable-'));
    try {
      const { pglite, fs } = await openPgliteDataDir(dir, { fresh: true, fsync: true });
      expect(await settings(pglite)).toEqual([
        { name: 'fsync', setting: 'on' },
        { name: 'wal_sync_method', setting: 'fsync' },
      ]);
      await pglite.exec('create table durable (n int)');
      const before = fs!.syncs;
      for (let n = 0; n < 5; n++) await pglite.query('insert into durable values ($1)', [n]);
      expect(fs!.syncs - before).toBeGreaterThanOrEqual(5); // the WAL, once per commit
      const unchanged = fs!.syncs;
      await pglite.query('select count(*) from durable');
      expect(fs!.syncs).toBe(unchanged); // a read syncs nothing
      await pglite.close();
      // A default config is durable: loadConfig without PGLITE_FSYNC.
      const reopened = await openDatabase({ kind: 'pglite', dataDir: dir });
      const [row] = await reopened.em().execute<{ setting: string }[]>("select setting from pg_settings where name = 'fsync'");
      expect(row?.setting).toBe('on');
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an OS crash keeps every acknowledged commit: a copy holding only what was synced opens with all of them', async () => {
    // The model of an OS crash: each file as it was when last synced; what was written after is lost. The new dir
    // is synced whole at open, so the copy starts as the dir is then; each sync PostgreSQL makes copies that file.
    const crashCopy = async (fsyncOn: boolean) => {
      const dir = mkdtempSync(join(tmpdir(), 'tp-durable-'));
      const disk = `${dir}-disk`;
      const fs = new DurableNodeFS(dir);
      const pglite = await PGlite.create({ fs, startParams: fsyncOn ? DURABLE_START_PARAMS : PGlite.defaultStartParams });
      fsyncTree(dir);
      cpSync(dir, disk, { recursive: true });
      fs.onSync = (path) => {
        const target = join(disk, relative(dir, path));
        if (statSync(path).isDirectory()) mkdirSync(target, { recursive: true });
        else cpSync(path, target);
      };
      await pglite.exec('create table acknowledged (n int)');
      for (let n = 0; n < 20; n++) await pglite.query('insert into acknowledged values ($1)', [n]);
      fs.onSync = undefined; // the crash: nothing after this reaches the disk (the process is abandoned, not closed)
      const after = await PGlite.create({ dataDir: disk });
      try {
        return await after.query<{ count: number }>('select count(*)::int as count from acknowledged').then((r) => r.rows[0]?.count, (error: Error) => error.message);
      } finally {
        await after.close();
        await pglite.close();
        for (const path of [dir, disk]) rmSync(path, { recursive: true, force: true });
      }
    };
    expect(await crashCopy(true)).toBe(20);
    // The same crash as PGlite ships (fsync off): nothing after the open reached the disk.
    expect(await crashCopy(false)).toMatch(/relation "acknowledged" does not exist/);
  });

  it('off: as PGlite ships (fsync off), for throwaway data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-durable-'));
    try {
      const { pglite, fs } = await openPgliteDataDir(dir, { fresh: true, fsync: false });
      expect(fs).toBeUndefined();
      expect((await settings(pglite))[0]).toEqual({ name: 'fsync', setting: 'off' });
      await pglite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
