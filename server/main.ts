import { loadConfig } from './platform/config.ts';
import { createLogger } from './platform/logger.ts';
import { startServer } from './app.ts';

const config = loadConfig();
const log = createLogger(config.logLevel, { pretty: process.stdout.isTTY });
const server = await startServer(config, log).catch((err: unknown) => {
  log.fatal({ err }, 'could not start');
  process.exit(1);
});
log.info({ url: server.url, database: config.database.kind }, 'listening');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
