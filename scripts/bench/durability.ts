/**
 * What a durable commit costs on the embedded database (server/platform/db/durable-pglite.ts): one-row insert
 * commits per second on PGlite in a fresh temp data dir with PGLITE_FSYNC on (the default: each commit's WAL synced
 * before it is acknowledged) and off (as PGlite ships), one after the other, each for about DURATION_MS, and the
 * fsyncs per commit; and opening a new data dir from a dump (as tests do from their template), synced whole or not.
 *
 *   npm run bench -- durability   (npm run bench includes it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { openPgliteDataDir } from '../../server/platform/db/durable-pglite.ts';
import { decimal, integer } from './common/format.ts';
import { printTable } from './common/report.ts';

const DURATION_MS = 3_000;

async function commitsPerSecond(fsync: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'tp-bench-durability-'));
  try {
    const { pglite, fs } = await openPgliteDataDir(dir, { fresh: true, fsync });
    await pglite.exec('create table commits (n int)');
    const syncsBefore = fs?.syncs ?? 0;
    const start = performance.now();
    let commits = 0;
    while (performance.now() - start < DURATION_MS) await pglite.query('insert into commits values ($1)', [commits++]);
    const seconds = (performance.now() - start) / 1000;
    const syncs = (fs?.syncs ?? 0) - syncsBefore;
    await pglite.close();
    return { perSecond: commits / seconds, msPerCommit: (seconds * 1000) / commits, syncsPerCommit: syncs / commits };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Opening a new data dir from a dump, synced whole (durable) or not. */
async function openFromDump(dump: Blob, fsync: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tp-bench-durability-'));
  try {
    const start = performance.now();
    const { pglite } = await openPgliteDataDir(dir, { fresh: true, fsync, loadDataDir: dump });
    const ms = performance.now() - start;
    await pglite.close();
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchDurability(): Promise<void> {
  const empty = await PGlite.create();
  const dump = await empty.dumpDataDir('none');
  await empty.close();
  const rows: string[][] = [];
  for (const fsync of [true, false]) {
    const run = await commitsPerSecond(fsync);
    const opened = await openFromDump(dump, fsync);
    rows.push([fsync ? 'on (default)' : 'off', integer(run.perSecond), decimal(run.msPerCommit, 2), decimal(run.syncsPerCommit, 1), `${integer(opened)} ms`]);
  }
  printTable(['PGLITE_FSYNC', 'commits/s', 'ms/commit', 'fsyncs/commit', 'a new dir from a dump'], rows, 1);
}
