import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { MikroORM, Options } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { DatabaseConfig } from '../config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';

export interface Database {
  orm: MikroORM;
  /** A fresh EntityManager (own identity map) for one unit of work. */
  em(): EntityManager;
  close(): Promise<void>;
}

const shared = {
  entities,
  extensions: [Migrator],
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
  // Metadata comes from defineEntity; no reflection or folder discovery.
  discovery: { warnWhenNoEntities: true },
  allowGlobalContext: false,
} satisfies Partial<Options>;

/** Opens PGlite at a data dir. A fresh dir is seeded from a prepared dump when one is given (skips initdb). */
async function openPglite(dataDir: string, template?: string): Promise<PGlite> {
  const isMemory = dataDir.startsWith('memory://');
  if (!isMemory) await mkdir(dataDir, { recursive: true });
  const fresh = isMemory || !existsSync(`${dataDir}/PG_VERSION`);
  const loadDataDir = fresh && template ? new Blob([readFileSync(template)]) : undefined;
  return PGlite.create({ ...(isMemory ? {} : { dataDir }), ...(loadDataDir ? { loadDataDir } : {}) });
}

/** Connects to the configured database and applies pending migrations. */
export async function openDatabase(config: DatabaseConfig, log: (message: string) => void = () => {}): Promise<Database> {
  const options = { ...shared, logger: log };
  let orm: MikroORM;
  let pglite: PGlite | undefined;
  if (config.kind === 'pglite') {
    pglite = await openPglite(config.dataDir, config.template);
    orm = await PgliteORM.init({ ...options, dbName: 'postgres', driverOptions: { pglite } });
  } else {
    orm = await PostgresORM.init({ ...options, clientUrl: config.url, pool: { min: 0, max: 10 } });
  }
  await orm.migrator.up();
  return {
    orm,
    em: () => orm.em.fork() as unknown as EntityManager,
    async close() {
      await orm.close(true);
      await pglite?.close();
    },
  };
}
