import { createHash, randomBytes } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import pLimit from 'p-limit';
import type { SiteData } from '../src/lib/types.ts';
import { privateDirectory } from './cache-folders.ts';

/**
 * What one build of a site keeps for the next (sites/README.md "The build cache"), in its folder (buildSite's
 * `pageCacheDir`, default `<cacheDir>/pages/`):
 *
 *   builder         the fingerprint of the renderer that made the entries (its code and pinned packages); another
 *                   one empties the folder, so an upgrade never serves a page the old renderer drew
 *   <key>.html      a rendered page (Content-Security-Policy in place), named by the hash of everything it is
 *                   rendered from: the fingerprint, the site-wide data every page shows (config, base, and each
 *                   page's route and titles: the sidebar and previous/next links list them), the page's own
 *                   data and its prepared MDX. An edit to one page's body changes one key; a change to docs.json or
 *                   to a title changes every key.
 *   _astro/         the assets pages load (content-hashed names, so a union is always right)
 *   search/<key>/   a part of the search index (search-parts.ts), named by the hash of its pages' files and keys:
 *                   a build whose pages of that part are all unchanged takes it as it is
 *
 * Entries (a search part: its folder) are written to a temporary name and renamed, so builds sharing the folder (two branches of one hosted
 * repository) never read half a file; an entry another build removed is a miss, rendered again. Entries unused
 * for {@link MAX_UNUSED_MS} are removed after a build.
 */

/** An entry no build used for this long is removed (a branch not built for a day starts cold). */
export const MAX_UNUSED_MS = 24 * 3600_000;
/**
 * A page entry a build uses is marked used (its time set to now) when it was last marked this long ago: a host
 * knows the files it stored by their times (server/docs-hosting/builds/built-files.ts), which marking every build
 * would change. Far below {@link MAX_UNUSED_MS}, so a used entry is never taken for an unused one.
 */
const TOUCH_AFTER_MS = 3600_000;

/** One HTML file of the built site and the key of what it was rendered from. */
export interface PageOutput {
  /** Relative to the output folder: `index.html`, `guide/setup/index.html`, `404.html`. */
  file: string;
  key: string;
  /** The page it renders; none for the default 404 page. */
  route?: string;
}

/** Where Astro writes a route (`build.format: 'directory'`); a 404.mdx page without a redirect is 404.html. */
export function pageFile(route: string, redirect?: string): string {
  if (route === '/') return 'index.html';
  if (route === '/404' && !redirect) return '404.html';
  return `${route.slice(1)}/index.html`;
}

/** A hash of `parts` in order (each ended by a NUL), hex. */
export const sha256 = (...parts: string[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
};

let fingerprintMemo: Promise<string> | undefined;

/**
 * The renderer's fingerprint: a hash of the files that render a page (the Astro project, the builder, checks,
 * config and content code, the packed CLI's bundle) and of the package's pinned dependencies. Computed once per
 * process (it is code, not site data).
 */
export function rendererFingerprint(sitesDir: string): Promise<string> {
  fingerprintMemo ??= (async () => {
    const hash = createHash('sha256');
    const files: string[] = ['package.json'];
    for (const folder of ['src', 'builder', 'check', 'config', 'content', 'dist']) {
      const names = await readdir(join(sitesDir, folder), { recursive: true, encoding: 'utf8' }).catch(() => []);
      files.push(...names.filter((name) => /\.(?:ts|js|astro|css|json)$/.test(name)).map((name) => join(folder, name)));
    }
    // Read together, hashed in order: one at a time took ~60 ms of every build's start.
    const names = files.sort();
    const contents = await Promise.all(names.map((file) => readFile(join(sitesDir, file)).catch(() => Buffer.alloc(0))));
    names.forEach((file, i) => hash.update(file).update('\0').update(contents[i]!));
    return hash.digest('hex');
  })();
  return fingerprintMemo;
}

/** Each HTML file a build writes with its key (see above). */
export function pageOutputs(fingerprint: string, data: SiteData, code: (file: string) => string | undefined): PageOutput[] {
  const shell = sha256(fingerprint, JSON.stringify({ ...data, pages: data.pages.map((p) => [p.route, p.title, p.navTitle, p.redirect, p.noindex]) }));
  const outputs: PageOutput[] = data.pages.map((page) => ({
    file: pageFile(page.route, page.redirect),
    key: sha256(shell, JSON.stringify(page), code(page.file) ?? ''),
    route: page.route,
  }));
  if (!data.pages.some((page) => page.route === '/404' && !page.redirect)) outputs.push({ file: '404.html', key: sha256(shell, '404') });
  return outputs;
}

/** Runs `task` over `items`, `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const limited = pLimit(limit);
  await Promise.all(items.map((item) => limited(() => task(item))));
}

export const IO_CONCURRENCY = 16;

/**
 * A regular file's stamp: device, inode, size, modification and change times (ns) as one string. Any write changes
 * a file's change time, which no one can set back: a file with the stamp it had is the file it was (the output
 * folder's record, output-folder.ts; a host's memory of the cache files it stored).
 */
export function fileStamp(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** A cached file into the output folder: a copy (a clone where the file system can), never over an existing file. */
async function placeFile(entry: string, target: string): Promise<void> {
  await copyFile(entry, target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
}

export class BuildCache {
  readonly #dir: string;
  readonly #usedSearchParts = new Set<string>();
  /** What went wrong keeping this build's results (the build itself is fine): buildSite reports it as progress. */
  readonly problems: string[] = [];
  #entries: Set<string>;

  private constructor(dir: string, entries: Set<string>) {
    this.#dir = dir;
    this.#entries = entries;
  }

  /**
   * Opens (or starts) the cache in `dir`; entries of another renderer are removed first. Throws when another user
   * owns `dir` (see {@link privateDirectory}): its pages are copied into sites as they are.
   */
  static async open(dir: string, fingerprint: string): Promise<BuildCache> {
    await privateDirectory(dir, 'the build renders every page');
    const stamp = join(dir, 'builder');
    if ((await readFile(stamp, 'utf8').catch(() => '')) !== fingerprint) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeAtomically(stamp, fingerprint);
    }
    const entries = new Set((await readdir(dir)).filter((name) => name.endsWith('.html')));
    return new BuildCache(dir, entries);
  }

  /** Where the record of the last build into `out` is kept (output-folder.ts). */
  outputRecord(out: string): string {
    return join(this.#dir, 'outputs', `${createHash('sha256').update(out).digest('hex').slice(0, 32)}.json`);
  }

  /** Where the pages as the last build read and prepared them are kept (prepared-pages.ts). */
  get preparedPagesFile(): string {
    return join(this.#dir, 'prepared-pages.bin');
  }

  /** Pages the cache holds. */
  get size(): number {
    return this.#entries.size;
  }

  has(output: PageOutput): boolean {
    return this.#entries.has(`${output.key}.html`);
  }

  /** Where the cache holds `output`'s page (read it only after {@link restore} found it there). */
  pageEntry(output: PageOutput): string {
    return join(this.#dir, `${output.key}.html`);
  }

  /**
   * Copies cached pages and assets into `out`; with `leave`, the pages stay where they are (the caller takes them
   * from {@link pageEntry}) and only the assets are copied; a page `has` says is in `out` already stays as it is.
   * Returns the outputs it could not take (removed meanwhile by another build's clean-up, or empty): the caller
   * renders those.
   */
  async restore(out: string, outputs: PageOutput[], options: { leave?: boolean; has?: (path: string) => boolean } = {}): Promise<PageOutput[]> {
    const missed: PageOutput[] = [];
    const now = new Date();
    await eachLimited(outputs, IO_CONCURRENCY, async (output) => {
      const entry = this.pageEntry(output);
      try {
        // An empty file is what a power cut can leave of one renamed into place before its data reached the disk.
        const info = await stat(entry);
        if (info.size === 0) throw new Error('empty cache entry');
        // Used: kept by clean-ups. Not touched more than once in a while: a host knows a file it stored by its times.
        if (info.mtimeMs < now.getTime() - TOUCH_AFTER_MS) await utimes(entry, now, now);
        if (options.leave || options.has?.(output.file)) return;
        await mkdir(dirname(join(out, output.file)), { recursive: true });
        await placeFile(entry, join(out, output.file));
      } catch {
        missed.push(output);
      }
    });
    const assets = await readdir(join(this.#dir, '_astro')).catch(() => [] as string[]);
    if (assets.length) await mkdir(join(out, '_astro'), { recursive: true });
    // Always copied: each Astro build writes its assets again, in place.
    await eachLimited(assets, IO_CONCURRENCY, (name) => placeFile(join(this.#dir, '_astro', name), join(out, '_astro', name)).catch(() => {}));
    return missed;
  }

  /**
   * The search part cached under `key`, copied into `target` (made here; unless `has` says every file of it is
   * there already), or with `leave` left where it is: its files (relative to the part's folder) and where the cache holds each.
   * Undefined when there is none, or it went meanwhile, or it is broken (`target` and the entry are then removed):
   * the caller indexes the part, and keeps it anew.
   */
  async restoreSearchPart(key: string, target: string, options: { leave?: boolean; has?: (path: string) => boolean } = {}): Promise<Map<string, string> | undefined> {
    const entry = join(this.#dir, 'search', key);
    try {
      // Every part has its entry file; an empty one is what a power cut can leave (see restore).
      if ((await stat(join(entry, 'pagefind-entry.json'))).size === 0) throw new Error('empty cache entry');
      const now = new Date();
      await utimes(entry, now, now);
      const files = await filesOf(entry);
      // All or nothing: two indexings of the same pages may number them differently, so files are never mixed.
      if (!options.leave && ![...files.keys()].every((path) => options.has?.(path))) {
        await rm(target, { recursive: true, force: true });
        await copyFiles(files, target);
      }
      this.#usedSearchParts.add(key);
      return files;
    } catch {
      // A broken entry goes too: a folder cannot be renamed over it, so this build's part could not replace it.
      await Promise.all([rm(target, { recursive: true, force: true }), rm(entry, { recursive: true, force: true })]);
      return undefined;
    }
  }

  /**
   * Keeps a search part this build wrote in `from` under `key` (best effort, as {@link save}). With `move`, the
   * folder itself becomes the entry (BuildOptions.leaveCached): returns its files then (relative to the part's
   * folder) and where the cache holds each; undefined when it was copied (or not kept), `from` as it was.
   */
  async saveSearchPart(key: string, from: string, options: { move?: boolean } = {}): Promise<Map<string, string> | undefined> {
    let moved: Map<string, string> | undefined;
    await this.#bestEffort(async () => {
      const entry = join(this.#dir, 'search', key);
      await mkdir(dirname(entry), { recursive: true });
      // Its files are listed first: once the folder is the cache's, nothing may fail before the build knows.
      const files = options.move ? await filesOf(from) : undefined;
      if (files && (await renameOrNot(from, entry))) moved = new Map([...files.keys()].map((path) => [path, join(entry, path)]));
      else {
        const temporary = `${entry}.${randomBytes(6).toString('hex')}.tmp`;
        await copyFiles(files ?? (await filesOf(from)), temporary);
        if (!(await renameOrNot(temporary, entry))) await rm(temporary, { recursive: true, force: true });
      }
      this.#usedSearchParts.add(key);
    });
    return moved;
  }

  /**
   * Keeps what this build rendered (`outputs`, written in `out`) and its assets. With `move`, the pages are moved
   * into the cache instead of copied (BuildOptions.leaveCached): returns those that were, now gone from `out`. Best
   * effort: a cache that cannot be written (disk full, the folder emptied by a build of a newer renderer) costs a
   * later build time, not this one its result.
   */
  async save(out: string, outputs: PageOutput[], options: { move?: boolean } = {}): Promise<Set<PageOutput>> {
    const moved = new Set<PageOutput>();
    await this.#bestEffort(() => this.#save(out, outputs, options.move ? moved : undefined));
    return moved;
  }

  async #save(out: string, outputs: PageOutput[], moved: Set<PageOutput> | undefined): Promise<void> {
    await eachLimited(outputs, IO_CONCURRENCY, async (output) => {
      // A rename is atomic, over an entry another build made of the same inputs too: readers see one or the other.
      if (moved && (await renameOrNot(join(out, output.file), this.pageEntry(output)))) moved.add(output);
      else await copyAtomically(join(out, output.file), this.pageEntry(output));
      this.#entries.add(`${output.key}.html`);
    });
    const assets = await readdir(join(out, '_astro')).catch(() => [] as string[]);
    const cached = new Set(await readdir(join(this.#dir, '_astro')).catch(() => [] as string[]));
    await mkdir(join(this.#dir, '_astro'), { recursive: true });
    await eachLimited(
      assets.filter((name) => !cached.has(name)),
      IO_CONCURRENCY,
      (name) => copyAtomically(join(out, '_astro', name), join(this.#dir, '_astro', name)),
    );
  }

  /**
   * Removes page entries and search parts no build used for
   * {@link MAX_UNUSED_MS} (and temporary files a build that died left).
   */
  async close(used: PageOutput[]): Promise<void> {
    await this.#bestEffort(() => this.#close(used));
  }

  async #bestEffort(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      this.problems.push(`The build cache (${this.#dir}) could not be updated: ${(error as Error).message}`);
    }
  }

  async #close(used: PageOutput[]): Promise<void> {
    const keep = new Set(used.map((output) => `${output.key}.html`));
    const stale = Date.now() - MAX_UNUSED_MS;
    const names = await readdir(this.#dir);
    const candidates = names.filter((name) => (name.endsWith('.html') && !keep.has(name)) || name.endsWith('.tmp'));
    const parts = await readdir(join(this.#dir, 'search')).catch(() => [] as string[]);
    candidates.push(...parts.filter((name) => !this.#usedSearchParts.has(name)).map((name) => join('search', name)));
    await eachLimited(candidates, IO_CONCURRENCY, async (name) => {
      const entry = join(this.#dir, name);
      const info = await stat(entry).catch(() => undefined);
      if (info && info.mtimeMs < stale) await rm(entry, { recursive: true, force: true });
    });
  }
}

/** A temporary name beside `path`, renamed over it: readers see the old file or the new one, never a part. */
export async function writeAtomically(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Renames `from` to `to` (a file replaces one there); false, `from` as it was, when `to` is a folder there already
 * (another build of the site kept the same search part first) or on another file system (the caller copies).
 */
async function renameOrNot(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if (['EEXIST', 'ENOTEMPTY', 'EXDEV'].includes((error as NodeJS.ErrnoException).code ?? '')) return false;
    throw error;
  }
}

/**
 * `files` (path in `to` -> where it is) into `to`, which must not hold them yet: a file at a time, not fs.cp's
 * recursive copy (a search part's 270 files: 0.12 s against 0.22 s).
 */
async function copyFiles(files: Map<string, string>, to: string): Promise<void> {
  for (const path of new Set([...files.keys()].map((path) => dirname(join(to, path))))) await mkdir(path, { recursive: true });
  await eachLimited([...files], IO_CONCURRENCY, ([path, from]) => placeFile(from, join(to, path)));
}

/** The files in `dir`, each by its path there -> its path. */
async function filesOf(dir: string): Promise<Map<string, string>> {
  const items = await readdir(dir, { recursive: true, withFileTypes: true });
  return new Map(items.filter((item) => !item.isDirectory()).map((item) => {
    const path = relative(dir, join(item.parentPath, item.name));
    return [path, join(dir, path)] as const;
  }));
}

async function copyAtomically(from: string, to: string): Promise<void> {
  const temporary = `${to}.${randomBytes(6).toString('hex')}.tmp`;
  await copyFile(from, temporary, constants.COPYFILE_FICLONE);
  await rename(temporary, to);
}
