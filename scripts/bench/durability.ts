/**
 * What a durable commit costs on the embedded database (server/platform/db/durable-pglite.ts): one-row insert
 * commits per second on PGlite in a fresh temp data dir with PGLITE_FSYNC on (the default: each commit's WAL synced
 * before it is acknowledged) and off (as PGlite ships), one after the other, each for about DURATION_MS, and the
 * fsyncs per commit; and opening a new data dir from a dump (as tests do from their template), synced whole or not.
 * Then the embedded ledger's journal (server/marketplace/ledgers/litesvm-store.ts): payouts submitted one at a time
 * and 16 at once, journal fdatasync'd (the default) or not, and how many fdatasyncs the group commit needed.
 *
 *   npm run bench -- durability   (npm run bench includes it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { randomUUID } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import { LiteSvmLedger } from '../../server/marketplace/ledgers/litesvm-ledger.ts';
import { openPgliteDataDir } from '../../server/platform/db/durable-pglite.ts';
import { decimal, integer } from './common/format.ts';
import { printTable } from './common/report.ts';

const DURATION_MS = 3_000;
const PAYOUTS = 600;

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

/** Payouts submitted `inFlight` at a time to a ledger persisted in a fresh dir: transactions/s and fdatasyncs per transaction. */
async function ledgerSubmits(durable: boolean, inFlight: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tp-bench-ledger-'));
  const ledger = await LiteSvmLedger.open({ dir, durable });
  try {
    await ledger.mintTo(ledger.marketplaceWallet, 1_000_000_000n);
    const agent = (await generateKeyPairSigner()).address;
    const payouts: Uint8Array[] = [];
    for (let i = 0; i < PAYOUTS; i++) payouts.push((await ledger.signPayout(agent, 1_000n, `bench ${randomUUID()}`)).transaction);
    const syncsBefore = ledger.journalSyncs;
    let next = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < payouts.length) await ledger.submit(payouts[next++]!);
    }));
    const seconds = (performance.now() - start) / 1000;
    return { perSecond: PAYOUTS / seconds, syncsPerTransaction: (ledger.journalSyncs - syncsBefore) / PAYOUTS };
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLedgerJournal(): Promise<void> {
  const rows: string[][] = [];
  for (const durable of [true, false]) {
    for (const inFlight of [1, 16]) {
      const run = await ledgerSubmits(durable, inFlight);
      rows.push([durable ? 'fdatasync (default)' : 'none', String(inFlight), integer(run.perSecond), decimal(run.syncsPerTransaction, 2)]);
    }
  }
  printTable(['journal', 'in flight', 'payouts/s', 'fdatasyncs per payout'], rows, 2);
}
