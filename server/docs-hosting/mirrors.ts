import { lookup } from 'node:dns/promises';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { BlockList } from 'node:net';
import { isAbsolute, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { GitError, GitRepository, type RemoteOptions } from './git.ts';

/** Addresses that are not the public internet: loopback, private, link-local, shared, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 127], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Bytes of every file under `dir`. */
async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** The public addresses of an https URL's host, or why it has none. */
async function publicAddresses(url: URL): Promise<string[] | string> {
  const addresses = await lookup(url.hostname.replace(/^\[|\]$/g, ''), { all: true }).catch(() => []);
  if (addresses.length === 0) return `The host ${url.hostname} cannot be resolved`;
  if (addresses.some(({ address, family }) => PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4'))) return `The host ${url.hostname} is not a public address`;
  return addresses.map(({ address }) => address);
}

/** A mirror over the size a repository may have: removed, and the fetch refused with this. */
export class RepositoryTooLarge extends GitError {
  constructor(maxBytes: number, bytes: number) {
    super(`The repository is ${Math.ceil(bytes / (1 << 20))} MB, more than the ${Math.round(maxBytes / (1 << 20))} MB this server mirrors`, '');
    this.name = 'RepositoryTooLarge';
  }
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
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(dir: string, options: { allowLocal: boolean; maxBytes?: number }) {
    this.#dir = dir;
    this.#allowLocal = options.allowLocal;
    this.#maxBytes = options.maxBytes ?? 1 << 30;
  }

  /**
   * Why a source cannot be registered, or undefined: an https URL of a public host without credentials in it, or a
   * local path where the operator allows them (then private hosts too: a development machine's own git server).
   * The service must not become a way to reach its own network (a registered URL is fetched by the server).
   */
  async sourceProblem(source: string): Promise<string | undefined> {
    if (this.#allowLocal && (isAbsolute(source) || source.startsWith('file://'))) return undefined;
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'https:' || !url.hostname || url.pathname.length < 2) {
      return `Must be an https:// git URL${this.#allowLocal ? ' or a local path' : ' (local paths only where the server allows them: DOCS_LOCAL_SOURCES=on)'}`;
    }
    if (url.username || url.password) return 'Must not carry credentials: only public repositories can be registered';
    if (this.#allowLocal) return undefined;
    const checked = await publicAddresses(url);
    return typeof checked === 'string' ? checked : undefined;
  }

  /**
   * How git reaches `source` this time: the host's addresses, looked up and checked now (a name that has since been
   * pointed inward is refused), handed to git so it cannot resolve the name again (no DNS rebinding in between).
   */
  async #remote(source: string): Promise<RemoteOptions> {
    if (this.#allowLocal) return {};
    const url = new URL(source);
    const checked = await publicAddresses(url);
    if (typeof checked === 'string') throw new GitError('git fetch refused', checked);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = checked.map((address) => (address.includes(':') ? `[${address}]` : address)).join(',');
    return { resolve: `${host}:${url.port || 443}:${addresses}` };
  }

  /** Forgets a mirror (a registration that did not go through). */
  async remove(id: string): Promise<void> {
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
      await git.sync(source, await this.#remote(source));
      // Git cannot stop a clone at a size: the mirror is measured once fetched, and dropped when over the cap.
      const bytes = await folderSize(git.gitDir);
      if (bytes > this.#maxBytes) {
        await rm(git.gitDir, { recursive: true, force: true });
        throw new RepositoryTooLarge(this.#maxBytes, bytes);
      }
      return { defaultBranch: await git.defaultBranch(), refs: await git.refs() };
    });
  }

  /** Every ref -> its commit, from the mirror as last synced. */
  refs(id: string): Promise<Map<string, string>> {
    return this.#exclusive(id, (git) => git.refs());
  }

  /** What a URL ref names (see GitRepository.lookup), from the mirror as last synced. */
  lookup(id: string, ref: string): Promise<{ ref?: string; commit: string } | undefined> {
    return this.#exclusive(id, (git) => git.lookup(ref));
  }

  /** Writes the tree of `commit` into `out` (in place: GitRepository.extract). */
  extract(id: string, commit: string, out: string): Promise<void> {
    return this.#exclusive(id, (git) => git.extract(commit, out));
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
