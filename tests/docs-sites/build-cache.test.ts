/**
 * The build cache (sites/builder/build-cache.ts): a later build of a site renders only the pages whose inputs
 * changed and writes the same site a cold build would; everything else of it (an upgrade of the renderer, entries
 * gone or emptied, `cache: false`, clean-up, link checks in a cached build) keeps builds right.
 */
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildOptions } from '../../sites/builder/index.ts';
import { MAX_UNUSED_MS } from '../../sites/builder/build-cache.ts';
import { htmlPath, searchText, siteFiles } from '../helpers/docs.ts';

const PAGES: Record<string, string> = {
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome. See [the guide](/guide#install).\n',
  'guide.mdx': '---\ntitle: Guide\ndescription: How to start\n---\n\n## Install\n\nRun the installer.\n',
  'reference.mdx': '---\ntitle: Reference\n---\n\n## Options\n\nEvery option.\n',
  'faq.mdx': '---\ntitle: FAQ\n---\n\nQuestions and answers.\n',
};
const CONFIG = { name: 'Cache Test', sidebar: [{ group: 'Docs', pages: [{ title: 'Home', href: '/' }, { title: 'Guide', href: '/guide' }, { title: 'Reference', href: '/reference' }, { title: 'FAQ', href: '/faq' }] }] };
/** Every page and 404.html. */
const OUTPUTS = Object.keys(PAGES).length + 1;

let work: string;
let source: string;
let cacheDir: string;
let run = 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'build-cache-'));
  source = join(work, 'docs');
  cacheDir = join(work, 'cache');
  mkdirSync(source);
  write('docs.json', JSON.stringify(CONFIG));
  for (const [file, text] of Object.entries(PAGES)) write(file, text);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function write(file: string, text: string) {
  writeFileSync(join(source, file), text);
}

async function build(options: Partial<BuildOptions> = {}) {
  const out = join(work, `out-${++run}`);
  const result = await buildSite({ source, out, cacheDir, drawSocialImages: false, ...options });
  return { out, result };
}

const html = (out: string, route: string) => readFileSync(join(out, htmlPath(route)), 'utf8');
const entries = (dir = cacheDir) => readdirSync(join(dir, 'pages')).filter((name) => name.endsWith('.html'));

describe('the build cache', () => {
  let first: Awaited<ReturnType<typeof build>>;

  it('a second build of an unchanged site renders nothing and writes the same files', async () => {
    first = await build();
    expect([first.result.rendered, first.result.cached]).toEqual([OUTPUTS, 0]);
    expect(entries()).toHaveLength(OUTPUTS);
    const second = await build();
    expect([second.result.rendered, second.result.cached]).toEqual([0, OUTPUTS]);
    expect(siteFiles(second.out, { search: true })).toEqual(siteFiles(first.out, { search: true }));
    expect(searchText(second.out)).toContain('Run the installer');
  }, 120_000);

  it('an edit to a page body renders that page (and 404.html): the rest is the previous build, the search index has the edit', async () => {
    write('guide.mdx', PAGES['guide.mdx']!.replace('Run the installer.', 'Run the zebra installer.'));
    const edited = await build();
    expect([edited.result.rendered, edited.result.cached]).toEqual([2, OUTPUTS - 2]);
    expect(html(edited.out, '/guide')).toContain('zebra');
    for (const route of ['/', '/reference', '/faq']) expect(html(edited.out, route)).toBe(html(first.out, route));
    expect(searchText(edited.out)).toContain('zebra installer');
    expect(searchText(edited.out)).not.toContain('Run the installer');
    // A description is shown on its own page only.
    write('guide.mdx', PAGES['guide.mdx']!.replace('How to start', 'How to begin'));
    expect((await build()).result.rendered).toBe(2);
  }, 120_000);

  it('a title, which other pages may list, and docs.json render every page again', async () => {
    write('faq.mdx', PAGES['faq.mdx']!.replace('title: FAQ', 'title: Questions'));
    const retitled = await build();
    expect(retitled.result.rendered).toBe(OUTPUTS);
    expect(html(retitled.out, '/faq')).toContain('<title>Questions');
    const sidebar = CONFIG.sidebar[0]!.pages.map((p) => (p.href === '/faq' ? { ...p, title: 'Answers' } : p));
    write('docs.json', JSON.stringify({ ...CONFIG, sidebar: [{ group: 'Docs', pages: sidebar }], theme: { primary: '#7c3aed' } }));
    const configured = await build();
    expect(configured.result.rendered).toBe(OUTPUTS);
    expect(html(configured.out, '/reference')).toContain('Answers');
    expect(html(configured.out, '/')).toContain('#7c3aed');
  }, 120_000);

  it('the link checks of a build that takes the other pages from the cache see the changed page', async () => {
    write('guide.mdx', '---\ntitle: Guide\n---\n\n## Setup\n\nRun the installer.\n');
    const { result } = await build();
    expect(result.problems.map((p) => p.message)).toContainEqual(expect.stringContaining('no heading `#install`'));
    write('guide.mdx', PAGES['guide.mdx']!);
    expect((await build()).result.problems.filter((p) => p.message.includes('#install'))).toEqual([]);
  }, 120_000);

  it('an entry removed or emptied since is rendered again', async () => {
    const before = await build();
    expect(before.result.rendered).toBe(0);
    // The entries the last build used for two of its pages (older builds' entries are there too).
    const entry = (route: string) => entries().find((name) => readFileSync(join(cacheDir, 'pages', name), 'utf8') === html(before.out, route))!;
    rmSync(join(cacheDir, 'pages', entry('/')));
    truncateSync(join(cacheDir, 'pages', entry('/faq')), 0);
    const after = await build();
    expect(after.result.rendered).toBe(3); // the two pages, and 404.html (Astro writes it whenever it runs)
    expect(siteFiles(after.out)).toEqual(siteFiles(before.out));
    expect(searchText(after.out).split('\n').sort()).toEqual(searchText(before.out).split('\n').sort());
  }, 120_000);

  it('cache: false renders every page and leaves the cache as it was', async () => {
    const before = new Map(entries().map((name) => [name, statSync(join(cacheDir, 'pages', name)).mtimeMs]));
    write('reference.mdx', PAGES['reference.mdx']!.replace('Every option.', 'Every option, uncached.'));
    const uncached = await build({ cache: false });
    expect([uncached.result.rendered, uncached.result.cached]).toEqual([OUTPUTS, 0]);
    expect(html(uncached.out, '/reference')).toContain('uncached');
    expect(new Map(entries().map((name) => [name, statSync(join(cacheDir, 'pages', name)).mtimeMs]))).toEqual(before);
  }, 120_000);
  it('leaveCached: the pages and search parts are files of the cache (those it had, and those the build made, moved there), each named; with them the output is the site a build copies', async () => {
    const dir = join(work, 'cache-left');
    const pages = join(dir, 'pages');
    write('guide.mdx', PAGES['guide.mdx']!);
    const first = await build({ cacheDir: dir, searchParts: 2, leaveCached: true, pageMarkdownFiles: false });
    // Its pages and search index are the cache's now, for the first build too: it names them.
    expect(readdirSync(first.out, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(first.out, name)).isFile() && (name.endsWith('.html') || name.startsWith('pagefind/')))).toEqual([]);
    expect(first.result.cachedFiles.filter(({ path }) => path.endsWith('.html'))).toHaveLength(OUTPUTS);
    const entryBytes = () => new Map(entries(dir).map((name) => [name, readFileSync(join(pages, name), 'utf8')]));
    const before = entryBytes();
    write('guide.mdx', PAGES['guide.mdx']!.replace('Run the installer.', 'Run the left installer.'));
    const left = await build({ cacheDir: dir, searchParts: 2, leaveCached: true, pageMarkdownFiles: false });
    const copied = await build({ searchParts: 2 });
    expect([left.result.rendered, left.result.cached]).toEqual([2, OUTPUTS - 2]);
    expect(left.result.searchParts).toEqual({ indexed: 1, cached: 1 });
    const named = new Map(left.result.cachedFiles.map(({ path, from }) => [path, from]));
    // Every page (the two rendered: the guide and 404.html) and both parts' files, each a file of the cache.
    expect([...named.keys()].filter((path) => path.endsWith('.html')).sort()).toEqual([...['/', '/guide', '/reference', '/faq'].map(htmlPath), '404.html'].sort());
    expect(new Set([...named.keys()].filter((path) => path.startsWith('pagefind/')).map((path) => path.split('/').slice(0, 3).join('/')))).toEqual(new Set(['pagefind/en/0', 'pagefind/en/1']));
    for (const [path, from] of named) {
      expect(from.startsWith(pages), from).toBe(true);
      expect(statSync(join(left.out, path), { throwIfNoEntry: false }), path).toBeUndefined();
    }
    expect(named.get('guide/index.html')).toBe(join(pages, entries(dir).find((name) => !before.has(name) && readFileSync(join(pages, name), 'utf8').includes('Run the left installer.'))!));
    // The pages' Markdown is in the result, not in the output folder.
    expect(readdirSync(left.out, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md'))).toEqual([]);
    expect(left.result.pageMarkdown?.get('guide.md')).toContain('Run the left installer.');
    // Together they are the site the copying build wrote, file for file; the search index (whose file names and
    // bytes follow the order pages reach it: see siteFiles()) by what it finds.
    const together = siteFiles(left.out);
    for (const [path, from] of named) if (!path.startsWith('pagefind/')) together.set(path, createHash('sha256').update(readFileSync(from)).digest('hex'));
    for (const [path, text] of left.result.pageMarkdown!) together.set(path, createHash('sha256').update(text).digest('hex'));
    expect(new Map([...together].sort())).toEqual(siteFiles(copied.out));
    const fragments = [...named].filter(([path]) => path.endsWith('.pf_fragment')).map(([, from]) => gunzipSync(readFileSync(from)).toString('utf8'));
    expect(fragments.join('\n').split('\n').sort()).toEqual(searchText(copied.out).split('\n').sort());
    // The entries of before are as they were (one was added for the edited page).
    const after = entryBytes();
    for (const [name, text] of before) expect(after.get(name), name).toBe(text);
  }, 120_000);

  it('entries no build used for a day are removed; recent ones stay', async () => {
    const dir = join(work, 'cache-clean-up');
    const entry = (text: string) => entries(dir).find((name) => readFileSync(join(dir, 'pages', name), 'utf8').includes(text));
    write('reference.mdx', PAGES['reference.mdx']!.replace('Every option.', 'Option A.'));
    await build({ cacheDir: dir });
    write('reference.mdx', PAGES['reference.mdx']!.replace('Every option.', 'Option B.'));
    await build({ cacheDir: dir });
    const [a, b] = [entry('Option A.'), entry('Option B.')];
    expect(a && b).toBeTruthy(); // A unused by the last build, but recent: kept
    const old = new Date(Date.now() - MAX_UNUSED_MS - 60_000);
    utimesSync(join(dir, 'pages', a!), old, old);
    write('reference.mdx', PAGES['reference.mdx']!.replace('Every option.', 'Option C.'));
    await build({ cacheDir: dir });
    expect([entry('Option A.'), entry('Option B.'), entry('Option C.')]).toEqual([undefined, b, expect.any(String)]);
    expect(entries(dir)).toHaveLength(OUTPUTS + 1);
    write('reference.mdx', PAGES['reference.mdx']!);
  }, 120_000);

  it('a build marks the entries it uses as used at most once an hour: an entry\'s times otherwise stay as they were', async () => {
    const dir = join(work, 'cache-marks');
    await build({ cacheDir: dir });
    const [stale, recent] = entries(dir).map((name) => join(dir, 'pages', name));
    const now = Date.now();
    utimesSync(stale!, new Date(now - 2 * 3600_000), new Date(now - 2 * 3600_000));
    utimesSync(recent!, new Date(now - 60_000), new Date(now - 60_000));
    const times = statSync(recent!);
    const again = await build({ cacheDir: dir });
    expect(again.result.cached).toBe(OUTPUTS);
    expect(statSync(stale!).mtimeMs).toBeGreaterThan(now - 60_000); // marked now: clean-ups keep it
    // Untouched (a host knows the files it stored by these: server/docs-hosting/builds/built-files.ts).
    expect([statSync(recent!).mtimeMs, statSync(recent!).ctimeMs]).toEqual([times.mtimeMs, times.ctimeMs]);
  }, 120_000);

  it('a site rendered in several Astro builds (a batch of pages each) is the same site', async () => {
    const whole = await build({ cache: false });
    const batched = await build({ cache: false, renderBatch: 2 });
    expect(batched.result.rendered).toBe(OUTPUTS);
    expect(siteFiles(batched.out)).toEqual(siteFiles(whole.out));
  }, 120_000);

  it('a cache folder others may write to is emptied and made private; one another user owns is not used, and the build says so', async () => {
    const messages: string[] = [];
    const onProgress = (event: { phase: string; message?: string }) => event.phase === 'cache' && messages.push(event.message!);
    const cases: [string, (dir: string) => void, RegExp | undefined][] = [['shared', (dir) => chmodSync(dir, 0o777), undefined]];
    // Giving a folder to another user takes root (as CI runs).
    if (process.getuid?.() === 0) cases.push(['foreign', (dir) => chownSync(dir, 65534, 65534), /belongs to another user, so it is not used \(the build renders every page\)/]);
    for (const [name, spoil, message] of cases) {
      const dir = join(work, `cache-${name}`);
      await build({ cacheDir: dir });
      spoil(join(dir, 'pages'));
      const planted = entries(dir)[0]!;
      writeFileSync(join(dir, 'pages', planted), '<p>planted</p>');
      messages.length = 0;
      const { out, result } = await build({ cacheDir: dir, onProgress });
      expect(result.rendered, name).toBe(OUTPUTS);
      for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((entry) => entry.endsWith('.html'))) {
        expect(readFileSync(join(out, file), 'utf8'), file).not.toContain('planted');
      }
      if (message) expect(messages.at(-1)).toMatch(message);
      else expect([messages, statSync(join(dir, 'pages')).mode & 0o777]).toEqual([[], 0o700]);
    }
  }, 120_000);

  it('entries of another renderer are removed before a build', async () => {
    writeFileSync(join(cacheDir, 'pages', 'builder'), 'another renderer');
    const { result } = await build();
    expect(result.rendered).toBe(OUTPUTS);
    expect(entries()).toHaveLength(OUTPUTS);
  }, 120_000);
});

describe('the search index in parts (search-parts.ts), kept by the build cache', () => {
  const options = () => ({ cacheDir: join(work, 'cache-search'), searchParts: 3 });
  const parts = () => readdirSync(join(work, 'cache-search', 'pages', 'search'));
  /** The pages each part of the index holds (by its fragments' URLs), by part folder. */
  function partPages(out: string): Record<string, string[]> {
    const pages: Record<string, string[]> = {};
    for (const name of readdirSync(join(out, 'pagefind'), { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.pf_fragment'))) {
      const folder = name.split('/fragment/')[0]!;
      // A fragment is Pagefind's signature, then the page as JSON.
      const fragment = gunzipSync(readFileSync(join(out, 'pagefind', name))).toString('utf8').replace(/^pagefind_dcd/, '');
      (pages[folder] ??= []).push((JSON.parse(fragment) as { url: string }).url);
    }
    for (const urls of Object.values(pages)) urls.sort();
    return pages;
  }

  it('a one-page edit indexes its part again and takes the others from the cache; search has the edit, never the old text', async () => {
    write('guide.mdx', PAGES['guide.mdx']!);
    const cold = await build(options());
    expect(cold.result.searchParts).toEqual({ indexed: 3, cached: 0 });
    // Every indexed page is in one part: the folder of the site's language, `en/0` to `en/2`.
    const before = partPages(cold.out);
    expect(Object.keys(before).every((folder) => /^en\/[0-2]$/.test(folder))).toBe(true);
    expect(Object.values(before).flat().sort()).toEqual(['/', '/faq/', '/guide/', '/reference/']);
    const warm = await build(options());
    expect(warm.result.searchParts).toEqual({ indexed: 0, cached: 3 });
    expect(siteFiles(warm.out, { search: true })).toEqual(siteFiles(cold.out, { search: true }));

    write('guide.mdx', PAGES['guide.mdx']!.replace('Run the installer.', 'Run the parted installer.'));
    const edited = await build(options());
    expect(edited.result.searchParts).toEqual({ indexed: 1, cached: 2 });
    expect(partPages(edited.out)).toEqual(before);
    expect(searchText(edited.out)).toContain('Run the parted installer');
    expect(searchText(edited.out)).not.toContain('Run the installer');
    // Back to the first text: that part is the cache's again.
    write('guide.mdx', PAGES['guide.mdx']!);
    const back = await build(options());
    expect(back.result.searchParts).toEqual({ indexed: 0, cached: 3 });
    expect(searchText(back.out)).not.toContain('parted');
  }, 120_000);

  it('a part removed or emptied in the cache is indexed again and kept anew; parts no build used for a day are removed', async () => {
    const search = join(work, 'cache-search', 'pages', 'search');
    // Four entries: the three parts of the site as it is, and the edited page's part, which no build uses now.
    const [gone, ...emptied] = parts();
    expect(emptied).toHaveLength(3);
    rmSync(join(search, gone!), { recursive: true });
    for (const name of emptied) truncateSync(join(search, name, 'pagefind-entry.json'), 0);
    const damaged = await build(options());
    expect(damaged.result.searchParts).toEqual({ indexed: 3, cached: 0 });
    expect(searchText(damaged.out)).toContain('Run the installer');
    const again = await build(options());
    expect(again.result.searchParts).toEqual({ indexed: 0, cached: 3 });
    expect(siteFiles(again.out, { search: true })).toEqual(siteFiles(damaged.out, { search: true }));
    const old = new Date(Date.now() - MAX_UNUSED_MS - 60_000);
    for (const name of parts()) utimesSync(join(search, name), old, old);
    const after = await build(options());
    expect(after.result.searchParts).toEqual({ indexed: 0, cached: 3 });
    expect(parts()).toHaveLength(3); // only the build's three: used, so kept
  }, 120_000);
});
