/** The real server as every bench starts it: in-process on 127.0.0.1, a free port, silent (unless given a logger), rate limits off. */
import { startServer, type RunningServer } from '../../../server/app.ts';
import type { Config, DatabaseConfig } from '../../../server/platform/config.ts';
import { createLogger, type Logger } from '../../../server/platform/logger.ts';

/**
 * Rate limits off (config `rateLimits: 'off'`, as RATE_LIMITS=off): the benches send thousands of requests a
 * second from one wallet and one IP, which would otherwise get 120 requests a minute, and measure 429s.
 * `overrides` replace whole settings (a persisted ledger, docs hosting's work dir).
 */
export function startBenchServer(database: DatabaseConfig, overrides: Partial<Config> = {}, logger: Logger = createLogger('silent')): Promise<RunningServer> {
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    database,
    rateLimits: 'off',
    logLevel: 'silent',
    shutdownTimeoutMs: 5_000,
    commissionBps: 1000,
    ledger: { kind: 'embedded' },
    ...overrides,
  };
  return startServer(config, logger);
}
