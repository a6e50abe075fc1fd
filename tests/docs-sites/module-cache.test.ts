/**
 * Node's code cache of the modules a build loads (sites/builder/cache-folders.ts: cacheCompiledModules), as the
 * `docs` CLI and each Astro build process enable it: in a folder of the user's own only, since V8 runs a code cache
 * as it finds it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CACHE_FOLDERS = pathToFileURL(join(import.meta.dirname, '../../sites/builder/cache-folders.ts')).href;
const work = mkdtempSync(join(tmpdir(), 'module-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A process that enables the cache in `dir`, then loads a module: the folder it caches in, if any. */
function cacheIn(dir: string): string {
  const script = `import { getCompileCacheDir } from 'node:module';
const { cacheCompiledModules } = await import(${JSON.stringify(CACHE_FOLDERS)});
await cacheCompiledModules(${JSON.stringify(dir)});
await import('yaml');
console.log(getCompileCacheDir() ?? 'none');`;
  const env = { ...process.env };
  delete env.NODE_COMPILE_CACHE; // the test run's own
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', cwd: join(import.meta.dirname, '../..') });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('the compiled-module cache', () => {
  it('a new folder is made private and holds what the process compiled', () => {
    const dir = join(work, 'fresh');
    expect(cacheIn(dir)).toContain(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(1);
  });

  it('a folder others may write to is emptied and made private before use', () => {
    const dir = join(work, 'shared');
    mkdirSync(dir);
    writeFileSync(join(dir, 'planted'), 'x');
    chmodSync(dir, 0o777);
    expect(cacheIn(dir)).toContain(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).not.toContain('planted');
  });

  it('entries written more than a day ago are removed (past builds\' prerender bundles), at most once an hour', () => {
    const dir = join(work, 'old');
    const inUse = cacheIn(dir); // Node's folder for this Node version, inside `dir`
    expect(inUse.startsWith(`${dir}/`)).toBe(true);
    const dayAndMore = new Date(Date.now() - 25 * 3600_000);
    const plant = () => {
      for (const name of ['stale', 'fresh']) writeFileSync(join(inUse, name), 'x');
      utimesSync(join(inUse, 'stale'), dayAndMore, dayAndMore);
    };
    plant();
    cacheIn(dir); // pruned moments ago: left alone
    expect(readdirSync(inUse)).toEqual(expect.arrayContaining(['stale', 'fresh']));
    const hourAgo = new Date(Date.now() - 61 * 60_000);
    utimesSync(join(inUse, '.pruned'), hourAgo, hourAgo);
    cacheIn(dir);
    expect(readdirSync(inUse)).not.toContain('stale');
    expect(readdirSync(inUse)).toContain('fresh');
  });

  it('the folder of another Node version (left by an upgrade) goes once it was not used for a day', () => {
    const dir = join(work, 'upgraded');
    const inUse = cacheIn(dir);
    const old = join(dir, 'v20.0.0-x64-00000000-0');
    const recent = join(dir, 'v22.0.0-x64-00000000-0');
    for (const folder of [old, recent]) {
      mkdirSync(folder);
      writeFileSync(join(folder, 'entry'), 'x');
      writeFileSync(join(folder, '.pruned'), '');
    }
    const dayAndMore = new Date(Date.now() - 25 * 3600_000);
    utimesSync(join(old, '.pruned'), dayAndMore, dayAndMore);
    utimesSync(join(recent, 'entry'), dayAndMore, dayAndMore); // an old entry, but the folder was pruned just now
    const hourAgo = new Date(Date.now() - 61 * 60_000);
    utimesSync(join(inUse, '.pruned'), hourAgo, hourAgo);
    cacheIn(dir);
    expect(readdirSync(dir).sort()).toEqual([inUse.slice(dir.length + 1), 'v22.0.0-x64-00000000-0'].sort());
    expect(readdirSync(recent)).toEqual(expect.arrayContaining(['entry']));
  });

  // Giving a folder to another user takes root (as CI runs).
  it.runIf(process.getuid?.() === 0)('a folder another user owns is not used: modules are compiled as before', () => {
    const dir = join(work, 'foreign');
    mkdirSync(dir, { mode: 0o755 });
    chownSync(dir, 65534, 65534);
    expect(cacheIn(dir)).toBe('none');
    expect(readdirSync(dir)).toEqual([]);
  });
});
