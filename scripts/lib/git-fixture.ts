/** A throwaway git repository to publish from: the docs-hosting tests and the hosting bench (scripts/bench/hosting.ts) use it. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The repository: files written, committed, branches, tags and pull-request refs made. */
export interface GitFixture {
  dir: string;
  git(...args: string[]): string;
  /** Writes files (path -> text) into the working tree. */
  write(files: Record<string, string>): void;
  remove(...paths: string[]): void;
  /** Commits everything; answers the commit SHA. */
  commit(message: string): string;
  cleanup(): void;
}

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'A',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'A',
  GIT_COMMITTER_EMAIL: 'a@example.com',
};

export function createGitRepo(branch = 'main'): GitFixture {
  const root = mkdtempSync(join(tmpdir(), 'git-fixture-'));
  const dir = join(root, 'repo');
  mkdirSync(dir);
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: ENV, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', branch);
  return {
    dir,
    git,
    write(files) {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
    },
    remove(...paths) {
      for (const path of paths) rmSync(join(dir, path), { force: true });
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
