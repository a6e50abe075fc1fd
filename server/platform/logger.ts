import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

export type { Logger };

/**
 * The process logger: JSON lines (for log shippers) unless `pretty`, then one readable line per event for a
 * person at a terminal (server/main.ts asks for it when stdout is a TTY). Standard output unless `destination`.
 */
export function createLogger(level: string, options: { pretty?: boolean; destination?: DestinationStream } = {}): Logger {
  const base = { level, base: { service: 'typed-platform' } };
  if (!options.pretty) return options.destination ? pino(base, options.destination) : pino(base);
  // Request lines carry their gist in the message (app.ts); the objects behind it stay in JSON logs only.
  const pretty = PinoPretty({
    sync: true,
    colorize: !options.destination,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service,req,res,responseTime',
    ...(options.destination ? { destination: options.destination as NodeJS.WritableStream } : {}),
  });
  return pino(base, pretty);
}
