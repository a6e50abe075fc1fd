import { z } from 'zod';

/** Everything the server reads from its environment, validated once at start-up. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  PGLITE_TEMPLATE: z.string().min(1).optional(),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

export type DatabaseConfig =
  /** Embedded PostgreSQL (PGlite) persisted in `dataDir`; `template` is a data-dir dump used instead of initdb. */
  | { kind: 'pglite'; dataDir: string; template?: string }
  | { kind: 'postgresql'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** The origin clients see (behind a proxy); signed URLs may use it in absolute form. */
  publicBaseUrl?: string;
  /** `off` skips rate limiting (benchmarks, trusted networks). */
  rateLimits?: 'on' | 'off';
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  shutdownTimeoutMs: number;
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
      : { kind: 'pglite', dataDir: e.DATA_DIR, ...(e.PGLITE_TEMPLATE ? { template: e.PGLITE_TEMPLATE } : {}) },
    ...(e.PUBLIC_BASE_URL ? { publicBaseUrl: e.PUBLIC_BASE_URL } : {}),
    rateLimits: e.RATE_LIMITS,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
