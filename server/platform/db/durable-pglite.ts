import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { fsyncFile, fsyncPath } from '../fsync.ts';

/**
 * PGlite (pinned at 0.5.8) on a data dir is not durable as shipped: PostgreSQL starts with `-F` (fsync off), and
 * the Emscripten file system under it answers fsync() without syncing (NODEFS has no `stream_ops.fsync`). A commit
 * then reaches only the OS page cache, and an OS crash or power loss can lose it, or tear a checkpoint.
 *
 * Durable mode lets PostgreSQL issue its own fsyncs, in its own order, and makes them real: `-F` is dropped,
 * `wal_sync_method=fsync` (fdatasync stays a no-op in Emscripten), and NODEFS gets an fsync that syncs the file
 * (or directory) on disk. A commit is acknowledged once its WAL is on disk; data files may lag, since PGlite runs
 * PostgreSQL's crash recovery (WAL replay) when it opens a dir that was not shut down cleanly.
 */

/** The slice of Emscripten's NODEFS this patch uses (internal: the pinned version is checked at open). */
interface EmscriptenStream {
  nfd?: number;
  node: unknown;
}
interface NodeFsOps {
  stream_ops?: { fsync?: (stream: EmscriptenStream) => number };
  realPath(node: unknown): string;
  tryFSOperation<T>(operation: () => T): T;
}
type EmscriptenModule = { FS: { filesystems: { NODEFS?: NodeFsOps } } };

/** A NodeFS whose fsync syncs: PostgreSQL's fsyncs of WAL, data files and directories reach the disk. */
export class DurableNodeFS extends NodeFS {
  /** How many fsyncs PostgreSQL made through this file system. */
  syncs = 0;
  /** Told the path of each file or directory once it is synced (a test models an OS crash with it). */
  onSync?: (path: string) => void;

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const patch = (module: EmscriptenModule) => {
      const nodefs = module.FS.filesystems.NODEFS;
      if (!nodefs?.stream_ops || typeof nodefs.realPath !== 'function' || typeof nodefs.tryFSOperation !== 'function') {
        throw new Error('PGlite changed its file system internals: the embedded database cannot be made durable');
      }
      // A failed fsync becomes EIO for PostgreSQL, which then stops rather than trust what is on disk.
      nodefs.stream_ops.fsync = (stream) =>
        nodefs.tryFSOperation(() => {
          const path = nodefs.realPath(stream.node);
          if (stream.nfd !== undefined) fsyncFile(stream.nfd, path);
          else fsyncPath(path);
          this.syncs++;
          this.onSync?.(path);
          return 0;
        });
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), patch] } };
  }
}

/** PGlite's start parameters with fsync on (no `-F`) and a WAL sync method Emscripten implements. */
export const DURABLE_START_PARAMS = [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];

/** Every file and directory under `dir`, and `dir` in its parent: a new data dir (initdb or a template) was never synced. */
export function fsyncTree(dir: string): void {
  const sync = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) sync(path);
      else if (entry.isFile()) fsyncPath(path);
    }
    fsyncPath(folder);
  };
  sync(dir);
  fsyncPath(dirname(dir));
}

/**
 * Opens PGlite on a data dir, durable unless `fsync` is false (then as PGlite ships: faster commits, and an OS crash
 * may lose the latest ones). A new dir is synced whole once it exists.
 */
export async function openPgliteDataDir(dataDir: string, options: { fresh: boolean; fsync: boolean } & Pick<PGliteOptions, 'extensions' | 'loadDataDir'>) {
  const { fresh, fsync, ...rest } = options;
  if (!fsync) return { pglite: await PGlite.create({ dataDir, ...rest }), fs: undefined };
  const fs = new DurableNodeFS(dataDir);
  const pglite = await PGlite.create({ fs, startParams: DURABLE_START_PARAMS, ...rest });
  if (fresh) fsyncTree(dataDir);
  return { pglite, fs };
}
