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
import { MAX_BODY_BYTES } from './http/body.ts';
import { createRestHandler } from './http/rest.ts';
import { requestContext } from './http/context.ts';
import { createRateLimiter } from './rate-limit.ts';
import pg from 'pg';

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
  // Rate-limit counters: in memory for the single-process embedded default, else shared through PostgreSQL.
  const limiterPool = config.database.kind === 'postgresql' && config.rateLimits !== 'off' ? new pg.Pool({ connectionString: config.database.url, max: 5 }) : undefined;
  const rateLimiter = createRateLimiter(
    config.rateLimits === 'off'
      ? { kind: 'off' }
      : limiterPool
        ? { kind: 'postgres', pool: limiterPool, onStoreError: (err, rule) => log.warn({ err, rule: rule.name }, 'rate-limit store failed; counting in memory') }
        : { kind: 'memory' },
  );
  const services = createServices(db, {
    rateLimiter,
    log: (err) => log.warn({ err }, 'background cleanup failed'),
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
  });
  if (config.database.kind === 'pglite') await ensureDevOrganization(services.organizations, config.database.dataDir, log);

  const openapi = JSON.stringify(buildOpenApiDocument());
  const rest = createRestHandler(services, log);
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req, res }) => requestContext(services, req, res),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, path }, 'tRPC call failed');
    },
  });
  // API keys never reach the logs.
  const logRequest = pinoHttp({ logger: log, quietReqLogger: true, redact: ['req.headers.authorization'] });

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    // Only origin-form targets ("/path?query"); "*" and absolute URLs are not requests for this API.
    if (!req.url?.startsWith('/')) return json(res, 400, { message: 'Bad request', error: 'The request target must be a path' });
    const path = req.url.split('?', 1)[0] ?? '/';
    if (path === '/trpc' || path.startsWith('/trpc/')) return trpc(req, res);
    if (req.method === 'GET' && path === '/openapi.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(openapi);
    if (req.method === 'GET' && path === '/health') return json(res, 200, { status: 'ok' });
    if (req.method === 'GET' && (await serveReference(path, res))) return;
    return rest(req, res);
  };

  let closing: Promise<void> | undefined;
  // Responses not yet answered; once shutdown begins each closes its connection, so keep-alive sockets do not linger.
  const unanswered = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (closing) res.setHeader('Connection', 'close');
    unanswered.add(res);
    res.once('finish', () => unanswered.delete(res)).once('close', () => unanswered.delete(res));
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

  return {
    url: `http://${host}:${port}`,
    db,
    services,
    close() {
      closing ??= (async () => {
        for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
        const drained = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
        await drained;
        clearTimeout(timer);
        await rateLimiter.close();
        await limiterPool?.end();
        await db.close();
      })();
      return closing;
    },
  };
}
