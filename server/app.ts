import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { pinoHttp } from 'pino-http';
import { appRouter } from '../routers/index.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/orm.ts';
import { ensureDevOrganization } from './dev-organization.ts';
import type { Logger } from './logger.ts';
import { createServices, type Services } from './services/index.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { serveReference } from './http/reference.ts';
import { createRestHandler } from './http/rest.ts';

export interface RunningServer {
  url: string;
  db: Database;
  services: Services;
  /** Stops accepting connections, lets in-flight requests finish (up to the shutdown timeout), closes the database. */
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

/** Opens the database (applying migrations) and serves every surface on one node:http server. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const db = await openDatabase(config.database, (message) => log.debug({ component: 'orm' }, message));
  const services = createServices(db);
  if (config.database.kind === 'pglite') await ensureDevOrganization(services.organizations, config.database.dataDir, log);

  const openapi = JSON.stringify(buildOpenApiDocument());
  const rest = createRestHandler(services, log);
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    createContext: ({ req }) => ({ services, headers: req.headers }),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, path }, 'tRPC call failed');
    },
  });
  const logRequest = pinoHttp({ logger: log, quietReqLogger: true });

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (path === '/trpc' || path.startsWith('/trpc/')) return trpc(req, res);
    if (req.method === 'GET' && path === '/openapi.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(openapi);
    if (req.method === 'GET' && path === '/health') return json(res, 200, { status: 'ok' });
    if (req.method === 'GET' && (await serveReference(path, res))) return;
    return rest(req, res);
  };

  const server = createServer((req, res) => {
    logRequest(req, res);
    route(req, res).catch((err: unknown) => {
      log.error({ err }, 'unhandled request failure');
      if (!res.headersSent) json(res, 500, { message: 'Internal server error', error: 'Internal server error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    db,
    services,
    close() {
      closing ??= (async () => {
        const drained = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
        await drained;
        clearTimeout(timer);
        await db.close();
      })();
      return closing;
    },
  };
}
