import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_FILES, MINT_JSON } from '../config/load.ts';

/** Folders never searched for pages or assets (dot folders are skipped too). */
export const SKIPPED_DIRS = new Set(['node_modules']);

/** The folder a docs.page repository keeps its pages (and the files they use) in. */
export const PAGES_FOLDER = 'docs';

/**
 * - `plain`: the folder is the site: the configuration file and the pages are in it (`quickstart.mdx` -> `/quickstart`).
 * - `docs-page`: docs.page's layout: the configuration file at the folder, pages and assets under its `docs/`
 *   folder (`docs/quickstart.mdx` -> `/quickstart`, `docs/assets/a.png` -> `/assets/a.png`).
 * - `docs-folder`: a repository whose site is its `docs/` folder (a Mintlify monorepo: `docs/docs.json` beside
 *   `docs/quickstart.mdx`): no configuration file at the folder, one in `docs/`; everything is read from there.
 */
export type LayoutKind = 'plain' | 'docs-page' | 'docs-folder';

export interface SiteLayout {
  kind: LayoutKind;
  /** Where the configuration file is read from (absolute): the folder given, or its `docs/` folder (`docs-folder`). */
  dir: string;
  /**
   * The absolute folder pages and assets are read from (`dir`, or `dir/docs`). Routes, asset URLs and the paths
   * the configuration and frontmatter name (`logo`, `favicon`, `image`...) are relative to it.
   */
  root: string;
  /** `root` relative to `dir` with a trailing slash: `''` or `'docs/'`. */
  prefix: string;
  /** A file relative to `root` as named from the folder given (problems): `quickstart.mdx` -> `docs/quickstart.mdx`. */
  display(file: string): string;
  /** Absolute paths of the configuration files that may exist (`dir/docs.json`, `dir/docs.yaml`, `dir/docs.yml`, `dir/mint.json`). */
  configFiles: string[];
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

const isPage = (name: string) => name.toLowerCase().endsWith('.mdx');

/** Whether a folder holds an `.mdx` page, at any depth (dot folders and node_modules left out). */
function holdsPages(folder: string): boolean {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return false;
  }
  if (entries.some((entry) => entry.isFile() && !entry.name.startsWith('.') && isPage(entry.name))) return true;
  return entries.some((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name) && holdsPages(join(folder, entry.name)));
}

/** Whether the folder itself (not a subfolder) has a page. */
function hasTopLevelPage(folder: string): boolean {
  try {
    return readdirSync(folder, { withFileTypes: true }).some((entry) => entry.isFile() && !entry.name.startsWith('.') && isPage(entry.name));
  } catch {
    return false;
  }
}

/**
 * Where a site's pages are: the one rule for reading, checking, building (assets included), hosting and the dev
 * server's watcher. A folder is a docs.page repository when it has a configuration file (`docs.json`,
 * `docs.yaml`), no page of its own at its top level, and a `docs/` folder holding pages: pages and assets are then
 * read from `docs/`, as docs.page does. A folder with no configuration file and no page of its own whose `docs/`
 * folder has both is that folder's site (`docs-folder`). Any other folder is the site itself.
 */
export function siteLayout(dir: string): SiteLayout {
  const absolute = resolve(dir);
  const configFiles = [...CONFIG_FILES, MINT_JSON].map((name) => join(absolute, name));
  const pagesFolder = join(absolute, PAGES_FOLDER);
  const prefix = `${PAGES_FOLDER}/`;
  const display = (file: string) => `${prefix}${file}`;
  if (!configFiles.some(isFile)) {
    const nested = [...CONFIG_FILES, MINT_JSON].map((name) => join(pagesFolder, name));
    if (!hasTopLevelPage(absolute) && nested.some(isFile) && holdsPages(pagesFolder)) {
      return { kind: 'docs-folder', dir: pagesFolder, root: pagesFolder, prefix, display, configFiles: nested };
    }
  }
  const docsPage = configFiles.some(isFile) && !hasTopLevelPage(absolute) && holdsPages(pagesFolder);
  if (!docsPage) return { kind: 'plain', dir: absolute, root: absolute, prefix: '', display: (file) => file, configFiles };
  return { kind: 'docs-page', dir: absolute, root: pagesFolder, prefix, display, configFiles };
}
