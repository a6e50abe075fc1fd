import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { DocsConfig } from '../platform/config.ts';
import type { Database } from '../platform/db/orm.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateLimiter } from '../platform/rate-limiter.ts';
import { BuildQueue } from './builds/queue.ts';
import { ChatAgentService } from './chat-agents.ts';
import { createChatRoute } from './chat/chat.ts';
import { dnsChallengeLookup } from './domain-check.ts';
import { DomainService } from './domains.ts';
import { Mirrors } from './mirrors.ts';
import { PublishingService } from './publishing.ts';
import { RepositoryService } from './repositories.ts';
import { SecretBox } from './secrets.ts';
import { createMcpRoute } from './serving/mcp.ts';
import { createDocsHandler } from './serving/serve.ts';
import { DocsSites } from './serving/sites.ts';
import { SocialImages } from './serving/social.ts';

/** Builds of unpublished refs one reader's address may ask for. */
const BUILDS_ON_DEMAND = { name: 'docs-builds-on-demand', points: 20, durationSeconds: 3600 };

/** What the hosting API's routers call. */
export interface DocsHostingServices {
  repositories: RepositoryService;
  publishing: PublishingService;
  domains: DomainService;
  chatAgents: ChatAgentService;
}

export interface DocsHosting {
  services: DocsHostingServices;
  sites: DocsSites;
  /** Answers requests for hosted sites; false for everything else. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Starts taking builds (`sole`: this process alone uses the database). */
  start(options: { sole: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Documentation hosting as one piece: git mirrors, the build queue, the organization API's services
 * (repositories, publishing and the webhook, domains, chat agents), site serving with its MCP endpoint and chat
 * panel. `limiter` counts chat questions (agent.limits).
 */
export function createDocsHosting(
  db: Database,
  config: DocsConfig,
  options: { publicBaseUrl?: string | undefined; log: Logger; limiter: RateLimiter },
): DocsHosting {
  const { log } = options;
  const secrets = SecretBox.load({ key: config.secretKey, file: config.secretFile });
  const serviceHost = options.publicBaseUrl ? new URL(options.publicBaseUrl).hostname : undefined;
  const mirrors = new Mirrors(join(config.workDir, 'mirrors'), { allowLocal: config.allowLocalSources, ...(config.maxRepositoryBytes ? { maxBytes: config.maxRepositoryBytes } : {}) });
  const sites = new DocsSites(db, {
    vanityDomain: config.vanityDomain,
    serviceHosts: serviceHost ? [serviceHost] : [],
    checkDomain: (domain) => domains.check(domain),
    refName: (repository, ref) => mirrors.lookup(repository.id, ref).then((found) => found?.ref, () => undefined),
    buildOnDemand: async (repository, ref, client) => {
      // Each reader's address may have only so many unpublished versions built for it (on top of the per-repository cap).
      const decision = await options.limiter.consume(BUILDS_ON_DEMAND, `ip:${client}`);
      return decision.allowed ? publishing.buildOnDemand(repository.id, ref) : { limited: decision.retryAfterSeconds };
    },
  });
  const queue = new BuildQueue(db, mirrors, {
    workDir: config.workDir,
    concurrency: config.buildConcurrency,
    timeoutMs: config.buildTimeoutMs,
    ...(config.buildLimits ? { limits: config.buildLimits } : {}),
    ...(config.leaseMs ? { leaseMs: config.leaseMs } : {}),
    onDeployed: () => sites.invalidate(),
    log: (level, data, message) => log[level](data, message),
  });
  const onChange = () => sites.invalidate();
  const warn = (data: Record<string, unknown>, message: string) => log.warn(data, message);
  const repositories = new RepositoryService(db, { mirrors, secrets, publicBaseUrl: options.publicBaseUrl, log: warn });
  const publishing = new PublishingService(db, { repositories, mirrors, queue, secrets, onChange, log: warn });
  const domains = new DomainService(db, { repositories, lookup: dnsChallengeLookup(config.dnsServers), serviceHost, vanityDomain: config.vanityDomain, onChange });
  const services: DocsHostingServices = {
    repositories,
    publishing,
    domains,
    chatAgents: new ChatAgentService(db, { repositories, secrets }),
  };
  const chat = createChatRoute({ db, sites, secrets, limiter: options.limiter, providerUrls: config.providerUrls, log: (data, message) => log.warn(data, message) });
  let recheck: NodeJS.Timeout | undefined;
  const social = new SocialImages(db, sites, { log: (err) => log.warn({ err }, 'a social image could not be drawn') });
  const handle = createDocsHandler(sites, { publicBaseUrl: options.publicBaseUrl, routes: { '/mcp': createMcpRoute(sites), '/_chat': chat }, social });
  return {
    services,
    sites,
    handle,
    async start(startOptions) {
      await queue.start(startOptions);
      // Proven domains are looked up again periodically: one whose record is gone stops serving.
      const every = config.domainCheckMs ?? 3_600_000;
      recheck = setInterval(() => domains.recheck(every).catch((err: unknown) => log.warn({ err }, 'custom domain check failed')), Math.min(every, 60_000));
      recheck.unref();
    },
    close: async () => {
      clearInterval(recheck);
      await Promise.all([queue.close(), social.close(), sites.close()]);
    },
  };
}
