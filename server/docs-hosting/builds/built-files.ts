import { createReadStream } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import pLimit from 'p-limit';
import { fileStamp } from '../../../sites/index.ts';
import type { BuildLimits } from './queue.ts';

/** A file of a built site: its path in the site, where it is on disk (or its content), and its size. */
export interface BuiltFile {
  path: string;
  file: string | Buffer;
  size: number;
  /**
   * A file of the repository's build cache: its device, inode, size and times as one string (fileStamp). Cache files are written once
   * (to a temporary name, renamed into place) and never in place, so a file with the stamp it had when its hash was
   * taken still has that hash.
   */
  stamp?: string;
}

export const megabytes = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`;

/** A path of the site, or in the build cache: relative, `/`-separated, no empty, `.` or `..` part, no `\` or NUL. */
const isRelativePath = (path: string) => !/[\\\0]/.test(path) && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

/** What a build may leave in the repository's build cache (sites/builder/build-cache.ts): a page, a search part's file. */
const CACHE_ENTRY = /^(?:[0-9a-f]{64}\.html|search\/[0-9a-f]{64}\/.+)$/;

/** lstat calls in flight while the cache files a build named are checked. */
const STAT_CONCURRENCY = 32;

/** A line's `[path, text]`, or nothing of it when it is not one. */
function parsedPair(line: string): unknown[] {
  try {
    const value: unknown = JSON.parse(line);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/**
 * The files of a build, from what its process left in `scratch` (worker.ts): the site's folder (`site/`), the pages'
 * Markdown (`markdown.ndjson`, a `[path, text]` line each: read a line at a time, so a large site's never blocks the
 * server's thread for long) and the files it left in the repository's build cache (`cached`, each
 * `{ path, from }` with `from` relative to `cacheDir`). The process's word is checked: every path is relative and
 * stays inside, every cached file is a page or search part file of the cache, never a link (to whatever), and no
 * path comes twice. Returns why the build fails instead when it breaks one of `limits` or that word.
 */
export async function builtFiles(
  scratch: string,
  cacheDir: string,
  cached: { path: string; from: string }[],
  limits: Pick<BuildLimits, 'maxFiles' | 'maxBytes' | 'maxFileBytes'>,
): Promise<BuiltFile[] | string> {
  const { maxFiles, maxBytes, maxFileBytes } = limits;
  const site = join(scratch, 'site');
  const entries = (await readdir(site, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const tooMany = (count: number) => `The built site has ${count} files, more than the ${maxFiles} a build may store`;
  const tooLarge = (bytes: number) => `The built site is ${megabytes(bytes)}, more than the ${megabytes(maxBytes)} a build may store`;
  if (entries.length + cached.length > maxFiles) return tooMany(entries.length + cached.length);
  const named = (path: unknown) => `The build named a file it did not make: ${JSON.stringify(path)}`;
  const files: BuiltFile[] = [];
  let markdownBytes = 0;
  for await (const line of createInterface({ input: createReadStream(join(scratch, 'markdown.ndjson')), crlfDelay: Infinity })) {
    if (!line) continue;
    const [path, text] = parsedPair(line);
    if (typeof path !== 'string' || typeof text !== 'string' || !isRelativePath(path) || !path.endsWith('.md')) return named(path ?? line.slice(0, 100));
    const content = Buffer.from(text);
    files.push({ path, file: content, size: content.length });
    if (entries.length + cached.length + files.length > maxFiles) return tooMany(entries.length + cached.length + files.length);
    if ((markdownBytes += content.length) > maxBytes) return tooLarge(markdownBytes);
  }
  for (const entry of entries) {
    const file = join(entry.parentPath, entry.name);
    files.push({ path: file.slice(site.length + 1).split('\\').join('/'), file, size: (await lstat(file)).size });
  }
  // A folder of the cache is one when its real path is where it should be (not a link to a folder elsewhere).
  const realCache = await realpath(cacheDir);
  const folders = new Map<string, Promise<boolean>>();
  const isCacheFolder = (folder: string) => {
    if (!folders.has(folder)) folders.set(folder, realpath(join(cacheDir, folder)).then((real) => real === join(realCache, folder), () => false));
    return folders.get(folder)!;
  };
  for (const { path, from } of cached) {
    if (typeof path !== 'string' || typeof from !== 'string' || !isRelativePath(path) || !isRelativePath(from) || !CACHE_ENTRY.test(from)) return named(from);
    if (!(await isCacheFolder(dirname(from)))) return named(from);
  }
  // lstat: a link is not a file of the cache, whatever it points to. A file that went meanwhile (a server upgrade
  // emptied the cache) throws: not the build's fault, it is built again. Many at once: one after another, the ~2,000
  // of a 1,000-page site took ~0.15 s of waiting.
  const stat = pLimit(STAT_CONCURRENCY);
  const infos = await Promise.all(cached.map(({ from }) => stat(() => lstat(join(cacheDir, from), { bigint: true }))));
  for (const [i, { path, from }] of cached.entries()) {
    const info = infos[i]!;
    if (!info.isFile()) return named(from);
    files.push({ path, file: join(cacheDir, from), size: Number(info.size), stamp: fileStamp(info) });
  }
  let total = 0;
  const paths = new Set<string>();
  for (const { path, size } of files) {
    if (paths.size === paths.add(path).size) return `The build made ${JSON.stringify(path)} twice`;
    if (size > maxFileBytes) return `${path} is ${megabytes(size)}, more than the ${megabytes(maxFileBytes)} a built file may have`;
    total += size;
  }
  if (total > maxBytes) return tooLarge(total);
  // The redirects map lives in the manifest; it is not a page of the site.
  return files.filter((file) => file.path !== '_redirects.json');
}
