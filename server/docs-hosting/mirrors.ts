import { lookup } from 'node:dns/promises';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import lockfile from 'proper-lockfile';
import { GitError, GitRepository, isCommitPrefix, namedRef, type RemoteOptions } from './git.ts';
import { addressProblem, hostOf, parseSource, pinnedResolve } from './sources.ts';

/** Bytes of every file under `dir`. */
async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** A host name's addresses as the system resolves them (what git would connect to), none when it cannot. */
const systemAddresses = (host: string): Promise<string[]> =>
  lookup(host, { all: true }).then(
    (found) => found.map(({ address }) => address),
    () => [],
  );

/**
 * How long a process answers from the refs it read of a mirror without reading them again: its own fetches replace
 * them at once; another process sharing the folder may have fetched since, and is seen after this.
 */
const REFS_FRESH_MS = 10_000;

/** A mirror over the size a repository may have: removed, and the fetch refused with this. */
export class RepositoryTooLarge extends GitError {
  constructor(maxBytes: number, bytes: number) {
    super(`The repository is ${Math.ceil(bytes / (1 << 20))} MB, more than the ${Math.round(maxBytes / (1 << 20))} MB this server mirrors`, '');
    this.name = 'RepositoryTooLarge';
  }
}

/** What a build may check out of one commit (docs/docs-hosting.md "Errors and limits of hosted sites"). */
export interface CheckoutLimits {
  /** Entries of the commit's tree (files, symlinks, submodules), all folders down. */
  maxFiles: number;
  /** The sum of their sizes: what the checkout writes. */
  maxBytes: number;
}

export const DEFAULT_CHECKOUT_LIMITS: CheckoutLimits = { maxFiles: 100_000, maxBytes: 512 << 20 };

/** A commit over the checkout limits: nothing of it is written, and its build fails with this message. */
export class CommitTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommitTooLarge';
  }
}

/** Why a commit of `files` entries summing `bytes` may not be checked out (counted up to one past the limit), or undefined. */
export function checkoutProblem({ files, bytes }: { files: number; bytes: number }, limits: CheckoutLimits): string | undefined {
  if (files > limits.maxFiles) return `The commit has more than the ${limits.maxFiles} files a build may check out`;
  if (bytes > limits.maxBytes) {
    return `The commit's files are ${(bytes / (1 << 20)).toFixed(1)} MB, more than the ${Math.round(limits.maxBytes / (1 << 20))} MB a build may check out`;
  }
  return undefined;
}

export interface MirrorsOptions {
  /** Local paths and https URLs of private hosts allowed as sources (DOCS_LOCAL_SOURCES). */
  allowLocal: boolean;
  /** The largest mirror (DOCS_REPOSITORY_MAX_MB); default 1 GiB. */
  maxBytes?: number;
  checkoutLimits?: CheckoutLimits;
  /** A host name's addresses; default the system's resolver. */
  resolveHost?: (host: string) => Promise<string[]>;
}

/**
 * The bare git mirrors of registered repositories, one folder each under `dir`, a cache any server process can
 * rebuild from the remote. Operations on one mirror run one at a time: in this process through a queue, across
 * processes sharing the folder through a lock file (git itself refuses concurrent ref updates).
 */
export class Mirrors {
  readonly #dir: string;
  readonly #allowLocal: boolean;
  readonly #maxBytes: number;
  readonly #checkoutLimits: CheckoutLimits;
  readonly #resolveHost: (host: string) => Promise<string[]>;
  readonly #queues = new Map<string, Promise<unknown>>();
  /**
   * Every mirror's refs as last read: a reader's `~ref` is looked up here, not by a git command under the mirror's
   * lock (300 URLs of unknown refs ran 300 `for-each-ref`s, and a publish waited behind them). Reads of one mirror
   * that come together are one read.
   */
  readonly #refs = new LRUCache<string, Map<string, string>>({ max: 1_000, ttl: REFS_FRESH_MS, fetchMethod: (id) => this.#exclusive(id, (git) => git.refs()) });

  constructor(dir: string, options: MirrorsOptions) {
    this.#dir = dir;
    this.#allowLocal = options.allowLocal;
    this.#maxBytes = options.maxBytes ?? 1 << 30;
    this.#checkoutLimits = options.checkoutLimits ?? DEFAULT_CHECKOUT_LIMITS;
    this.#resolveHost = options.resolveHost ?? systemAddresses;
  }

  /**
   * Why a source cannot be registered, or undefined: an https URL of a public host without credentials in it, or a
   * local path where the operator allows them (then private hosts too: a development machine's own git server).
   * The service must not become a way to reach its own network (a registered URL is fetched by the server).
   */
  async sourceProblem(source: string): Promise<string | undefined> {
    const remote = await this.#remote(source);
    return 'problem' in remote ? remote.problem : undefined;
  }

  /**
   * How git reaches `source` this time, or why it may not: the URL as re-serialised (sources.ts), and the host's
   * addresses, looked up and checked now (a name that has since been pointed inward is refused), handed to git so it
   * cannot resolve the name again (no DNS rebinding in between).
   */
  async #remote(source: string): Promise<{ url: string; options: RemoteOptions } | { problem: string }> {
    const parsed = parseSource(source, this.#allowLocal);
    if ('problem' in parsed) return parsed;
    if ('local' in parsed) return { url: parsed.local, options: {} };
    const { url } = parsed;
    if (this.#allowLocal) return { url: url.href, options: {} };
    const host = hostOf(url);
    const addresses = isIP(host) ? [host] : await this.#resolveHost(host);
    const problem = addressProblem(url.hostname, addresses);
    return problem ? { problem } : { url: url.href, options: { resolve: pinnedResolve(url, addresses) } };
  }
  /** Forgets a mirror (a registration that did not go through). */
  async remove(id: string): Promise<void> {
    this.#refs.delete(id);
    await rm(join(this.#dir, `${id}.git`), { recursive: true, force: true });
  }

  #repository(id: string) {
    return new GitRepository(join(this.#dir, `${id}.git`), { protocols: this.#allowLocal ? ['https', 'file'] : ['https'] });
  }

  /** Runs `task` on the mirror of repository `id` once every earlier task on it has finished. */
  async #exclusive<T>(id: string, task: (git: GitRepository) => Promise<T>): Promise<T> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const run = previous.then(async () => {
      await mkdir(this.#dir, { recursive: true });
      // One lock per mirror (proper-lockfile tracks locks by target path, so each mirror is its own target).
      const release = await lockfile.lock(join(this.#dir, id), {
        realpath: false,
        lockfilePath: join(this.#dir, `${id}.lock`),
        stale: 60_000,
        update: 10_000,
        retries: { retries: 600, minTimeout: 100, maxTimeout: 1000 },
      });
      try {
        return await task(this.#repository(id));
      } finally {
        await release();
      }
    });
    const settled = run.catch(() => {});
    this.#queues.set(id, settled);
    void settled.then(() => this.#queues.get(id) === settled && this.#queues.delete(id));
    return run;
  }

  /** Fetches what changed (clones the first time); answers the default branch and every ref -> commit. */
  sync(id: string, source: string): Promise<{ defaultBranch: string; refs: Map<string, string> }> {
    return this.#exclusive(id, async (git) => {
      const remote = await this.#remote(source);
      if ('problem' in remote) throw new GitError('git fetch refused', remote.problem);
      await git.sync(remote.url, remote.options);
      // Git cannot stop a clone at a size: the mirror is measured once fetched, and dropped when over the cap.
      const bytes = await folderSize(git.gitDir);
      if (bytes > this.#maxBytes) {
        await rm(git.gitDir, { recursive: true, force: true });
        throw new RepositoryTooLarge(this.#maxBytes, bytes);
      }
      const refs = await git.refs();
      this.#refs.set(id, refs);
      return { defaultBranch: await git.defaultBranch(), refs };
    });
  }

  /** Every ref -> its commit, from the mirror as last synced (read again after REFS_FRESH_MS). */
  async refs(id: string): Promise<Map<string, string>> {
    return (await this.#refs.fetch(id))!;
  }

  /**
   * What a URL ref names (see GitRepository.lookup), from the mirror as last synced: a name from the refs as read
   * ({@link refs}); only a commit SHA that no ref names asks git.
   */
  async lookup(id: string, ref: string): Promise<{ ref?: string; commit: string } | undefined> {
    const known = await this.refs(id);
    const name = namedRef(ref, known);
    if (name) return { ref: name, commit: known.get(name)! };
    if (!isCommitPrefix(ref)) return undefined;
    return this.#exclusive(id, (git) => git.lookup(ref, known));
  }

  /**
   * Writes the tree of `commit` into `out` (in place: GitRepository.extract), or throws CommitTooLarge and writes
   * nothing. The mirror's size says little of the checkout's: one zero-filled blob compresses to almost nothing and
   * may sit at any number of paths, so the tree's entries and their sizes are counted first (one `ls-tree` of the
   * commit: ~10 ms for 10,000 files in a packed mirror; a local source's loose objects are slower).
   */
  extract(id: string, commit: string, out: string): Promise<void> {
    return this.#exclusive(id, async (git) => {
      const problem = checkoutProblem(await git.treeSize(commit, this.#checkoutLimits.maxFiles), this.#checkoutLimits);
      if (problem) throw new CommitTooLarge(problem);
      await git.extract(commit, out);
    });
  }

  /**
   * Checks `commit` out into a work tree of repository `id` kept between builds (`<id>.trees/<n>/`), which then holds
   * exactly the commit's files (GitRepository.extract: only those that differ from the tree's last commit are
   * written; a 1,000-file repository took 0.3-0.5 s to write whole). A tree serves one build at a time, across the
   * server's processes too (a lock file, stale after a minute without its holder); `release()` gives it back.
   */
  async checkout(id: string, commit: string): Promise<{ dir: string; release: () => Promise<void> }> {
    const trees = join(this.#dir, `${id}.trees`);
    await mkdir(trees, { recursive: true });
    for (let n = 0; ; n++) {
      const dir = join(trees, String(n));
      // A lock whose updates failed for a minute (a stalled machine) is not a reason to end the server (the library's
      // default is to throw): the build goes on with its tree.
      const held = { realpath: false, lockfilePath: `${dir}.lock`, stale: 60_000, update: 10_000, retries: 0, onCompromised: () => {} };
      const release = await lockfile.lock(dir, held).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ELOCKED') return undefined; // another build has it
        throw error;
      });
      if (!release) continue;
      try {
        await this.extract(id, commit, dir);
      } catch (error) {
        await release();
        throw error;
      }
      return { dir, release };
    }
  }
}
