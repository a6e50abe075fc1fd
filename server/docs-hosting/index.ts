import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { DocsConfig } from '../platform/config.ts';
import type { Database } from '../platform/db/orm.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateLimiter, RateRule } from '../platform/rate-limiter.ts';
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

/** What one reader's address may ask for (DocsConfig.readerLimits): builds of unpublished refs, look-ups of URL refs. */
const READER_LIMITS = { buildsPerHour: 20, refLookupsPerMinute: 120 };

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
  const readerLimits = config.readerLimits ?? READER_LIMITS;
  const BUILDS_ON_DEMAND: RateRule = { name: 'docs-builds-on-demand', points: readerLimits.buildsPerHour, durationSeconds: 3600 };
  // Only refs a process has not resolved in the last seconds are looked up, and counted.
  const REF_LOOKUPS: RateRule = { name: 'docs-ref-lookups', points: readerLimits.refLookupsPerMinute, durationSeconds: 60 };
  /** Counts one of a client's calls under `rule`: seconds to wait when refused, else undefined. */
  const spend = async (rule: RateRule, client: string) => {
    const decision = await options.limiter.consume(rule, `ip:${client}`);
    return decision.allowed ? undefined : decision.retryAfterSeconds;
  };
  const mirrors = new Mirrors(join(config.workDir, 'mirrors'), { allowLocal: config.allowLocalSources, ...(config.maxRepositoryBytes ? { maxBytes: config.maxRepositoryBytes } : {}) });
  const sites = new DocsSites(db, {
    vanityDomain: config.vanityDomain,
    serviceHosts: serviceHost ? [serviceHost] : [],
    checkDomain: (domain) => domains.check(domain),
    refName: (repository, ref) => mirrors.lookup(repository.id, ref).then((found) => found?.ref, () => undefined),
    // Each reader's address may have only so many unpublished versions built for it (on top of the per-repository
    // cap), and look only so many refs up: counted before git or the database is asked.
    buildOnDemand: (repository, ref, client) => publishing.buildOnDemand(repository.id, ref, () => spend(BUILDS_ON_DEMAND, client)),
    countRefLookup: (client) => spend(REF_LOOKUPS, client),
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
