/**
 * The composition root: the one place that wires the products' services, the tRPC routers and HTTP together
 * (docs/architecture.md). Every surface is served by one node:http server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { appRouter, subscriptionRouter } from '../routers/index.ts';
import { docsJsonSchemaText } from '../sites/index.ts';
import { createDocsHosting } from './docs-hosting/index.ts';
import type { EventBus, EventBusOptions } from './marketplace/events/bus.ts';
import { createEventChannels, type EventChannelOptions } from './marketplace/events/websocket.ts';
import { createMarketplace } from './marketplace/index.ts';
import { defaultDocsConfig, type Config } from './platform/config.ts';
import { openDatabase, type Database } from './platform/db/orm.ts';
import { bodyProblem, MAX_BODY_BYTES, readBodyAhead } from './platform/http/body.ts';
import { requestContext } from './platform/http/context.ts';
import { createRequestLogger } from './platform/http/request-log.ts';
import { createCors } from './platform/http/cors.ts';
import { serveHome } from './platform/http/home.ts';
import { buildOpenApiDocument } from './platform/http/openapi.ts';
import { serveReference } from './platform/http/reference.ts';
import { createRestHandler } from './platform/http/rest.ts';
import type { Logger } from './platform/logger.ts';
import { ensureDevOrganization } from './platform/organizations/dev-organization.ts';
import { OrganizationService } from './platform/organizations/service.ts';
import { createRateLimiter, openRateLimiter } from './platform/rate-limiter.ts';
import { ResourceService } from './resources/service.ts';
import type { Services } from './services.ts';
import { compileTrust, rememberClientAddress } from './platform/http/client-address.ts';

export interface RunningServer {
  url: string;
  db: Database;
  services: Services;
  /** Live provider events of this process (also `services.events`). */
  events: EventBus;
  /** Stops accepting connections, lets in-flight requests finish (up to the shutdown timeout), closes the database. */
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

/** Opens the database (applying migrations) and serves every surface on one node:http server. */
export async function startServer(given: Config & { events?: EventBusOptions & EventChannelOptions }, log: Logger): Promise<RunningServer> {
  // PUBLIC_BASE_URL as people write it (`https://docs.example.com/`): every URL made from it appends a path.
  const config = given.publicBaseUrl ? { ...given, publicBaseUrl: given.publicBaseUrl.replace(/\/+$/, '') } : given;
  const db = await openDatabase(config.database, (message) => log.debug({ component: 'orm' }, message));
  const rateLimiter = openRateLimiter(config, log);
  const marketplace = await createMarketplace(
    db,
    { database: config.database, ledger: config.ledger, commissionBps: config.commissionBps, publicBaseUrl: config.publicBaseUrl, ...(config.events ? { events: config.events } : {}) },
    log,
  );
  // Chat questions are counted whatever RATE_LIMITS says (agent.limits belong to the sites, not to the API).
  const chatLimiter = config.rateLimits === 'off' ? createRateLimiter({ kind: 'memory' }) : rateLimiter;
  const docs = createDocsHosting(db, config.docs ?? defaultDocsConfig(config.database), { publicBaseUrl: config.publicBaseUrl, log, limiter: chatLimiter });
  const services: Services = {
    organizations: new OrganizationService(db),
    resources: new ResourceService(db),
    rateLimiter,
    ...marketplace.services,
    docs: docs.services,
  };
  if (config.database.kind === 'pglite') await ensureDevOrganization(services.organizations, config.database.dataDir, log);

  await marketplace.start();
  // The embedded database has one process: builds it left running were a dead process's, queued again at once.
  await docs.start({ sole: config.database.kind === 'pglite' });
  const channels = createEventChannels(services, services.events, subscriptionRouter, log, config.events);

  const openapi = JSON.stringify(buildOpenApiDocument(appRouter, config.publicBaseUrl));
  const cors = createCors(config.corsOrigins);
  // The JSON Schema of docs.json / docs.yaml (from the zod schema that validates them), public and cacheable.
  const docsSchema = docsJsonSchemaText(config.publicBaseUrl ? { baseUrl: config.publicBaseUrl } : {});
  const docsSchemaHeaders = { 'Content-Type': 'application/schema+json', 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' };
  const rest = createRestHandler(appRouter, services, log);
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req, res }) => {
      const problem = bodyProblem(req);
      if (problem) {
        res.setHeader('Connection', 'close'); // the rest of the body is left unread
        throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: problem.message, cause: problem });
      }
      return requestContext(services, req, res);
    },
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, path }, 'tRPC call failed');
    },
  });
  const logRequest = createRequestLogger(log);
  const trust = config.trustProxy ? compileTrust(config.trustProxy) : undefined;

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    // Only origin-form targets ("/path?query"); "*" and absolute URLs are not requests for this API.
    if (!req.url?.startsWith('/')) return json(res, 400, { message: 'Bad request', error: 'The request target must be a path' });
    const path = req.url.split('?', 1)[0] ?? '/';
    // Hosted documentation first: on a vanity subdomain or a custom domain every path is the site's (a page may be
    // called /reference or /health); on the service host /{owner}/{repo}..., whose owners never take the paths below.
    if (await docs.handle(req, res)) return;
    if (await marketplace.handle(req, res)) return;
    if (path === '/ws') return channels.handleRequest(req, res);
    if (req.method === 'GET' && path === '/schema.json') return res.writeHead(200, docsSchemaHeaders).end(docsSchema);
    if (serveHome(req, path, res)) return;
    if (req.method === 'GET' && (await serveReference(path, res))) return;
    // The API and its description, for browser apps on other origins too (CORS_ORIGINS): preflights end here.
    if (cors(req, res)) return;
    if (path === '/trpc' || path.startsWith('/trpc/')) {
      await readBodyAhead(req);
      return trpc(req, res);
    }
    if (req.method === 'GET' && path === '/openapi.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(openapi);
    if (req.method === 'GET' && path === '/health') return json(res, 200, { status: 'ok' });
    return rest(req, res);
  };

  let closing: Promise<void> | undefined;
  // Responses not yet answered; once shutdown begins each closes its connection, so keep-alive sockets do not linger.
  const unanswered = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (closing) res.setHeader('Connection', 'close');
    unanswered.add(res);
    res.once('finish', () => unanswered.delete(res)).once('close', () => unanswered.delete(res));
    rememberClientAddress(req, trust);
    logRequest(req, res);
    route(req, res).catch((err: unknown) => {
      log.error({ err }, 'unhandled request failure');
      if (!res.headersSent) json(res, 500, { message: 'Internal server error', error: 'Internal server error' });
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    rememberClientAddress(req, trust);
    channels.handleUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  return {
    url: `http://${host}:${port}`,
    db,
    services,
    events: services.events,
    close() {
      closing ??= (async () => {
        for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
        const drained = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
        await channels.close();
        await docs.close();
        await marketplace.stop();
        await drained;
        clearTimeout(timer);
        await rateLimiter.close();
        if (chatLimiter !== rateLimiter) await chatLimiter.close();
        await marketplace.close();
        await db.close();
      })();
      return closing;
    },
  };
}
