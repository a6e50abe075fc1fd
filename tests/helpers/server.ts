import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createResourceClient, type ResourceClient } from '../../client-sdk/index.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import type { Config, DatabaseConfig } from '../../server/platform/config.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { restClient, type Rest } from './rest.ts';

/** Tests run on PGlite by default and on PostgreSQL when DATABASE_URL is set (CI runs both). */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/** A database of the test's own: a fresh PGlite data dir from the template, or a new PostgreSQL database. */
export async function createTestDatabase(): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  if (!onPostgres) {
    const dataDir = mkdtempSync(join(tmpdir(), 'tp-test-'));
    return {
      config: { kind: 'pglite', dataDir, template: inject('pgliteTemplate') },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const admin = new URL(process.env.DATABASE_URL!);
  const name = `tp_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withClient(admin.href, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgresql', url: url.href },
    drop: () => withClient(admin.href, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function testConfig(database: DatabaseConfig): Config {
  return { port: 0, host: '127.0.0.1', database, logLevel: 'silent', shutdownTimeoutMs: 5_000, commissionBps: 1000, ledger: { kind: 'embedded' } };
}

export interface TestServer extends RunningServer {
  database: DatabaseConfig;
  /** What the server logged at level error (pino's JSON objects): a request that failed after it was answered shows here. */
  loggedErrors: Record<string, unknown>[];
  /** Stops the server and deletes its database. */
  destroy(): Promise<void>;
}

/** The real server on an ephemeral port with a database of its own. */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const { config, drop } = await createTestDatabase();
  const loggedErrors: Record<string, unknown>[] = [];
  const log = createLogger('error', { destination: { write: (line: string) => void loggedErrors.push(JSON.parse(line)) } });
  const server = await startServer({ ...testConfig(config), ...overrides }, log);
  return {
    ...server,
    database: config,
    loggedErrors,
    async destroy() {
      await server.close();
      await drop();
    },
  };
}

/** Makes every later query of the server fail: PGlite is closed, a PostgreSQL database is dropped. */
export async function breakDatabase(server: TestServer): Promise<void> {
  if (server.database.kind === 'pglite') return server.db.close();
  const url = new URL(server.database.url);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  await withClient(url.href, (c) => c.query(`DROP DATABASE "${name}" WITH (FORCE)`));
}

/** A new organization and its API key. */
export async function createOrganization(server: RunningServer, name = 'Test org') {
  return server.services.organizations.create(name);
}

export interface OrganizationFixture {
  server: TestServer;
  orgId: string;
  apiKey: string;
  /** REST calls with the organization's key. */
  rest: Rest;
  /** The typed SDK with the organization's key. */
  sdk: ResourceClient;
}

/**
 * Registers the hooks of a test file that needs one server and one organization; `receive` gets them
 * once started (`useOrganizationServer((f) => ({ server, rest } = f))`).
 */
export function useOrganizationServer(receive: (fixture: OrganizationFixture) => void) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    const { orgId, apiKey } = await createOrganization(server);
    receive({
      server,
      orgId,
      apiKey,
      rest: restClient(server.url, apiKey),
      sdk: createResourceClient({ baseUrl: server.url, apiKey }),
    });
  });
  afterAll(() => server?.destroy());
}
