/**
 * Reading documentation repositories at exact commits (server/hosting/git.ts): a real git repository with two
 * branches, a lightweight and an annotated tag and a pull-request ref, mirrored, resolved and extracted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { GitError, GitRepository } from '../../server/docs-hosting/git.ts';
import { checkoutProblem, CommitTooLarge, Mirrors } from '../../server/docs-hosting/mirrors.ts';
import { createGitRepo } from '../../scripts/lib/git-fixture.ts';
import { commitZeroBlob } from '../helpers/hosting.ts';

const repo = createGitRepo();
const upstream = repo.dir;
const root = join(upstream, '..');
const git = repo.git;
const write = (file: string, text: string) => repo.write({ [file]: text });
const commit = repo.commit;

const shas: Record<string, string> = {};
let mirror: GitRepository;

beforeAll(async () => {
  write('docs.json', '{ "name": "Widgets" }\n');
  write('index.mdx', '# Main v1\n');
  shas.v1 = commit('v1');
  git('tag', 'v1.0');
  write('index.mdx', '# Main v2\n');
  symlinkSync('/etc/passwd', join(upstream, 'leak.mdx'));
  shas.main = commit('v2');
  git('tag', '-a', 'v2.0', '-m', 'annotated');
  git('checkout', '-q', '-b', 'beta');
  write('index.mdx', '# Beta\n');
  shas.beta = commit('beta');
  git('checkout', '-q', '-b', 'pr-branch');
  write('guide.mdx', '# From a pull request\n');
  shas.pr = commit('pr');
  git('update-ref', 'refs/pull/7/head', shas.pr);
  git('checkout', '-q', 'main');
  git('branch', '-q', '-D', 'pr-branch');

  mirror = new GitRepository(join(root, 'mirror.git'), { protocols: ['file'] });
  await mirror.sync(upstream);
});
afterAll(() => repo.cleanup());

describe('refs', () => {
  it('resolves the default branch, branches, tags (annotated ones to their commit), pull-request numbers and SHAs', async () => {
    expect(await mirror.defaultBranch()).toBe('main');
    expect(await mirror.resolve('main')).toBe(shas.main);
    expect(await mirror.resolve('beta')).toBe(shas.beta);
    expect(await mirror.resolve('v1.0')).toBe(shas.v1);
    expect(await mirror.resolve('v2.0')).toBe(shas.main);
    expect(await mirror.resolve('7')).toBe(shas.pr);
    expect(await mirror.resolve(shas.v1!)).toBe(shas.v1);
    expect(await mirror.resolve(shas.beta!.slice(0, 8))).toBe(shas.beta);
  });

  it('names nothing with revision syntax, unknown names, options or a SHA that is not there', async () => {
    for (const ref of ['main~1', 'main^', 'v1.0..main', 'HEAD', '@{1}', '--help', 'nope', '8', 'deadbeef', '0'.repeat(40)]) {
      expect(await mirror.resolve(ref), ref).toBeUndefined();
    }
  });

  it('follows the remote on sync: new commits and refs, deleted refs pruned, a changed default branch', async () => {
    write('index.mdx', '# Main v3\n');
    const v3 = commit('v3');
    git('update-ref', '-d', 'refs/pull/7/head');
    git('symbolic-ref', 'HEAD', 'refs/heads/beta');
    await mirror.sync(upstream);
    expect(await mirror.resolve('main')).toBe(v3);
    expect(await mirror.resolve('7')).toBeUndefined();
    expect(await mirror.defaultBranch()).toBe('beta');
    git('symbolic-ref', 'HEAD', 'refs/heads/main');
    await mirror.sync(upstream);
    expect(await mirror.defaultBranch()).toBe('main');
  });

  it("Mirrors answers names from the refs of its last fetch, without git; a fetch replaces them; only a SHA asks git", async () => {
    const mirrors = new Mirrors(join(root, 'cached'), { allowLocal: true });
    const { refs } = await mirrors.sync('cached', upstream);
    const gitDir = join(root, 'cached', 'cached.git');
    const inMirror = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' }).trim();
    // Refs changed in the mirror behind this process's back (as another process's fetch would) are not read again
    // for each look-up: 300 look-ups of names ran 300 `for-each-ref`s under the mirror's lock.
    inMirror('update-ref', 'refs/heads/behind', refs.get('refs/heads/main')!);
    inMirror('update-ref', '-d', 'refs/heads/beta');
    expect(await mirrors.lookup('cached', 'behind')).toBeUndefined();
    expect(await mirrors.lookup('cached', 'beta')).toEqual({ ref: 'refs/heads/beta', commit: shas.beta });
    expect(await mirrors.refs('cached')).toBe(refs);
    // A commit no ref names is still found by git.
    expect(await mirrors.lookup('cached', shas.v1!.slice(0, 10))).toEqual({ commit: shas.v1 });
    // This process's own fetch replaces them at once.
    await mirrors.sync('cached', upstream);
    expect(await mirrors.lookup('cached', 'beta')).toEqual({ ref: 'refs/heads/beta', commit: shas.beta });
    expect(await mirrors.lookup('cached', 'behind')).toBeUndefined(); // pruned: the remote has no such branch
    inMirror('update-ref', 'refs/heads/behind', refs.get('refs/heads/main')!);
    expect(await mirrors.lookup('cached', 'behind')).toBeUndefined();
  });
});

describe('extract', () => {
  it('writes the tree of an exact commit, whatever the branches do later', async () => {
    const out = join(root, 'out-v1');
    await mirror.extract(shas.v1!, out);
    expect(readFileSync(join(out, 'index.mdx'), 'utf8')).toBe('# Main v1\n');
    expect(existsSync(join(out, 'guide.mdx'))).toBe(false);
    await mirror.extract(shas.beta!, out);
    expect(readFileSync(join(out, 'index.mdx'), 'utf8')).toBe('# Beta\n');
    expect(existsSync(join(out, '.git'))).toBe(false);
  });

  it('writes the tree into a folder given relative to the working directory (a relative DATA_DIR)', async () => {
    const out = relative(process.cwd(), join(root, 'out-relative'));
    await mirror.extract(shas.main!, out);
    expect(readFileSync(join(out, 'index.mdx'), 'utf8')).toBe('# Main v2\n');
  });

  it('turns a committed symlink into a text file holding its target, never a link out of the repository', async () => {
    const out = join(root, 'out-main');
    await mirror.extract(shas.main!, out);
    expect(lstatSync(join(out, 'leak.mdx')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(out, 'leak.mdx'), 'utf8')).toBe('/etc/passwd');
  });

  it('refuses anything but a full commit SHA', async () => {
    await expect(mirror.extract('main', join(root, 'x'))).rejects.toBeInstanceOf(GitError);
  });

  it('writes in place: only the files that differ; what was changed, removed or added in the folder since is put right', async () => {
    const out = join(root, 'out-in-place');
    const written = (file: string) => {
      const info = statSync(join(out, file), { bigint: true });
      return `${info.ino}:${info.ctimeNs}`;
    };
    await mirror.extract(shas.pr!, out);
    const before = { docs: written('docs.json'), guide: written('guide.mdx'), index: written('index.mdx') };
    await mirror.extract(shas.beta!, out); // the pull request adds guide.mdx to beta
    expect(existsSync(join(out, 'guide.mdx'))).toBe(false);
    expect([written('docs.json'), written('index.mdx')]).toEqual([before.docs, before.index]);
    // Changed since: a tracked file edited (same size), one removed, files and a folder added, a link planted.
    writeFileSync(join(out, 'index.mdx'), '# Beta!\n'.slice(0, '# Beta\n'.length));
    rmSync(join(out, 'docs.json'));
    writeFileSync(join(out, 'extra.mdx'), '# Not in the commit\n');
    mkdirSync(join(out, 'stray/deep'), { recursive: true });
    writeFileSync(join(out, 'stray/deep/page.mdx'), '# Stray\n');
    symlinkSync('/etc', join(out, 'etc'));
    await mirror.extract(shas.beta!, out);
    expect(readdirSync(out).sort()).toEqual(['docs.json', 'index.mdx', 'leak.mdx']);
    expect(readFileSync(join(out, 'index.mdx'), 'utf8')).toBe('# Beta\n');
    expect(readFileSync(join(out, 'docs.json'), 'utf8')).toBe('{ "name": "Widgets" }\n');
  });

  it('starts from nothing when the index beside the folder is not one git can read', async () => {
    const out = join(root, 'out-broken-index');
    await mirror.extract(shas.main!, out);
    writeFileSync(`${out}.index`, 'not an index');
    writeFileSync(join(out, 'extra.mdx'), '# Not in the commit\n');
    await mirror.extract(shas.beta!, out);
    expect(readdirSync(out).sort()).toEqual(['docs.json', 'index.mdx', 'leak.mdx']);
    expect(readFileSync(join(out, 'index.mdx'), 'utf8')).toBe('# Beta\n');
  });
});

describe("a repository's work trees (Mirrors.checkout)", () => {
  it('one per build at a time: a second build at once gets another; a tree given back is taken again, updated in place', async () => {
    const mirrors = new Mirrors(join(root, 'trees'), { allowLocal: true });
    await mirrors.sync('widgets', upstream);
    const first = await mirrors.checkout('widgets', shas.main!);
    const second = await mirrors.checkout('widgets', shas.beta!);
    expect(second.dir).not.toBe(first.dir);
    expect(readFileSync(join(first.dir, 'index.mdx'), 'utf8')).toBe('# Main v2\n');
    expect(readFileSync(join(second.dir, 'index.mdx'), 'utf8')).toBe('# Beta\n');
    const docs = statSync(join(first.dir, 'docs.json'), { bigint: true }).ino;
    await first.release();
    const third = await mirrors.checkout('widgets', shas.beta!);
    expect(third.dir).toBe(first.dir);
    expect(readFileSync(join(third.dir, 'index.mdx'), 'utf8')).toBe('# Beta\n');
    expect(statSync(join(third.dir, 'docs.json'), { bigint: true }).ino).toBe(docs);
    await Promise.all([second.release(), third.release()]);
  });
});

describe('isolation', () => {
  it('refuses transports that are not allowed (https only by default: no local paths, no ext::)', async () => {
    const https = new GitRepository(join(root, 'https-only.git'));
    await expect(https.sync(upstream)).rejects.toMatchObject({ message: 'git clone failed', stderr: expect.stringMatching(/transport 'file' not allowed/) });
    await expect(https.sync('ext::sh -c touch% /tmp/pwned')).rejects.toMatchObject({ stderr: expect.stringMatching(/not allowed/) });
    expect(existsSync('/tmp/pwned')).toBe(false);
  });

  it('a registered source is checked again at every fetch: a name that now points inward is never contacted', async () => {
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      const mirrors = new Mirrors(join(root, 'public-only'), { allowLocal: false });
      for (const source of [`https://127.0.0.1:${port}/x.git`, `https://localhost:${port}/x.git`, 'https://[::1]/x.git']) {
        expect(await mirrors.sourceProblem(source), source).toMatch(/is not a public address$/);
        const refused = await mirrors.sync('rebound', source).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(GitError);
        expect([(refused as GitError).message, (refused as GitError).stderr]).toEqual(['git fetch refused', expect.stringMatching(/is not a public address$/)]);
      }
      expect(connections).toBe(0);
      expect(await mirrors.sourceProblem('http://example.com/x.git')).toMatch(/^Must be an https:\/\/ git URL/);
      expect(await mirrors.sourceProblem('https://user:secret@example.com/x.git')).toBe('Must not contain @ (no user names or credentials: only public repositories can be registered)');
    } finally {
      listener.close();
    }
  });

  it('a mirror fetches from the source as given now, not from the URL it was cloned from', async () => {
    const other = createGitRepo('trunk');
    try {
      other.write({ 'index.mdx': '# Elsewhere\n' });
      const elsewhere = other.commit('elsewhere');
      const moved = new GitRepository(join(root, 'moved.git'), { protocols: ['file'] });
      await moved.sync(upstream);
      await moved.sync(other.dir);
      expect([await moved.defaultBranch(), await moved.resolve('trunk'), await moved.resolve('main')]).toEqual(['trunk', elsewhere, undefined]);
    } finally {
      other.cleanup();
    }
  });

  it("git's own words stay out of the error's message (it could tell what answers at an address)", async () => {
    const https = new GitRepository(join(root, 'closed.git'));
    const error = (await https.sync('https://127.0.0.1:9/x.git').catch((e: unknown) => e)) as GitError;
    expect(error).toBeInstanceOf(GitError);
    expect(error.message).toBe('git clone failed');
    expect(error.stderr).toMatch(/127\.0\.0\.1/);
  });

  it('git follows no redirect: the first request must be answered where it was sent', async () => {
    const hits: string[] = [];
    const target = createHttpServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetPort = (target.address() as { port: number }).port;
    const redirector = createHttpServer((req, res) => res.writeHead(302, { Location: `http://127.0.0.1:${targetPort}${req.url}` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const port = (redirector.address() as { port: number }).port;
    try {
      const http = new GitRepository(join(root, 'redirected.git'), { protocols: ['http'] });
      const error = (await http.sync(`http://127.0.0.1:${port}/acme/widgets.git`).catch((e: unknown) => e)) as GitError;
      expect(error).toBeInstanceOf(GitError);
      expect(hits).toEqual([]);
    } finally {
      target.close();
      redirector.close();
    }
  });
});

describe('a commit over the checkout limits (a tree bomb)', () => {
  const limits = { maxFiles: 1000, maxBytes: 32 << 20 };
  const bomb = createGitRepo();
  afterAll(() => bomb.cleanup());
  /** Every file under `dir`, with its size; none when it does not exist. */
  const filesUnder = (dir: string) =>
    existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => !entry.isDirectory()).map((entry) => `${relative(dir, join(entry.parentPath, entry.name))} ${lstatSync(join(entry.parentPath, entry.name)).size}`) : [];
  /** A tree of `files` empty files, each subtree named at `fanout` paths `levels` times over: entries multiply, objects do not. */
  const nestedTree = (files: number, fanout: number, levels: number) => {
    const object = (args: string[], input: string) => execFileSync('git', ['-C', bomb.dir, ...args], { input, encoding: 'utf8' }).trim();
    let tree = object(['mktree'], Array.from({ length: files }, (_, i) => `100644 blob ${object(['hash-object', '-w', '--stdin'], '')}\tf${i}\n`).join(''));
    for (let level = 0; level < levels; level++) tree = object(['mktree'], Array.from({ length: fanout }, (_, i) => `040000 tree ${tree}\td${i}\n`).join(''));
    return bomb.git('commit-tree', tree, '-m', 'nested');
  };

  beforeAll(() => {
    bomb.write({ 'docs.json': '{ "name": "Bomb" }\n', 'index.mdx': '# Home\n' });
    bomb.commit('docs');
  });

  it('counts the entries of a commit and sums their sizes (symlinks by their target), all folders down', async () => {
    // main: docs.json, index.mdx, and leak.mdx, a link to /etc/passwd.
    expect(await mirror.treeSize(shas.main!, 100)).toEqual({ files: 3, bytes: '{ "name": "Widgets" }\n'.length + '# Main v2\n'.length + '/etc/passwd'.length });
    expect(await mirror.treeSize(shas.pr!, 100)).toEqual({ files: 4, bytes: expect.any(Number) });
    await expect(mirror.treeSize('main', 100)).rejects.toBeInstanceOf(GitError);
    await expect(mirror.treeSize('0'.repeat(40), 100)).rejects.toMatchObject({ message: 'git ls-tree failed' });
  });

  it('one zero-filled blob at five paths (a 40 MB checkout from a small mirror): refused before anything is written, saying its size', async () => {
    const commit = commitZeroBlob(bomb, 8 << 20, ['a.bin', 'b.bin', 'c/d.bin', 'e/f/g.bin', 'h.bin']);
    const dir = join(root, 'bomb-mirrors');
    const mirrors = new Mirrors(dir, { allowLocal: true, checkoutLimits: limits });
    await mirrors.sync('bomb', bomb.dir);
    const mirrored = filesUnder(join(dir, 'bomb.git')).reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
    expect(mirrored).toBeLessThan(1 << 20);
    const refused = await mirrors.checkout('bomb', commit).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CommitTooLarge);
    expect((refused as Error).message).toBe("The commit's files are 40.0 MB, more than the 32 MB a build may check out");
    expect(filesUnder(join(dir, 'bomb.trees'))).toEqual([]);
    // The commit before it checks out as ever, under the same limits.
    const tree = await mirrors.checkout('bomb', bomb.git('rev-parse', 'HEAD~1'));
    expect(readdirSync(tree.dir).sort()).toEqual(['docs.json', 'index.mdx']);
    await tree.release();
  });

  it('a tree naming one subtree at many paths: refused by its entries, read only up to one past the limit', async () => {
    const dir = join(root, 'nested-mirrors');
    const mirrors = new Mirrors(dir, { allowLocal: true, checkoutLimits: limits });
    const over = nestedTree(11, 10, 2); // 1,100 empty files
    const millions = nestedTree(10, 10, 6); // 10,000,000 entries, a few objects
    bomb.git('update-ref', 'refs/heads/over', over);
    bomb.git('update-ref', 'refs/heads/millions', millions);
    await mirrors.sync('nested', bomb.dir);
    for (const commit of [over, millions]) {
      await expect(mirrors.checkout('nested', commit)).rejects.toMatchObject({ name: 'CommitTooLarge', message: 'The commit has more than the 1000 files a build may check out' });
      expect(await new GitRepository(join(dir, 'nested.git')).treeSize(commit, 1000)).toEqual({ files: 1001, bytes: 0 });
    }
    expect(filesUnder(join(dir, 'nested.trees'))).toEqual([]);
    const exactly = nestedTree(10, 10, 2); // 1,000: at the limit, allowed
    bomb.git('update-ref', 'refs/heads/exactly', exactly);
    await mirrors.sync('nested', bomb.dir);
    const tree = await mirrors.checkout('nested', exactly);
    expect(readdirSync(join(tree.dir, 'd9', 'd9')).length).toBe(10);
    await tree.release();
  });

  it('the limits allow up to and including their values; entries are judged first', () => {
    expect(checkoutProblem({ files: 1000, bytes: 32 << 20 }, limits)).toBeUndefined();
    expect(checkoutProblem({ files: 1001, bytes: 0 }, limits)).toBe('The commit has more than the 1000 files a build may check out');
    expect(checkoutProblem({ files: 1001, bytes: 64 << 20 }, limits)).toBe('The commit has more than the 1000 files a build may check out');
    expect(checkoutProblem({ files: 1, bytes: (32 << 20) + 1 }, limits)).toBe("The commit's files are 32.0 MB, more than the 32 MB a build may check out");
    expect(checkoutProblem({ files: 1, bytes: 600 << 20 }, { maxFiles: 100_000, maxBytes: 512 << 20 })).toBe("The commit's files are 600.0 MB, more than the 512 MB a build may check out");
  });
});
