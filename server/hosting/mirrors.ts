import { mkdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { GitRepository } from './git.ts';

/**
 * The bare git mirrors of registered repositories, one folder each under `dir`, a cache any server process can
 * rebuild from the remote. Operations on one mirror run one at a time: in this process through a queue, across
 * processes sharing the folder through a lock file (git itself refuses concurrent ref updates).
 */
export class Mirrors {
  readonly #dir: string;
  readonly #allowLocal: boolean;
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(dir: string, options: { allowLocal: boolean }) {
    this.#dir = dir;
    this.#allowLocal = options.allowLocal;
  }

  /** Whether a source can be registered: an https URL, or a local path where the operator allows them. */
  acceptsSource(source: string): boolean {
    if (/^https:\/\/[^\s/]+\/\S+$/i.test(source)) return true;
    return this.#allowLocal && (isAbsolute(source) || source.startsWith('file://'));
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
      await git.sync(source);
      return { defaultBranch: await git.defaultBranch(), refs: await git.refs() };
    });
  }

  /** What a URL ref names (see GitRepository.lookup), from the mirror as last synced. */
  lookup(id: string, ref: string): Promise<{ ref?: string; commit: string } | undefined> {
    return this.#exclusive(id, (git) => git.lookup(ref));
  }

  /** Writes the tree of `commit` into `out`. */
  extract(id: string, commit: string, out: string): Promise<void> {
    return this.#exclusive(id, (git) => git.extract(commit, out));
  }
}
