import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { enableCompileCache, getCompileCacheDir } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * Makes `dir` (mode 0700) or checks that it is this user's alone. Caches whose files go into sites as they are
 * (pages, social images) live by default under the shared temp folder at predictable paths, where another user
 * could plant files. One of ours that others may write to (made by an earlier version under a umask of 002) is
 * emptied and made private; one another user owns throws, saying what happens instead.
 */
export async function privateDirectory(dir: string, otherwise: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new Error(`The cache folder ${dir} belongs to another user, so it is not used (${otherwise})`);
  }
  if ((info.mode & 0o022) !== 0) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
}

/** Where `docs` keeps the compiled code of the modules it loads, beside the build caches. */
export const MODULE_CACHE_DIR = join(tmpdir(), 'docs-sites-cache', 'modules');

/**
 * Has Node keep the compiled code of the modules this process loads from now on (Astro, Vite, the builder: ~0.7 s
 * of every process that builds) in `dir`, which must be the user's alone: V8 runs a code cache as it finds it. A
 * process that cannot (another user's folder) compiles them as before. The hosting server gives its build
 * processes a folder of its own through NODE_COMPILE_CACHE instead (Node enables that one at start-up); either way
 * the folder in use is then pruned.
 */
export async function cacheCompiledModules(dir = MODULE_CACHE_DIR): Promise<void> {
  if (!getCompileCacheDir()) {
    try {
      await privateDirectory(dir, 'modules are compiled every time');
    } catch {
      return;
    }
    enableCompileCache(dir);
  }
  // Node's folder for this Node version inside the one given: only what Node writes is pruned.
  const inUse = getCompileCacheDir();
  if (inUse) await pruneCompiledModules(inUse);
}

/** How old an entry of the code cache may get; how often a folder is pruned. */
const ENTRY_MAX_AGE_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * Every build imports its own prerender bundle (new files, content-hashed, in a folder of that build), and Node
 * caches those too and never removes anything: entries written more than a day ago are removed, at most once an
 * hour (`.pruned` records when). Astro's are written again by the next process that loads it (~0.7 s, once a day).
 * `dir` is the folder Node reports (`getCompileCacheDir()`: one per Node version, files only, inside the folder
 * given). The folders of other Node versions beside it (left by an upgrade of Node) go whole once none was pruned,
 * so none was used, for a day.
 */
async function pruneCompiledModules(dir: string): Promise<void> {
  const now = Date.now();
  const stamp = join(dir, '.pruned');
  if (now - ((await stat(stamp).catch(() => undefined))?.mtimeMs ?? 0) < PRUNE_EVERY_MS) return;
  await writeFile(stamp, '').catch(() => {});
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || entry.name === '.pruned') continue;
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > ENTRY_MAX_AGE_MS) await rm(path, { force: true });
  }
  const versions = await readdir(dirname(dir), { withFileTypes: true }).catch(() => []);
  for (const version of versions) {
    if (!version.isDirectory() || version.name === basename(dir)) continue;
    const path = join(version.parentPath, version.name);
    // Its stamp when one of our processes pruned it, else the folder's own time (an entry added or removed).
    const used = (await stat(join(path, '.pruned')).catch(() => stat(path)).catch(() => undefined))?.mtimeMs;
    if (used !== undefined && now - used > ENTRY_MAX_AGE_MS) await rm(path, { recursive: true, force: true });
  }
}
