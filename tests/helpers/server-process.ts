import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DatabaseConfig } from '../../server/platform/config.ts';

const root = new URL('../..', import.meta.url).pathname;

/** The environment of a child process (a server, a CLI) pointed at `config`; the test's own DATABASE_URL is never inherited. */
export function processEnvFor(config: DatabaseConfig): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return config.kind === 'postgresql'
    ? { ...env, DATABASE_URL: config.url }
    : { ...env, DATA_DIR: config.dataDir, ...(config.template ? { PGLITE_TEMPLATE: config.template } : {}) };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** The signal or exit code the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** What it has logged so far (stdout and stderr). */
  log(): string;
}

/**
 * `server/main.ts` as its own process (as `npm start` runs it) on `database`, with a DATA_DIR of its
 * own for the embedded ledger (and PGlite); resolves once it logs its URL. `env` adds or overrides
 * variables (TP_FAILPOINT, RATE_LIMITS, ...); the test's own DATABASE_URL is never inherited.
 */
export async function startServerProcess(
  database: DatabaseConfig | 'pglite',
  { dataDir = mkdtempSync(join(tmpdir(), 'tp-proc-')), env = {} }: { dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  const { DATABASE_URL: _db, TP_FAILPOINT: _fp, ...inherited } = process.env;
  const databaseEnv =
    database === 'pglite'
      ? { DATA_DIR: dataDir, PGLITE_TEMPLATE: inject('pgliteTemplate') }
      : database.kind === 'postgresql'
        ? { DATA_DIR: dataDir, DATABASE_URL: database.url }
        : { DATA_DIR: database.dataDir, ...(database.template ? { PGLITE_TEMPLATE: database.template } : {}) };
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...databaseEnv, ...env },
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /"url":"(http:[^"]+)"/.exec(log);
      if (match) resolve(match[1]!);
    });
    void exited.then((how) => reject(new Error(`server exited (${how}) before listening:\n${log}`)));
  });
  return { child, url, exited, log: () => log };
}

/** Stops a server process: SIGTERM (a clean stop, releasing its data dir) or SIGKILL; resolves once it is gone. */
export async function stopServerProcess(server: ServerProcess | undefined, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') {
  if (!server) return;
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/**
 * Starts a server process again on the data of one that was killed: the embedded data dir's lock of a killed
 * process is taken over once stale (10 s), so this retries until then.
 */
export async function restartServerProcess(database: Parameters<typeof startServerProcess>[0], options: Parameters<typeof startServerProcess>[1]): Promise<ServerProcess> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startServerProcess(database, options);
    } catch (error) {
      if (attempt >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Whether the process `pid` is gone (signal 0 reaches no process). */
export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
