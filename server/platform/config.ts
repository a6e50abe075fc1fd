import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { compileTrust } from './http/client-address.ts';
import type { CorsOrigins } from './http/cors.ts';

/**
 * A file or folder: resolved against the working directory once, here, so that nothing later (git run in another
 * folder, a child process, a chdir) reads a relative path differently. `memory://` (an in-memory PGlite) stays.
 */
const localPath = z
  .string()
  .min(1)
  .transform((path) => (path.startsWith('memory://') ? path : resolve(path)));

/** Everything the server reads from its environment, validated once at start-up. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  DATA_DIR: localPath.prefault('./data'),
  PGLITE_TEMPLATE: localPath.optional(),
  PGLITE_FSYNC: z.enum(['on', 'off']).default('on'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  CORS_ORIGINS: z.string().transform(corsOrigins).optional(),
  TRUST_PROXY: z.string().transform(trustedProxies).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  COMMISSION_BPS: z.coerce.number().int().min(0).max(10_000).default(1000),
  SOLANA_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SOLANA_CONFIRM_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  SOLANA_PUBLIC_RPC_URL: z.string().regex(/^(https?:\/\/|\/)\S*$/, 'must be an http(s) URL or an absolute path').optional(),
  SOLANA_CLUSTER: z.string().regex(/^[a-z0-9-]+$/, 'must be a cluster name such as devnet or mainnet-beta').optional(),
  MARKETPLACE_KEYPAIR: localPath.optional(),
  USDC_MINT: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 address').optional(),
  DOCS_WORK_DIR: localPath.optional(),
  DOCS_LOCAL_SOURCES: z.enum(['on', 'off']).optional(),
  DOCS_BUILD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  DOCS_BUILD_TIMEOUT_MS: z.coerce.number().int().positive().default(600_000),
  DOCS_BUILD_MEMORY_MB: z.coerce.number().int().min(256).default(2048),
  DOCS_BUILD_MAX_FILES: z.coerce.number().int().min(1).default(20_000),
  DOCS_BUILD_MAX_MB: z.coerce.number().int().min(1).default(512),
  DOCS_BUILD_MAX_FILE_MB: z.coerce.number().int().min(1).default(32),
  DOCS_REPOSITORY_MAX_MB: z.coerce.number().int().min(1).default(1024),
  DOCS_DOMAIN: z
    .string()
    .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i, 'must be a domain such as docs.example.com')
    .transform((domain) => domain.toLowerCase())
    .optional(),
  DOCS_SECRET_KEY: z.string().min(1).optional(),
  DOCS_DNS_SERVERS: z
    .string()
    .regex(/^[0-9a-f.:[\]]+(,[0-9a-f.:[\]]+)*$/i, 'must be comma-separated IP addresses, each with an optional port (127.0.0.1:5353)')
    .transform((servers) => servers.split(','))
    .optional(),
  DOCS_DOMAIN_CHECK_MS: z.coerce.number().int().min(1000).default(3_600_000),
  DOCS_BUILD_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  DOCS_READER_BUILDS_PER_HOUR: z.coerce.number().int().min(0).default(20),
  DOCS_READER_REF_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  DOCS_AGENT_OPENAI_URL: z.url({ protocol: /^https?$/ }).optional(),
  DOCS_AGENT_ANTHROPIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DOCS_AGENT_GOOGLE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DOCS_AGENT_MISTRAL_URL: z.url({ protocol: /^https?$/ }).optional(),
});

/** CORS_ORIGINS: `*`, or comma-separated origins (`https://app.example.com,http://localhost:5173`), kept as browsers send them. */
function corsOrigins(text: string, ctx: z.RefinementCtx): CorsOrigins {
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 1 && entries[0] === '*') return '*';
  const origins: string[] = [];
  for (const entry of entries) {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: `must be * or comma-separated origins such as https://app.example.com (not ${JSON.stringify(entry)})` });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  if (origins.length === 0) ctx.addIssue({ code: 'custom', message: 'must be * or comma-separated origins such as https://app.example.com' });
  return origins;
}

/** TRUST_PROXY: comma-separated addresses, CIDR ranges or `loopback`, `linklocal`, `uniquelocal` (client-address.ts). */
function trustedProxies(text: string, ctx: z.RefinementCtx): string[] {
  const proxies = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  try {
    compileTrust(proxies);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `must be comma-separated addresses, CIDR ranges or loopback, linklocal, uniquelocal (${(error as Error).message})` });
  }
  return proxies;
}

export type DatabaseConfig =
  /** Embedded PostgreSQL (PGlite) persisted in `dataDir`; `template` is a data-dir dump used instead of initdb. */
  | {
      kind: 'pglite';
      dataDir: string;
      template?: string;
      /** PGLITE_FSYNC: commits are on disk when acknowledged (default); `off` as PGlite ships (an OS crash may lose the latest). */
      fsync?: boolean;
    }
  | { kind: 'postgresql'; url: string };

/** USDC mints of the public clusters (USDC_MINT overrides; other clusters need it). */
export const USDC_MINTS: Record<string, string> = {
  'mainnet-beta': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  devnet: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU',
};

export type LedgerConfig =
  /**
   * Embedded LiteSVM ledger, persisted in `dataDir` (`DATA_DIR/ledger`; omitted: in memory). Used whenever
   * SOLANA_RPC_URL is unset, with PGlite and with DATABASE_URL alike: orders in the database and balances on
   * the ledger must survive a restart together. Each process has its own embedded ledger (a second process
   * on the same DATA_DIR is refused), so several servers on one PostgreSQL with embedded ledgers is a
   * dev-only setup; to share one, point the others' SOLANA_RPC_URL at the first one's /dev/solana-rpc.
   * `mint` (USDC_MINT) and `marketplaceKeypair` (MARKETPLACE_KEYPAIR) default to generated ones kept in `dataDir`.
   */
  | { kind: 'embedded'; dataDir?: string; mint?: string; marketplaceKeypair?: string; publicRpcUrl?: string }
  /** A real cluster through JSON-RPC (SOLANA_RPC_URL), signing payouts with the MARKETPLACE_KEYPAIR file. */
  | {
      kind: 'rpc';
      url: string;
      publicRpcUrl: string;
      cluster: string;
      mint: string;
      marketplaceKeypair: string;
      /** How long a submitted transaction may take to confirm before the payment answers 503 (SOLANA_CONFIRM_TIMEOUT_MS, default 60 s). */
      confirmTimeoutMs?: number;
    };

/** Documentation hosting (docs/docs-hosting.md). */
export interface DocsConfig {
  /** Git mirrors and build scratch space of this process (DOCS_WORK_DIR, default DATA_DIR/docs). */
  workDir: string;
  /** Whether repositories may be local paths (DOCS_LOCAL_SOURCES; default on with the embedded database only). */
  allowLocalSources: boolean;
  /** Builds this process runs at once (DOCS_BUILD_CONCURRENCY, default 1). */
  buildConcurrency: number;
  buildTimeoutMs: number;
  /** What one build may use and produce (DOCS_BUILD_MEMORY_MB, DOCS_BUILD_MAX_FILES, DOCS_BUILD_MAX_MB, DOCS_BUILD_MAX_FILE_MB). */
  buildLimits?: { memoryMb: number; maxFiles: number; maxBytes: number; maxFileBytes: number };
  /** The largest repository (its git mirror) this server fetches (DOCS_REPOSITORY_MAX_MB, default 1 GiB). */
  maxRepositoryBytes?: number;
  /** `docs.example.com`: `{owner}.docs.example.com/{repo}` serves owner's sites (DOCS_DOMAIN). */
  vanityDomain?: string | undefined;
  /** DOCS_SECRET_KEY, else `secretFile` (created on first start). */
  secretKey?: string | undefined;
  secretFile?: string | undefined;
  /** Model providers' API base URLs (DOCS_AGENT_<PROVIDER>_URL), else their public ones. */
  providerUrls: Partial<Record<'openai' | 'anthropic' | 'google' | 'mistral', string>>;
  /** How long a build's claim holds without renewal: a dead process's build is taken over after it (DOCS_BUILD_LEASE_MS, default 60 s). */
  leaseMs?: number;
  /** DNS servers asked for custom domains' TXT challenges (DOCS_DNS_SERVERS), else the system's. */
  dnsServers?: string[] | undefined;
  /** How often a proven custom domain's record is looked up again (DOCS_DOMAIN_CHECK_MS, default 1 h). */
  domainCheckMs?: number;
  /**
   * What one reader's address may make the service do: builds of unpublished refs an hour
   * (DOCS_READER_BUILDS_PER_HOUR, default 20), look-ups of URL refs a minute (DOCS_READER_REF_LOOKUPS_PER_MINUTE, 120).
   */
  readerLimits?: { buildsPerHour: number; refLookupsPerMinute: number };
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** The origin clients see (behind a proxy); signed URLs may use it in absolute form. */
  publicBaseUrl?: string;
  /** `off` skips rate limiting (benchmarks, trusted networks). */
  rateLimits?: 'on' | 'off';
  /** Origins whose browser pages may call the API (CORS_ORIGINS): `*` (the default) or an allow-list of origins. */
  corsOrigins?: CorsOrigins;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY); none by default: the socket's peer is the client. */
  trustProxy?: string[];
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  shutdownTimeoutMs: number;
  /** The marketplace's commission in basis points (1000 = 10%), stored on each order. */
  commissionBps: number;
  /** The payments ledger: embedded LiteSVM or a real Solana cluster. */
  ledger: LedgerConfig;
  /** Default: {@link defaultDocsConfig}. */
  docs?: DocsConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means unset (`PORT= npm start` uses the default, not port 0).
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgresql', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: e.DATA_DIR, fsync: e.PGLITE_FSYNC === 'on', ...(e.PGLITE_TEMPLATE ? { template: e.PGLITE_TEMPLATE } : {}) },
    ...(e.PUBLIC_BASE_URL ? { publicBaseUrl: e.PUBLIC_BASE_URL } : {}),
    rateLimits: e.RATE_LIMITS,
    corsOrigins: e.CORS_ORIGINS ?? '*',
    ...(e.TRUST_PROXY?.length ? { trustProxy: e.TRUST_PROXY } : {}),
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    commissionBps: e.COMMISSION_BPS,
    ledger: ledgerConfig(e),
    docs: docsConfig(e),
  };
}

/** Documentation hosting with everything at its default, its work folder in the OS temp folder. */
export function defaultDocsConfig(database: DatabaseConfig): DocsConfig {
  return {
    workDir: `${tmpdir()}/typed-platform-docs-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    allowLocalSources: database.kind === 'pglite',
    buildConcurrency: 1,
    buildTimeoutMs: 600_000,
    providerUrls: {},
  };
}

function docsConfig(e: z.infer<typeof Env>): DocsConfig {
  const dataDir = e.DATA_DIR.replace(/\/+$/, '');
  const inMemory = dataDir.startsWith('memory://');
  const embedded = !e.DATABASE_URL;
  return {
    workDir: e.DOCS_WORK_DIR ?? (inMemory ? `${tmpdir()}/typed-platform-docs-${process.pid}` : `${dataDir}/docs`),
    allowLocalSources: (e.DOCS_LOCAL_SOURCES ?? (embedded ? 'on' : 'off')) === 'on',
    buildConcurrency: e.DOCS_BUILD_CONCURRENCY,
    buildTimeoutMs: e.DOCS_BUILD_TIMEOUT_MS,
    buildLimits: { memoryMb: e.DOCS_BUILD_MEMORY_MB, maxFiles: e.DOCS_BUILD_MAX_FILES, maxBytes: e.DOCS_BUILD_MAX_MB << 20, maxFileBytes: e.DOCS_BUILD_MAX_FILE_MB << 20 },
    leaseMs: e.DOCS_BUILD_LEASE_MS,
    maxRepositoryBytes: e.DOCS_REPOSITORY_MAX_MB << 20,
    domainCheckMs: e.DOCS_DOMAIN_CHECK_MS,
    readerLimits: { buildsPerHour: e.DOCS_READER_BUILDS_PER_HOUR, refLookupsPerMinute: e.DOCS_READER_REF_LOOKUPS_PER_MINUTE },
    ...(e.DOCS_DNS_SERVERS ? { dnsServers: e.DOCS_DNS_SERVERS } : {}),
    ...(e.DOCS_DOMAIN ? { vanityDomain: e.DOCS_DOMAIN } : {}),
    ...(e.DOCS_SECRET_KEY ? { secretKey: e.DOCS_SECRET_KEY } : inMemory ? {} : { secretFile: `${dataDir}/docs-secret.key` }),
    providerUrls: {
      ...(e.DOCS_AGENT_OPENAI_URL ? { openai: e.DOCS_AGENT_OPENAI_URL } : {}),
      ...(e.DOCS_AGENT_ANTHROPIC_URL ? { anthropic: e.DOCS_AGENT_ANTHROPIC_URL } : {}),
      ...(e.DOCS_AGENT_GOOGLE_URL ? { google: e.DOCS_AGENT_GOOGLE_URL } : {}),
      ...(e.DOCS_AGENT_MISTRAL_URL ? { mistral: e.DOCS_AGENT_MISTRAL_URL } : {}),
    },
  };
}

function ledgerConfig(e: z.infer<typeof Env>): LedgerConfig {
  const invalid = (problem: string) => new Error(`Invalid configuration: ${problem}`);
  if (!e.SOLANA_RPC_URL) {
    if (e.SOLANA_CLUSTER && e.SOLANA_CLUSTER !== 'localnet') throw invalid('SOLANA_CLUSTER: needs SOLANA_RPC_URL (the embedded ledger is localnet)');
    return {
      kind: 'embedded',
      ...(e.DATA_DIR.startsWith('memory://') ? {} : { dataDir: `${e.DATA_DIR.replace(/\/+$/, '')}/ledger` }),
      ...(e.USDC_MINT ? { mint: e.USDC_MINT } : {}),
      ...(e.MARKETPLACE_KEYPAIR ? { marketplaceKeypair: e.MARKETPLACE_KEYPAIR } : {}),
      ...(e.SOLANA_PUBLIC_RPC_URL ? { publicRpcUrl: e.SOLANA_PUBLIC_RPC_URL } : {}),
    };
  }
  const cluster = e.SOLANA_CLUSTER ?? 'devnet';
  const mint = e.USDC_MINT ?? USDC_MINTS[cluster];
  if (!mint) throw invalid(`USDC_MINT: required on cluster ${cluster} (known defaults: ${Object.keys(USDC_MINTS).join(', ')})`);
  if (!e.MARKETPLACE_KEYPAIR) throw invalid('MARKETPLACE_KEYPAIR: required with SOLANA_RPC_URL (path to the marketplace wallet\'s Solana CLI keypair file)');
  return {
    kind: 'rpc',
    url: e.SOLANA_RPC_URL,
    publicRpcUrl: e.SOLANA_PUBLIC_RPC_URL ?? e.SOLANA_RPC_URL,
    cluster,
    mint,
    marketplaceKeypair: e.MARKETPLACE_KEYPAIR,
    confirmTimeoutMs: e.SOLANA_CONFIRM_TIMEOUT_MS,
  };
}
