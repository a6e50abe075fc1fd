import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstat, mkdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * Reading documentation repositories at exact commits (docs/docs-hosting.md "Reading repositories: git at exact commits"): one bare
 * mirror per repository (`clone --mirror` fetches every ref, `refs/pull/N/head` included), refs resolved by
 * exact name only, trees extracted with no working tree and no symlinks. The git CLI does it all; it runs
 * isolated from any user or system configuration, never prompts, and only speaks the allowed protocols.
 */

const exec = promisify(execFile);

export interface GitOptions {
  /** Transports a remote may use. Registered URLs: `https` (the default); operator-configured local paths add `file`. */
  protocols?: readonly ('https' | 'http' | 'file')[];
  /** Per git command. Default 120 s. */
  timeoutMs?: number;
}

function environment(protocols: GitOptions['protocols'] = ['https']) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_ALLOW_PROTOCOL: protocols.join(':'),
    LC_ALL: 'C',
  };
}

/**
 * A git command that failed. `message` is ours and says only which step failed: git's own output (which can name
 * hosts, ports, addresses and what answered there) stays in `stderr`, for logs, never for callers.
 */
export class GitError extends Error {
  readonly stderr: string;

  constructor(message: string, stderr: string) {
    super(message);
    this.name = 'GitError';
    this.stderr = stderr;
  }
}

/** Network settings of the git commands that reach a remote. */
export interface RemoteOptions {
  /** `host:port:address[,address]`: the addresses checked for this fetch, so git cannot resolve the name again. */
  resolve?: string | undefined;
}

export class GitRepository {
  /** Where the bare mirror lives (created by `sync`). */
  readonly gitDir: string;
  readonly #env: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(gitDir: string, options: GitOptions = {}) {
    this.gitDir = gitDir;
    this.#env = environment(options.protocols);
    this.#timeoutMs = options.timeoutMs ?? 120_000;
  }

  async #git(args: string[], env: Record<string, string> = {}): Promise<string> {
    try {
      const { stdout } = await exec('git', args, { env: { ...this.#env, ...env }, maxBuffer: 64 << 20, timeout: this.#timeoutMs, encoding: 'utf8' });
      return stdout;
    } catch (error) {
      const stderr = String((error as { stderr?: string }).stderr ?? '').trim() || (error as Error).message;
      throw new GitError(`git ${args.find((a) => !a.startsWith('-') && !a.includes('=') && a !== this.gitDir) ?? ''} failed`, stderr);
    }
  }

  /** Mirrors `url` (first time) or fetches what changed, pruning deleted refs; the default branch follows the remote's. */
  async sync(url: string, remote: RemoteOptions = {}): Promise<void> {
    // A redirect could lead anywhere (an address nobody checked): git's first request must be answered where it went.
    const network = ['-c', 'http.followRedirects=false', ...(remote.resolve ? ['-c', `http.curloptResolve=${remote.resolve}`] : [])];
    const exists = await lstat(this.gitDir).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : Promise.reject(error)),
    );
    if (!exists) return void (await this.#git([...network, 'clone', '--mirror', '--quiet', '--', url, this.gitDir]));
    // From the URL as checked now, not the one the mirror was cloned from (which an older server may have let through).
    await this.#git(['--git-dir', this.gitDir, 'remote', 'set-url', 'origin', url]);
    await this.#git([...network, '--git-dir', this.gitDir, 'fetch', '--prune', '--quiet', 'origin']);
    // fetch never moves a mirror's HEAD: ask the remote which branch is its default now.
    const head = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(await this.#git([...network, '--git-dir', this.gitDir, 'ls-remote', '--symref', '--', url, 'HEAD']));
    if (head) await this.#git(['--git-dir', this.gitDir, 'symbolic-ref', 'HEAD', `refs/heads/${head[1]}`]);
  }

  /** The default branch's name (the mirror's HEAD). */
  async defaultBranch(): Promise<string> {
    return (await this.#git(['--git-dir', this.gitDir, 'symbolic-ref', '--short', 'HEAD'])).trim();
  }

  /** Every ref -> the commit it names (annotated tags peeled). */
  async refs(): Promise<Map<string, string>> {
    const out = await this.#git(['--git-dir', this.gitDir, 'for-each-ref', '--format=%(refname)%00%(*objectname)%00%(objectname)']);
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name, peeled, sha] = line.split('\0');
          return [name!, peeled || sha!];
        }),
    );
  }

  /**
   * What a URL's `{ref}` names, or undefined: a pull-request number (`refs/pull/N/head`), a branch, a tag, or a
   * commit SHA (7-40 hex digits; no ref name then); or exactly the ref a full name (`refs/heads/x`) names. Exact names only: revision syntax (`main~1`, `a..b`, `@{1}`)
   * names nothing.
   */
  async lookup(ref: string, refs?: Map<string, string>): Promise<{ ref?: string; commit: string } | undefined> {
    const known = refs ?? (await this.refs());
    const name = namedRef(ref, known);
    if (name) return { ref: name, commit: known.get(name)! };
    if (!isCommitPrefix(ref)) return undefined;
    try {
      return { commit: (await this.#git(['--git-dir', this.gitDir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim() };
    } catch {
      return undefined;
    }
  }

  /** The commit a URL's `{ref}` names (see {@link lookup}). */
  async resolve(ref: string, refs?: Map<string, string>): Promise<string | undefined> {
    return (await this.lookup(ref, refs))?.commit;
  }

  /**
   * How many entries the tree of `commit` has, all folders down (files, symlinks, submodules), and the sum of their
   * sizes: what checking it out writes. Read from `ls-tree -r -l` as it streams, and only up to `maxFiles + 1`
   * entries: a tree that names one subtree at many paths, in many levels, lists millions of entries.
   */
  async treeSize(commit: string, maxFiles: number): Promise<{ files: number; bytes: number }> {
    requireFullSha(commit);
    const child = spawn('git', ['--git-dir', this.gitDir, 'ls-tree', '-r', '-l', '-z', commit], { env: this.#env, timeout: this.#timeoutMs, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'close').then(([code]) => code as number | null, (error: Error) => error);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
    let files = 0;
    let bytes = 0;
    let rest = '';
    // Entries are `<mode> <type> <object> <size>\t<path>\0`; the size is `-` for a submodule.
    reading: for await (const chunk of child.stdout.setEncoding('latin1')) {
      const entries = (rest + (chunk as string)).split('\0');
      rest = entries.pop()!;
      for (const entry of entries) {
        if (++files > maxFiles) {
          child.kill();
          break reading;
        }
        bytes += Number(/^\S+ \S+ \S+ +(\d+)\t/.exec(entry)?.[1] ?? 0);
      }
    }
    const code = await exited;
    if (files <= maxFiles && code !== 0) throw new GitError('git ls-tree failed', code instanceof Error ? code.message : stderr.trim());
    return { files, bytes };
  }

  /**
   * Makes `out` hold exactly the tree of `commit`, without a working tree of the mirror's: the files that differ from
   * what git last wrote there (its index is kept beside it, `<out>.index`) or that were changed since are written,
   * the others left as they are, and every file git does not track is removed. A commit one page away from the last
   * one written there writes one file. Symlinks become small text files holding their target, so a repository
   * cannot make a build read outside its own files.
   */
  async extract(commit: string, out: string): Promise<void> {
    requireFullSha(commit);
    // Absolute: git reads a relative GIT_INDEX_FILE from the work tree, not from where it was started.
    const index = resolve(`${out}.index`);
    const git = (args: string[]) => this.#git(['--git-dir', this.gitDir, '--work-tree', out, '-c', 'core.symlinks=false', ...args], { GIT_INDEX_FILE: index });
    const write = async () => {
      await mkdir(out, { recursive: true });
      // One tree read over the index: a file whose entry is unchanged and whose stat data still matches is kept.
      await git(['read-tree', '--reset', '-u', commit]);
      await git(['clean', '-ffdxq']);
    };
    try {
      await write();
    } catch {
      // An index that is not git's (a crash while it was written, a folder of another kind): from nothing, once.
      await Promise.all([rm(out, { recursive: true, force: true }), rm(index, { force: true })]);
      await write();
    }
  }
}

function requireFullSha(commit: string): void {
  if (!/^[0-9a-f]{40}$/i.test(commit)) throw new GitError(`Not a full commit SHA: ${commit}`, '');
}

/** A URL's `{ref}` that may be (the start of) a commit SHA: 7 to 40 hex digits. */
export const isCommitPrefix = (ref: string) => /^[0-9a-f]{7,40}$/i.test(ref);

/** The ref a URL's `{ref}` names among `refs` (name -> commit): the first by precedence; a full name names exactly that ref. */
export function namedRef(ref: string, refs: Map<string, string>): string | undefined {
  return (ref.startsWith('refs/') ? [ref] : refNames(ref)).find((name) => refs.has(name));
}

/** The full ref names a URL's `{ref}` may stand for, in order of precedence. */
export function refNames(ref: string): string[] {
  return /^\d+$/.test(ref) ? [`refs/pull/${ref}/head`, `refs/heads/${ref}`, `refs/tags/${ref}`] : [`refs/heads/${ref}`, `refs/tags/${ref}`];
}

/** `refs/heads/main` -> `main`, `refs/pull/7/head` -> `7`: how a ref appears in site URLs. */
export function urlRef(name: string): string {
  return /^refs\/pull\/(\d+)\/head$/.exec(name)?.[1] ?? name.replace(/^refs\/(heads|tags)\//, '');
}
