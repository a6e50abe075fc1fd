/**
 * The databases a bench runs on, each thrown away afterwards: embedded PGlite in a fresh temp data dir, and
 * PostgreSQL when it can be reached (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; a
 * bench_<random> database created on it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../../server/platform/config.ts';

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface ThrowawayDatabase {
  label: string;
  config: DatabaseConfig;
  drop(): Promise<void>;
}

export function createPgliteDatabase(): ThrowawayDatabase {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
  return {
    label: `PGlite (embedded, fresh data dir ${dataDir})`,
    config: { kind: 'pglite', dataDir },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A new bench_<random> database on the server at `adminUrl`; throws when PostgreSQL can't be reached. */
async function createPostgresDatabase(adminUrl: string): Promise<ThrowawayDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await withPgClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    label: `PostgreSQL (${redactPassword(url.href)})`,
    config: { kind: 'postgresql', url: url.href },
    drop: async () => {
      await withPgClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function withPgClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/** `bench` on a new PostgreSQL database; a line saying why when none can be created. */
export async function onPostgresIfReachable(bench: (database: ThrowawayDatabase) => Promise<void>): Promise<void> {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL;
  let database: ThrowawayDatabase;
  try {
    database = await createPostgresDatabase(adminUrl);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`\n== PostgreSQL (${redactPassword(adminUrl)}): skipped, cannot create a database there: ${reason}`);
    return;
  }
  await bench(database);
}
