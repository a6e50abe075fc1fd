/**
 * Where the embedded ledger keeps its state between runs (`DATA_DIR/ledger/`):
 *
 *   marketplace-keypair.json, faucet-keypair.json  Solana CLI keypairs (mode 0600)
 *   ledger.json                                    { mint }
 *   vm-<gen>.bin                                   a full LiteSVM snapshot (`toBytes`, ~1.5 MB: mostly the programs)
 *   journal-<gen>.log                              every state change since that snapshot, one JSON line each
 *   signatures.log                                 fate of every transaction ever landed (`status` after a restart)
 *
 * Why a journal: a full snapshot costs ~3.5 ms (~7.5 ms with fsync) and writes ~1.5 MB, whatever the change;
 * appending one journal line costs ~0.005 ms (~0.2 ms with fdatasync). Appends are written at once and made
 * durable by `flush()`, on the thread pool: one fdatasync covers every line written before it (group commit), and the
 * event loop goes on meanwhile (a synchronous fdatasync held it ~1 ms per transaction). Start-up loads the snapshot and
 * replays the journal through the VM, which is deterministic (the blockhash and clock only move when the
 * journal says so). Every `snapshotEvery` entries (and at close) the journal is folded into a new
 * snapshot: written to a temporary file, fsynced, renamed (atomic), then the old generation is deleted;
 * a crash at any point leaves either the old snapshot + its journal or the new snapshot, never a mix. A new file's
 * name is made durable (its directory synced) before anything relies on it: the ledger directory, keypairs, each
 * journal (an OS crash could otherwise drop a journal whose lines were all fdatasync'd).
 * LiteSVM's own transaction history only keeps the latest few dozen transactions, so transaction fates
 * live in signatures.log (~100 bytes a transaction, read into memory at start-up: dev-sized ledgers only).
 */
import { closeSync, existsSync, ftruncateSync, openSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { fdatasyncFile, fsyncFile, fsyncPath } from '../../platform/fsync.ts';
import { generateKeypairBytes, readKeypairFile, writeKeypairFile, type TransactionErrorJson } from './solana.ts';

export type JournalEntry =
  /** A transaction that landed (succeeded or failed; a failure still charges the fee). */
  | { op: 'tx'; wire: string; signature: string; err: TransactionErrorJson | null }
  /** An account written directly (genesis: the mint, the faucet's SOL). */
  | { op: 'account'; address: string; lamports: string; owner: string; executable: boolean; data: string }
  | { op: 'expire-blockhash' };

export interface SignatureRecord {
  signature: string;
  err: TransactionErrorJson | null;
}

export interface StoredState {
  snapshot: Uint8Array;
  journal: JournalEntry[];
  signatures: SignatureRecord[];
}

const SNAPSHOT = /^vm-(\d+)\.bin$/;
const JOURNAL = /^journal-(\d+)\.log$/;

export class LedgerStore {
  readonly dir: string;
  private readonly durable: boolean;
  private readonly release: () => Promise<void>;
  private generation = 0;
  private journalFd: number | undefined;
  /** Signatures landed since the snapshot (moved to signatures.log at the next snapshot). */
  private unsnapshotted: SignatureRecord[] = [];
  private entries = 0;
  /** Lines written to the journal, and how many of them are known to be on disk (group commit). */
  private written = 0;
  private synced = 0;
  private syncing: Promise<void> | undefined;
  /** How many fdatasyncs the journal has had (the group commit's figure: `npm run bench -- durability`). */
  syncs = 0;

  private constructor(dir: string, durable: boolean, release: () => Promise<void>) {
    this.dir = dir;
    this.durable = durable;
    this.release = release;
  }

  /** Opens (creating) the directory and locks it: one process per ledger directory. */
  static async open(dir: string, options: { durable: boolean }): Promise<LedgerStore> {
    // A new directory's name is durable once its parent is synced (without it, an OS crash could lose the whole ledger).
    if ((await mkdir(dir, { recursive: true })) !== undefined && options.durable) fsyncPath(dirname(dir));
    let release: () => Promise<void>;
    try {
      // Refreshed every 2 s; a crashed holder's lock is taken over after 10 s.
      release = await lockfile.lock(dir, { stale: 10_000, update: 2_000 });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED') throw error;
      throw new Error(
        `The embedded Solana ledger in ${dir} is in use by another process (a running server?), or its last ` +
          'user stopped less than 10 s ago. Give each process its own DATA_DIR, or point the others at the ' +
          "first one's ledger with SOLANA_RPC_URL=<its base URL>/dev/solana-rpc (SOLANA_CLUSTER=localnet, its USDC_MINT and MARKETPLACE_KEYPAIR).",
      );
    }
    return new LedgerStore(dir, options.durable, release);
  }

  /** Reads a keypair file of the directory, creating it on first use. */
  async keypair(name: string): Promise<Uint8Array> {
    const path = join(this.dir, name);
    if (existsSync(path)) return readKeypairFile(path);
    const bytes = await generateKeypairBytes();
    writeKeypairFile(path, bytes);
    return bytes;
  }

  readMeta(): { mint?: string } {
    const path = join(this.dir, 'ledger.json');
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { mint?: string }) : {};
  }

  writeMeta(meta: { mint: string }): void {
    this.writeAtomically(join(this.dir, 'ledger.json'), Buffer.from(`${JSON.stringify(meta)}\n`));
  }

  /** The newest snapshot with its journal and the signature log; undefined for a new ledger. */
  load(): StoredState | undefined {
    const files = readdirSync(this.dir);
    const generations = files.map((f) => SNAPSHOT.exec(f)?.[1]).filter((g) => g !== undefined).map(Number);
    if (generations.length === 0) return undefined;
    this.generation = Math.max(...generations);
    // Leftovers of an interrupted snapshot: older generations and temporary files.
    for (const f of files) {
      const gen = Number(SNAPSHOT.exec(f)?.[1] ?? JOURNAL.exec(f)?.[1] ?? NaN);
      if ((!Number.isNaN(gen) && gen < this.generation) || f.endsWith('.tmp')) rmSync(join(this.dir, f), { force: true });
    }
    const snapshot = readFileSync(join(this.dir, `vm-${this.generation}.bin`));
    const journal = this.readJournal();
    const signatureLog = join(this.dir, 'signatures.log');
    const stored = readJsonLines<{ s: string; e: TransactionErrorJson | null }>(signatureLog);
    if (stored.validBytes < stored.totalBytes) truncateSync(signatureLog, stored.validBytes);
    const signatures = stored.records.map((r) => ({ signature: r.s, err: r.e }));
    this.unsnapshotted = journal.flatMap((e) => (e.op === 'tx' ? [{ signature: e.signature, err: e.err }] : []));
    this.entries = journal.length;
    return { snapshot, journal, signatures };
  }

  /** Starts a new ledger from its first snapshot. */
  initialize(snapshot: Uint8Array): void {
    this.generation = 1;
    this.writeAtomically(join(this.dir, 'vm-1.bin'), snapshot);
    this.journalFd = this.newJournal(1);
  }

  /** Writes a state change to the journal (synchronously, in order); `flush()` makes it durable. */
  append(entry: JournalEntry): void {
    if (this.journalFd === undefined) throw new Error('The ledger store is not open');
    writeSync(this.journalFd, `${JSON.stringify(entry)}\n`);
    this.written += 1;
    this.entries += 1;
    if (entry.op === 'tx') this.unsnapshotted.push({ signature: entry.signature, err: entry.err });
  }

  /**
   * Resolves once every entry appended so far is on disk (at once when not durable). Concurrent callers share one
   * fdatasync; a caller whose entry came after the one in flight waits for the next.
   */
  async flush(): Promise<void> {
    const target = this.written;
    while (this.durable && this.synced < target) {
      if (!this.syncing) {
        const fd = this.journalFd;
        const upTo = this.written;
        if (fd === undefined) throw new Error('The ledger store is not open');
        this.syncs++;
        this.syncing = fdatasyncFile(fd, join(this.dir, `journal-${this.generation}.log`))
          .then(() => void (this.synced = Math.max(this.synced, upTo)))
          .finally(() => (this.syncing = undefined));
      }
      await this.syncing;
    }
  }

  /** Journal entries since the last snapshot. */
  get pending(): number {
    return this.entries;
  }

  /** Folds the journal into a new snapshot (see the file comment for the crash-safe order). */
  snapshot(state: Uint8Array): void {
    if (this.unsnapshotted.length > 0) {
      const path = join(this.dir, 'signatures.log');
      const fd = openSync(path, 'a');
      try {
        writeSync(fd, this.unsnapshotted.map((r) => `${JSON.stringify({ s: r.signature, e: r.err })}\n`).join(''));
        if (this.durable) fsyncFile(fd, path); // a new file's name: durable with the snapshot's rename below
      } finally {
        closeSync(fd);
      }
    }
    const next = this.generation + 1;
    this.writeAtomically(join(this.dir, `vm-${next}.bin`), state);
    // Everything journaled so far is in the snapshot, now on disk.
    this.synced = this.written;
    const fd = this.newJournal(next);
    this.closeJournal();
    this.journalFd = fd;
    rmSync(join(this.dir, `vm-${this.generation}.bin`), { force: true });
    rmSync(join(this.dir, `journal-${this.generation}.log`), { force: true });
    this.generation = next;
    this.unsnapshotted = [];
    this.entries = 0;
  }

  /** Final snapshot (when anything changed), then the lock is released. */
  async close(state: Uint8Array | undefined): Promise<void> {
    try {
      await this.syncing?.catch(() => {});
      if (state && this.entries > 0) this.snapshot(state);
    } finally {
      this.closeJournal();
      this.journalFd = undefined;
      await this.release();
    }
  }

  /** Closes the journal file, once an fdatasync in flight on it is done. */
  private closeJournal(): void {
    const fd = this.journalFd;
    if (fd === undefined) return;
    if (this.syncing) void this.syncing.catch(() => {}).finally(() => closeSync(fd));
    else closeSync(fd);
  }

  private readJournal(): JournalEntry[] {
    const path = join(this.dir, `journal-${this.generation}.log`);
    const { records, validBytes, totalBytes } = readJsonLines<JournalEntry>(path);
    this.journalFd = openSync(path, 'a');
    // A torn last line (the process died mid-write): drop it so the next entry starts on a fresh line.
    if (validBytes < totalBytes) ftruncateSync(this.journalFd, validBytes);
    return records;
  }

  /** Creates the journal of a generation, its name durable before anything is journaled in it. */
  private newJournal(generation: number): number {
    const fd = openSync(join(this.dir, `journal-${generation}.log`), 'a');
    if (this.durable) fsyncPath(this.dir);
    return fd;
  }

  private writeAtomically(path: string, bytes: Uint8Array): void {
    const tmp = `${path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, bytes);
      if (this.durable) fsyncFile(fd, tmp);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    if (this.durable) fsyncPath(this.dir);
  }
}

/** Complete JSON lines of a file (a missing file has none); stops at the first torn or unparsable line. */
function readJsonLines<T>(path: string): { records: T[]; validBytes: number; totalBytes: number } {
  if (!existsSync(path)) return { records: [], validBytes: 0, totalBytes: 0 };
  const buffer = readFileSync(path);
  const records: T[] = [];
  let start = 0;
  while (start < buffer.length) {
    const end = buffer.indexOf(0x0a, start);
    if (end === -1) break;
    try {
      records.push(JSON.parse(buffer.subarray(start, end).toString('utf8')) as T);
    } catch {
      break;
    }
    start = end + 1;
  }
  return { records, validBytes: start, totalBytes: buffer.length };
}
