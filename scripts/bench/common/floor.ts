/**
 * The honest floors' plumbing: a hand-written node:http server answering from one parameterised statement at a
 * time, with none of our layers (tRPC, the REST adapter, zod, MikroORM, rate limiting), on the database our server
 * has just closed. The embedded database is opened durable, as our server opens it, so a write pays the same fsync.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { DatabaseConfig } from '../../../server/platform/config.ts';
import { openPgliteDataDir } from '../../../server/platform/db/durable-pglite.ts';

/** Runs one parameterised statement ($1, $2, ...) and answers its rows. */
export type Query = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** A request (the body read whole) -> status and JSON body (undefined: none). */
export type Answer = (method: string, url: string, headers: IncomingHttpHeaders, body: string) => Promise<[number, unknown]>;

const send = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
  body === undefined ? res.writeHead(status).end() : res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

/** Serves `answer` on 127.0.0.1; `close()` stops it. */
async function serve(answer: Answer): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      answer(req.method ?? 'GET', req.url ?? '/', req.headers, body).then(
        ([status, json]) => send(res, status, json),
        (error: unknown) => send(res, 500, { error: String(error) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A floor on `database` (closed by our server): PGlite opened on its data dir, or a pool of 10 on PostgreSQL. */
export async function startFloor(database: DatabaseConfig, answerWith: (query: Query) => Answer): Promise<{ url: string; close(): Promise<void> }> {
  if (database.kind === 'pglite') {
    const { pglite } = await openPgliteDataDir(database.dataDir, { fresh: false, fsync: database.fsync ?? true, extensions: { pg_trgm } });
    const server = await serve(answerWith(async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, params)).rows));
    return { url: server.url, close: async () => (await server.close(), await pglite.close()) };
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  const server = await serve(answerWith(async (sql, params) => (await pool.query<Record<string, unknown>>(sql, params)).rows));
  return { url: server.url, close: async () => (await server.close(), await pool.end()) };
}
