/**
 * The scale-out figure, on PostgreSQL (the embedded database belongs to one process): the reads of reads.ts against
 * one server process, then against two on the same database at once, the same connections in all (20 on the one,
 * 10 on each of the two), and the two's sum as a share of the one. Each process is `server/main.ts` as `npm start`
 * runs it (rate limits off, a DATA_DIR of its own for its embedded ledger); the load comes from this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decimal, integer } from '../common/format.ts';
import { measureAutocannon } from '../common/measure.ts';
import { printTable } from '../common/report.ts';
import { checkedRead, reads, READ_CONCURRENCY, READ_SECONDS, WARMUP_SECONDS } from './reads.ts';
import type { Seeded } from './seed.ts';
import { freePort } from '../../lib/free-port.ts';

interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/** `server/main.ts` on `databaseUrl`, logging nothing (as the in-process benches), once `/health` answers. */
async function startProcess(databaseUrl: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-scale-out-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', RATE_LIMITS: 'off' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (child.exitCode !== null) throw new Error(`a server process exited (${child.exitCode}) before listening`);
    if ((await fetch(`${url}/health`).catch(() => undefined))?.ok) return { url, stop };
    if (Date.now() - started > 30_000) {
      await stop();
      throw new Error('a server process did not answer /health within 30 s');
    }
  }
}

export async function benchScaleOut(databaseUrl: string, seeded: Seeded): Promise<void> {
  const servers = [await startProcess(databaseUrl), await startProcess(databaseUrl)];
  try {
    console.log(`  Scale-out: two server processes on this PostgreSQL (${servers.map((s) => s.url).join(', ')}), the load from this process:`);
    const rows: string[][] = [];
    for (const read of reads(seeded)) {
      const headers = await checkedRead(read, seeded, servers[0]!.url, 'scale-out');
      const options = { warmupSeconds: WARMUP_SECONDS, seconds: READ_SECONDS };
      const one = await measureAutocannon(read.scenario, { url: `${servers[0]!.url}${read.path}`, headers }, { ...options, connections: 2 * READ_CONCURRENCY });
      const two = await Promise.all(servers.map((s) => measureAutocannon(read.scenario, { url: `${s.url}${read.path}`, headers }, { ...options, connections: READ_CONCURRENCY })));
      const both = two.reduce((sum, m) => sum + m.opsPerSecond, 0);
      rows.push([
        read.scenario,
        integer(one.opsPerSecond),
        decimal(one.p99Ms),
        integer(both),
        decimal(Math.max(...two.map((m) => m.p99Ms))),
        `${decimal(both / one.opsPerSecond)}×`,
      ]);
    }
    printTable(['read', 'one process req/s', 'p99 ms', 'two processes req/s', 'p99 ms', 'two / one'], rows, 1);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
