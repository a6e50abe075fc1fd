import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/sql';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { Database } from '../../platform/db/orm.ts';
import { sha256Hex } from '../../platform/hash.ts';
import { DocsBuild, DocsRepository, type BuildManifest } from '../entities.ts';
import { builtFiles, type BuiltFile } from './built-files.ts';
import { BuildProcesses, STOPPED, type BuildOutcome } from './builder.ts';
import { CommitTooLarge, type Mirrors } from '../mirrors.ts';

/**
 * Builds run from a queue in the database, so any server process may run any build and a build survives the
 * process that started it:
 * - a process claims the oldest QUEUED build (or a BUILDING one whose lease ran out: its process died) with
 *   `FOR UPDATE SKIP LOCKED`, and renews the lease while the build runs;
 * - each process runs at most `concurrency` builds at once, each in a child process started ahead of it (builder.ts);
 * - the built files go into the database (content-addressed blobs, shared by builds), then the build becomes
 *   SUCCEEDED and the refs that asked for its commit serve it, in one transaction;
 * - a build that fails keeps its problems and error; the refs keep serving their last good build.
 * Every step can run again after a crash (inserts ignore what is already there), so a build whose process
 * died is simply built again, at most MAX_ATTEMPTS times.
 */

export const MAX_ATTEMPTS = 3;

/** Blob bytes per INSERT when storing a build's files (each blob row up to a few MB). */
const INSERT_BATCH_BYTES = 8 << 20;
/** File rows per INSERT (4 parameters each: PostgreSQL takes at most 65,535 in one statement). */
const INSERT_BATCH_ROWS = 5_000;
/** Files whose hashes a server process keeps between builds (BuildQueue's `#known`: ~150 bytes each). */
const KNOWN_FILES = 200_000;
/**
 * How long close() waits for its builds once their processes are ended: a build gives itself back to the queue at
 * once, but one in a git command (checking its commit out) finishes that first. Past this, the process stops anyway and
 * the build is taken again after its lease, as after a crash.
 */
const CLOSE_WAIT_MS = 5_000;

/** A build cache file stored before: its stamp then (built-files.ts), and its hash. */
interface KnownFile {
  stamp: string;
  hash: string;
}

/**
 * Built files read at once while storing them: one after another, the 3,000 files of a 1,000-page site took 1.1 s
 * of a one-page change's 1.8 s store; a few at a time keep the thread pool busy without holding thousands of
 * descriptors open.
 */
const READ_CONCURRENCY = 16;

/** `files` in order, in batches of about `maxBytes` (at least one file each). */
function batchesBySize(files: readonly BuiltFile[], maxBytes: number): BuiltFile[][] {
  const batches: BuiltFile[][] = [];
  let bytes = Infinity;
  for (const file of files) {
    if (bytes >= maxBytes) {
      batches.push([]);
      bytes = 0;
    }
    batches.at(-1)!.push(file);
    bytes += file.size;
  }
  return batches;
}

/** What one build may produce and use (docs/docs-hosting.md "Errors and limits"); a build beyond one fails. */
export interface BuildLimits {
  /** The build process's JavaScript heap, MB. */
  memoryMb: number;
  /** Files of the built site. */
  maxFiles: number;
  /** Bytes of the built site, all files together. */
  maxBytes: number;
  /** Bytes of any one built file. */
  maxFileBytes: number;
}

export const DEFAULT_BUILD_LIMITS: BuildLimits = { memoryMb: 2048, maxFiles: 20_000, maxBytes: 512 << 20, maxFileBytes: 32 << 20 };

export interface BuildQueueOptions {
  workDir: string;
  concurrency: number;
  timeoutMs: number;
  limits?: BuildLimits;
  /** How long a claim holds without renewal (renewed every third of it). Default 60 s. */
  leaseMs?: number;
  /** How often idle processes look for builds queued by others. Default 2 s. */
  pollMs?: number;
  /** After a build changed what refs serve (caches of this process). */
  onDeployed?: (repositoryId: string) => void;
  log?: (level: 'info' | 'warn' | 'error', data: object, message: string) => void;
}

export class BuildQueue {
  readonly #db: Database;
  readonly #mirrors: Mirrors;
  readonly #options: Required<Omit<BuildQueueOptions, 'onDeployed' | 'log'>> & Pick<BuildQueueOptions, 'onDeployed' | 'log'>;
  #running = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  readonly #active = new Set<Promise<void>>();
  /**
   * By repository, the hashes of its build cache files this process stored, with their stamps (built-files.ts): a
   * build leaves most of its files in the cache (the unchanged pages and search parts), and one whose stamp is as it
   * was is neither read nor hashed again (~100 MB for a one-page change to a 1,000-page site). Its blob is stored:
   * blobs are never removed. The repositories built least lately go first beyond {@link KNOWN_FILES} files.
   */
  readonly #known = new LRUCache<string, Map<string, KnownFile>>({ maxSize: KNOWN_FILES, sizeCalculation: (files) => Math.max(1, files.size) });

  readonly #processes: BuildProcesses;

  constructor(db: Database, mirrors: Mirrors, options: BuildQueueOptions) {
    this.#db = db;
    this.#mirrors = mirrors;
    this.#options = { leaseMs: 60_000, pollMs: 2_000, limits: DEFAULT_BUILD_LIMITS, ...options };
    this.#processes = new BuildProcesses({ memoryMb: this.#options.limits.memoryMb, moduleCacheDir: join(this.#options.workDir, 'module-cache') });
  }

  /**
   * Starts taking builds. `sole`: no other process shares the database (the embedded one), so builds left
   * BUILDING were a dead process's and are queued again at once instead of after their lease.
   */
  async start({ sole }: { sole: boolean }): Promise<void> {
    if (sole) await this.#db.em().nativeUpdate(DocsBuild, { status: 'BUILDING' }, { status: 'QUEUED', leaseUntil: null, progress: null });
    this.#timer = setInterval(() => this.wake(), this.#options.pollMs).unref();
    this.wake();
  }

  /** Looks for work now (after a build was queued in this process). */
  wake(): void {
    if (this.#closed || this.#running >= this.#options.concurrency) return;
    this.#running++;
    const task = this.#claim()
      .then((build) => (build ? this.#execute(build).then(() => this.#again()) : undefined))
      .catch((error: unknown) => this.#options.log?.('error', { err: error }, 'docs build queue failed'))
      .finally(() => {
        this.#running--;
        this.#active.delete(task);
      });
    this.#active.add(task);
  }

  #again() {
    // One build done: take the next one at once rather than at the next poll.
    queueMicrotask(() => this.wake());
  }

  /**
   * Stops taking builds and ends the running ones' processes (and the spare): each build goes back to the queue as it
   * was, for this server's next start or another process to build at once. A build of minutes does not hold up the
   * server's shutdown.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#processes.close();
    await Promise.race([Promise.allSettled([...this.#active]), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
  }

  async #claim(): Promise<DocsBuild | undefined> {
    const lease = `${Math.ceil(this.#options.leaseMs / 1000)} seconds`;
    const rows = await this.#db.em().execute<{ id: string }[]>(
      `update docs_build set status = 'BUILDING', attempts = attempts + 1, lease_until = now() + interval '${lease}',
         started_at = coalesce(started_at, now()), progress = null
       where id = (select b.id from docs_build b join docs_repository r on r.id = b.repository_id
                   where b.status = 'QUEUED' or (b.status = 'BUILDING' and b.lease_until < now())
                   -- Fair across organizations: the one whose last build started longest ago goes first, so a
                   -- hundred queued builds of one cannot make another's wait for all of them.
                   order by (select max(o.started_at) from docs_build o join docs_repository orr on orr.id = o.repository_id
                             where orr.organization_id = r.organization_id) asc nulls first, b.created_at
                   limit 1 for update of b skip locked)
       returning id`,
    );
    const id = rows[0]?.id;
    return id ? ((await this.#db.em().findOne(DocsBuild, { id })) ?? undefined) : undefined;
  }

  async #execute(build: DocsBuild): Promise<void> {
    const { log } = this.#options;
    if (build.attempts > MAX_ATTEMPTS) {
      return this.#fail(build, { type: 'failed', error: `The build did not finish in ${MAX_ATTEMPTS} attempts (the process running it stopped each time)` });
    }
    const repository = await this.#db.em().findOneOrFail(DocsRepository, { id: build.repository });
    const lease = `${Math.ceil(this.#options.leaseMs / 1000)} seconds`;
    // This attempt holds the build while its lease is renewed; one that lost it (another process took the build over
    // after a stall) stops, and its writes, all conditional on the attempt, change nothing.
    const lost = new AbortController();
    const renew = setInterval(() => {
      void this.#db
        .em()
        .execute<{ affectedRows: number }>(`update docs_build set lease_until = now() + interval '${lease}' where id = ? and status = 'BUILDING' and attempts = ?`, [build.id, build.attempts], 'run')
        .then((result) => result.affectedRows === 0 && lost.abort('Another process took this build over'))
        .catch((error: unknown) => log?.('warn', { err: error, build: build.id }, 'could not renew a build lease'));
    }, this.#options.leaseMs / 3).unref();
    const scratch = join(this.#options.workDir, 'builds', `${build.id}-${build.attempts}`);
    const started = performance.now();
    let tree: { dir: string; release: () => Promise<void> } | undefined;
    try {
      await rm(scratch, { recursive: true, force: true });
      await mkdir(scratch, { recursive: true });
      // Kept between builds: a commit renders only the pages that changed since one built before (any ref).
      const pageCacheDir = join(this.#options.workDir, 'page-cache', repository.id);
      // The commit's files, in a work tree of the repository's updated in place. The mirror may be missing in this
      // process (another one synced it): fetch first.
      tree = await this.#mirrors.checkout(repository.id, build.commit).catch(async (error: unknown) => {
        if (error instanceof CommitTooLarge) throw error;
        await this.#mirrors.sync(repository.id, repository.source);
        return this.#mirrors.checkout(repository.id, build.commit);
      });
      const source = tree.dir;
      const extracted = performance.now();
      let lastProgress = 0;
      const outcome = await this.#processes.run(
        {
          source,
          out: join(scratch, 'site'),
          searchIndexFile: join(scratch, 'search.json.gz'),
          searchStateFile: join(this.#options.workDir, 'search-state', `${repository.id}.json`),
          markdownFile: join(scratch, 'markdown.ndjson'),
          cacheDir: join(scratch, 'cache'),
          pageCacheDir,
          codeHost: { name: `${repository.owner}/${repository.name}` },
        },
        {
          timeoutMs: this.#options.timeoutMs,
          signal: lost.signal,
          onProgress: (progress) => {
            if (progress.phase === 'cache' && progress.message) log?.('warn', { build: build.id, repository: repository.slug, problem: progress.message }, 'docs build cache not kept');
            if (Date.now() - lastProgress < 1000) return;
            lastProgress = Date.now();
            void this.#db.em().nativeUpdate(DocsBuild, this.#mine(build), { progress }).catch(() => {});
          },
        },
      );
      if (outcome.type === 'failed' && outcome.error === STOPPED && !lost.signal.aborted) return await this.#release(build);
      if (outcome.type === 'failed') return await this.#fail(build, outcome);
      const built = performance.now();
      const files = await builtFiles(scratch, pageCacheDir, outcome.cachedFiles, this.#options.limits);
      if (typeof files === 'string') return await this.#fail(build, { type: 'failed', error: files });
      await this.#store(build, scratch, files, outcome);
      // Where a build's time goes: the commit's files, the build process, storing what it built.
      const [extractMs, buildMs, storeMs] = [extracted - started, built - extracted, performance.now() - built].map(Math.round) as [number, number, number];
      log?.('info', { build: build.id, repository: repository.slug, commit: build.commit, pages: outcome.pages, htmlFiles: outcome.manifest.htmlFiles, ms: extractMs + buildMs + storeMs, extractMs, buildMs, storeMs }, 'docs build succeeded');
    } catch (error) {
      // The commit's files are over the checkout limits: the commit's own failure, nothing was written.
      if (error instanceof CommitTooLarge) return await this.#fail(build, { type: 'failed', error: error.message });
      // Our own failure (git, the database): the lease runs out and the build is tried again.
      log?.('error', { err: error, build: build.id }, 'docs build could not run');
      this.#known.delete(repository.id); // what went wrong may be what it knew
      throw error;
    } finally {
      clearInterval(renew);
      await tree?.release().catch(() => {});
      await rm(scratch, { recursive: true, force: true }).catch(() => {});
    }
  }

  /**
   * Gives a build this process stopped (it is shutting down) back to the queue, as the attempt it was not: a server
   * restarted three times mid-build must not fail it. Any process may take it at once.
   */
  async #release(build: DocsBuild): Promise<void> {
    await this.#db.em().nativeUpdate(DocsBuild, this.#mine(build), { status: 'QUEUED', attempts: build.attempts - 1, leaseUntil: null, progress: null });
    this.#options.log?.('info', { build: build.id }, 'docs build stopped with the server: queued again');
  }

  /** The build as long as this attempt holds it. */
  #mine(build: DocsBuild) {
    return { id: build.id, status: 'BUILDING', attempts: build.attempts };
  }

  async #fail(build: DocsBuild, outcome: Extract<BuildOutcome, { type: 'failed' }>): Promise<void> {
    await this.#db.em().nativeUpdate(
      DocsBuild,
      this.#mine(build),
      { status: 'FAILED', error: outcome.error.slice(0, 4000), problems: (outcome.problems ?? []) as Record<string, unknown>[], progress: null, leaseUntil: null, finishedAt: new Date() },
    );
    this.#options.log?.('warn', { build: build.id, error: outcome.error }, 'docs build failed');
  }

  /** Files and blobs first (idempotent), then, in one transaction, SUCCEEDED and the refs that serve it. */
  async #store(build: DocsBuild, scratch: string, files: BuiltFile[], outcome: Extract<BuildOutcome, { type: 'done' }>): Promise<void> {
    const searchIndex = await readFile(join(scratch, 'search.json.gz'));
    const searchHash = await this.#insertBlobs([searchIndex]).then(([hash]) => hash!);
    const known = this.#known.get(build.repository);
    const learned = new Map<string, KnownFile>();
    const rows: [path: string, hash: string, size: number][] = [];
    const unknown: BuiltFile[] = [];
    for (const file of files) {
      const where = typeof file.file === 'string' ? file.file : undefined;
      const seen = where === undefined ? undefined : known?.get(where);
      if (seen === undefined || seen.stamp !== file.stamp) unknown.push(file);
      else {
        rows.push([file.path, seen.hash, file.size]);
        learned.set(where!, seen);
      }
    }
    const read = pLimit(READ_CONCURRENCY);
    for (const batch of batchesBySize(unknown, INSERT_BATCH_BYTES)) {
      const contents = await Promise.all(batch.map(({ file }) => (typeof file === 'string' ? read(() => readFile(file)) : file)));
      const hashes = await this.#insertBlobs(contents);
      batch.forEach((file, n) => {
        rows.push([file.path, hashes[n]!, contents[n]!.length]);
        if (typeof file.file === 'string' && file.stamp !== undefined) learned.set(file.file, { stamp: file.stamp, hash: hashes[n]! });
      });
    }
    for (let i = 0; i < rows.length; i += INSERT_BATCH_ROWS) {
      const batch = rows.slice(i, i + INSERT_BATCH_ROWS);
      await this.#db.em().execute(
        `insert into docs_file (build_id, path, blob, size) values ${batch.map(() => '(?, ?, ?, ?)').join(', ')} on conflict do nothing`,
        batch.flatMap((row) => [build.id, ...row]),
      );
    }
    const manifest: BuildManifest = { ...outcome.manifest, searchIndex: searchHash };
    await this.#db.em().transactional(async (em) => {
      const done = await em.nativeUpdate(
        DocsBuild,
        this.#mine(build),
        { status: 'SUCCEEDED', manifest, pages: outcome.pages, problems: outcome.problems as Record<string, unknown>[], error: null, progress: null, leaseUntil: null, finishedAt: new Date() },
      );
      if (done === 1) await deployBuild(em, build.id);
    });
    this.#known.set(build.repository, learned);
    this.#options.onDeployed?.(build.repository);
  }

  /**
   * Inserts blobs that are not stored yet; answers their hashes, in order. Most files of a new commit's build are
   * those of the last one: their bytes are not sent again (a 1,000-page site is ~100 MB).
   */
  async #insertBlobs(contents: Buffer[]): Promise<string[]> {
    const hashes = contents.map(sha256Hex);
    const unique = new Map(hashes.map((hash, i) => [hash, contents[i]!]));
    const em = this.#db.em();
    const stored = await em.execute<{ hash: string }[]>(`select hash from docs_blob where hash in (${[...unique.keys()].map(() => '?').join(', ')})`, [...unique.keys()]);
    for (const { hash } of stored) unique.delete(hash);
    if (unique.size === 0) return hashes;
    const values = [...unique].map(() => '(?, ?, ?)').join(', ');
    await em.execute(
      `insert into docs_blob (hash, data, size) values ${values} on conflict do nothing`,
      [...unique].flatMap(([hash, data]) => [hash, data, data.length]),
    );
    return hashes;
  }
}

/**
 * The refs that asked for a succeeded build's commit serve it: those whose newest wanted commit it is, and those
 * that serve nothing yet (an older commit is better than no site while the newest one builds).
 */
export async function deployBuild(em: EntityManager, buildId: string): Promise<void> {
  await em.execute(
    `update docs_deployment d set build_id = b.id, updated_at = now()
     from docs_build b
     where b.id = ? and b.status = 'SUCCEEDED' and d.repository_id = b.repository_id
       and d.ref in (select jsonb_array_elements_text(b.refs))
       and (d.wanted_commit = b.commit or d.build_id is null)`,
    [buildId],
  );
}
