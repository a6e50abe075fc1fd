import { mkdir, rm, stat } from 'node:fs/promises';
import { enableCompileCache, getCompileCacheDir } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
 * processes a folder of its own through NODE_COMPILE_CACHE instead (Node enables that one at start-up).
 */
export async function cacheCompiledModules(dir = MODULE_CACHE_DIR): Promise<void> {
  if (getCompileCacheDir()) return;
  try {
    await privateDirectory(dir, 'modules are compiled every time');
  } catch {
    return;
  }
  enableCompileCache(dir);
}
