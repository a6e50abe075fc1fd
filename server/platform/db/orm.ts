import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import lockfile from 'proper-lockfile';
import pg from 'pg';
import type { MikroORM, Options } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { DatabaseConfig } from '../config.ts';
import { entities } from './entities.ts';
import { openPgliteDataDir } from './durable-pglite.ts';
import { migrations } from './migrations/index.ts';

export interface Database {
  orm: MikroORM;
  /** A fresh EntityManager (own identity map) for one unit of work. */
  em(): EntityManager;
  /** Closes the connection (and releases the embedded data dir); later calls wait for the first. */
  close(): Promise<void>;
}

const shared = {
  entities,
  extensions: [Migrator],
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
  // rate-limiter-flexible keeps its own table; migrations must neither create nor drop it.
  schemaGenerator: { skipTables: ['rate_limits'] },
  // Metadata comes from defineEntity; no reflection or folder discovery.
  discovery: { warnWhenNoEntities: true },
  allowGlobalContext: false,
} satisfies Partial<Options>;

/**
 * A PGlite data dir has no lock of its own, and two processes on one dir silently diverge. This lock
 * makes a second opener (another server, `npm run org:create`) fail with a clear message instead.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    // The holder refreshes the lock every 2 s; a crashed holder's lock is taken over after 10 s.
    return await lockfile.lock(dataDir, { stale: 10_000, update: 2_000 });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
    throw new Error(
      `The embedded database in ${dataDir} is in use by another process (a running server?), or its ` +
        'last user stopped less than 10 s ago. Stop it first, or point both at PostgreSQL with DATABASE_URL.',
    );
  }
}

/** PostgreSQL extensions the schema uses (PGlite loads them explicitly). */
const extensions = { pg_trgm };

/** Opens PGlite at a data dir. A fresh dir is seeded from a prepared dump when one is given (skips initdb). */
async function openPglite(dataDir: string, template?: string, fsync = true): Promise<{ pglite: PGlite; unlock(): Promise<void> }> {
  if (dataDir.startsWith('memory://')) {
    const loadDataDir = template ? new Blob([readFileSync(template)]) : undefined;
    return { pglite: await PGlite.create({ extensions, ...(loadDataDir ? { loadDataDir } : {}) }), unlock: async () => {} };
  }
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  try {
    const fresh = !existsSync(`${dataDir}/PG_VERSION`);
    const loadDataDir = fresh && template ? new Blob([readFileSync(template)]) : undefined;
    const { pglite } = await openPgliteDataDir(dataDir, { fresh, fsync, extensions, ...(loadDataDir ? { loadDataDir } : {}) });
    return { pglite, unlock };
  } catch (error) {
    await unlock();
    throw error;
  }
}

/** Any number of servers may start at once on one PostgreSQL: one migrates while the others wait. */
async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['typed-platform:migrations']);
    return await migrate();
  } finally {
    await client.end(); // ending the session releases the lock
  }
}

/** Connects to the configured database and applies pending migrations. */
export async function openDatabase(config: DatabaseConfig, log: (message: string) => void = () => {}): Promise<Database> {
  const options = { ...shared, logger: log };
  let orm: MikroORM;
  let embedded: Awaited<ReturnType<typeof openPglite>> | undefined;
  if (config.kind === 'pglite') {
    embedded = await openPglite(config.dataDir, config.template, config.fsync);
    orm = await PgliteORM.init({ ...options, dbName: 'postgres', driverOptions: { pglite: embedded.pglite } });
  } else {
    orm = await PostgresORM.init({ ...options, clientUrl: config.url, pool: { min: 0, max: 10 } });
  }
  try {
    const migrate = () => orm.migrator.up();
    await (config.kind === 'postgresql' ? withMigrationLock(config.url, migrate) : migrate());
  } catch (error) {
    await orm.close(true);
    await embedded?.pglite.close();
    await embedded?.unlock();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    orm,
    em: () => orm.em.fork() as unknown as EntityManager,
    close() {
      closed ??= (async () => {
        await orm.close(true);
        await embedded?.pglite.close();
        await embedded?.unlock();
      })();
      return closed;
    },
  };
}
