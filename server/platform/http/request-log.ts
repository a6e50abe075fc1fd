import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';

const pathOf = (req: IncomingMessage) => req.url?.split('?', 1)[0] ?? '';
const line = (req: IncomingMessage, res: ServerResponse) => `${req.method} ${pathOf(req)} ${res.statusCode}`;

/**
 * One log line per answered request: method, path, status and time. Nothing a client sends as a credential or in
 * a query (API keys, webhook and wallet signatures, cookies, `?orgId=`) is written: no headers, no query string.
 * Health checks (a probe every few seconds) are not logged.
 */
export function createRequestLogger(log: Logger) {
  return pinoHttp({
    logger: log,
    quietReqLogger: true,
    autoLogging: { ignore: (req) => req.url === '/health' },
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({ id: req.id, method: req.method, path: req.url.split('?', 1)[0], remoteAddress: req.remoteAddress }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customSuccessMessage: (req, res, ms) => `${line(req, res)} ${Math.round(ms)} ms`,
    customErrorMessage: (req, res, error) => `${line(req, res)}: ${error.message}`,
  });
}
