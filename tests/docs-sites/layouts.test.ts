/**
 * Repository layouts (sites/content/layout.ts, docs/docs-sites.md "A site is a folder"): a folder is the site, or,
 * in docs.page's layout (docs.json at the root, no page of its own, pages in docs/), the pages and the files they
 * use are read from docs/ at the URLs docs.page gives them; a repository with no configuration file whose docs/
 * folder has one is that folder's site. One rule for reading, checking, building, hosting and
 * the dev server; and a site with no home page says so instead of building quietly.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHostedSite } from '../../sites/builder/hosted-build.ts';
import { BuildError, buildSite, prepareSite } from '../../sites/builder/index.ts';
import { formatProblem, sortProblems } from '../../sites/config/problems.ts';
import { siteLayout } from '../../sites/content/layout.ts';
import { buildFixture, FIXTURES, startDevSite, type BuiltSite } from '../helpers/docs.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-layout-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
/** What `docs check` prints, in its order. */
const lines = async (source: string) => sortProblems((await prepareSite({ source })).problems).map(formatProblem);

describe('siteLayout: where the pages are', () => {
  it.each([
    ['docs.json at the root, pages only in docs/', { 'docs.json': '{}', 'README.md': '# Repo', 'docs/index.mdx': '# Home' }, 'docs-page'],
    ['docs.yaml, pages deeper in docs/', { 'docs.yaml': 'name: x', 'docs/guides/a.mdx': '# A', 'src/story.mdx': '# Not a root page' }, 'docs-page'],
    ['pages of its own at the top level (docs/ is a section)', { 'docs.json': '{}', 'index.mdx': '# Home', 'docs/api.mdx': '# API' }, 'plain'],
    ['no configuration file', { 'docs/index.mdx': '# Home' }, 'plain'],
    ['a docs/ folder without pages', { 'docs.json': '{}', 'guide.mdx': '# Guide', 'docs/notes.md': '# Notes' }, 'plain'],
    ['a docs/ folder without pages, nor pages elsewhere', { 'docs.json': '{}', 'docs/logo.svg': '<svg/>' }, 'plain'],
    ['no configuration file at the root; docs/ holds docs.json and the pages (a monorepo)', { 'package.json': '{}', 'docs/docs.json': '{}', 'docs/index.mdx': '# Home' }, 'docs-folder'],
    ['docs/ holds mint.json and the pages', { 'README.md': '# Repo', 'docs/mint.json': '{}', 'docs/guides/a.mdx': '# A' }, 'docs-folder'],
    ['docs/ holds a configuration file but the root has pages of its own', { 'index.mdx': '# Home', 'docs/docs.json': '{}', 'docs/a.mdx': '# A' }, 'plain'],
  ] as const)('%s: %s', (_what, files, kind) => {
    const dir = folder(files);
    const layout = siteLayout(dir);
    expect(layout.kind).toBe(kind);
    expect(layout.root).toBe(kind === 'plain' ? dir : join(dir, 'docs'));
    expect(layout.dir).toBe(kind === 'docs-folder' ? join(dir, 'docs') : dir);
    expect(layout.display('a/b.mdx')).toBe(kind === 'plain' ? 'a/b.mdx' : 'docs/a/b.mdx');
  });
});

describe("a repository in docs.page's layout (tests/fixtures/layout-docs-page)", () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildFixture('layout-docs-page', { strict: true });
  }, 60_000);

  it('builds with no problem at all (strict), every page where docs.page serves it', () => {
    expect(site.result.problems).toEqual([]);
    expect(site.result.pages).toBe(3);
    expect(site.result.data.pages.map((page) => [page.route, page.file]).sort()).toEqual([
      ['/', 'index.mdx'],
      ['/guides/setup', 'guides/setup.mdx'],
      ['/quickstart', 'quickstart.mdx'],
    ]);
    expect(site.page('/').select('title')?.text).toBe('Overview - Layout Demo');
    expect(site.page('/quickstart').select('title')?.text).toBe('Quickstart - Layout Demo');
    expect(site.page('/guides/setup').select('title')?.text).toBe('Setup - Layout Demo');
    expect(site.exists('docs')).toBe(false);
    expect(site.file('llms.txt')).toContain('[Quickstart](/quickstart.md)');
  });

  it('links resolve from docs/: sidebar, root-relative, relative and with a .mdx extension', () => {
    expect(site.page('/').selectAll('.sidebar a').map((a) => a.attr('href'))).toEqual(expect.arrayContaining(['/', '/quickstart', '/guides/setup']));
    expect(site.page('/').selectAll('article a').map((a) => a.attr('href'))).toEqual(['/quickstart', '/guides/setup']);
    expect(site.page('/guides/setup').selectAll('article a').map((a) => a.attr('href'))).toEqual(['/', '/quickstart', '/quickstart']);
  });

  it("assets are docs/'s files at their path from docs/ (docs/assets/a.png is /assets/a.png); nothing beside docs/ is published", () => {
    const setup = site.page('/guides/setup');
    // The frontmatter image (shown above the page), then the page's own: beside it, and one folder up.
    expect(setup.selectAll('article img').map((img) => img.attr('src'))).toEqual(['/assets/screenshot.png', '/guides/diagram.png', '/assets/screenshot.png']);
    expect(site.page('/').select('article img')?.attr('src')).toBe('/assets/screenshot.png');
    expect(site.page('/').select('header img')?.attr('src')).toBe('/assets/logo.svg');
    expect(site.page('/').select('link[rel=icon]')?.attr('href')).toBe('/assets/logo.svg');
    expect(setup.select('meta[property="og:image"]')?.attr('content')).toBe('/assets/screenshot.png');
    for (const file of ['assets/screenshot.png', 'assets/logo.svg', 'guides/diagram.png']) expect(site.exists(file), file).toBe(true);
    for (const file of ['README.md', 'docs.json', 'docs/assets/screenshot.png']) expect(site.exists(file), file).toBe(false);
  });

  it('problems name files from the repository root (docs/...), and the configuration file as it is', async () => {
    const source = folder({});
    cpSync(join(FIXTURES, 'layout-docs-page'), source, { recursive: true });
    writeFileSync(join(source, 'docs', 'quickstart.mdx'), '---\ntitel: Quickstart\n---\n\n[Nowhere](/nowhere) {1 + 1}\n');
    writeFileSync(join(source, 'docs.json'), JSON.stringify({ name: 'Layout Demo', logo: { light: '/assets/missing.svg' } }, null, 2));
    expect(await lines(source)).toEqual([
      'docs.json:4:5  warning  logo.light  No file `/assets/missing.svg` in the `docs/` folder',
      'docs/quickstart.mdx:2:1  warning  titel  Unknown key `titel` (ignored); did you mean `title`?',
      'docs/quickstart.mdx:5:1  warning  Broken link `/nowhere`: no page at `/nowhere`',
      'docs/quickstart.mdx:5:21  warning  JavaScript expression `{1 + 1}` is not run; removed',
    ]);
  });

  it('hosted builds read the repository the same way (buildHostedSite on the repository root)', async () => {
    const out = join(folder({}), 'out');
    const hosted = await buildHostedSite({ source: join(FIXTURES, 'layout-docs-page'), out, cacheDir: join(out, '..', 'cache'), codeHost: { name: 'acme/demo' } });
    expect(hosted.problems).toEqual([]);
    expect(hosted.manifest.pages.map((page) => page.route)).toEqual(['/', '/quickstart', '/guides/setup']);
  }, 60_000);

  it('docs dev serves it from docs/ and re-reads docs.json at the root when it changes', async () => {
    const source = folder({});
    cpSync(join(FIXTURES, 'layout-docs-page'), source, { recursive: true });
    const server = await startDevSite(source);
    const { title } = server;
    try {
      expect(await title('quickstart')).toBe('Quickstart - Layout Demo');
      expect((await fetch(`${server.url}assets/screenshot.png`)).headers.get('content-type')).toBe('image/png');
      writeFileSync(join(source, 'docs.json'), '{ "name": "Renamed" }');
      await expect.poll(() => title('quickstart'), { timeout: 10_000, interval: 200 }).toBe('Quickstart - Renamed');
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe('a repository whose site is its docs/ folder (docs/docs.json, as Mintlify monorepos keep it)', () => {
  it('builds from docs/ at the URLs Mintlify gives, and names files from the repository root', async () => {
    const dir = folder({
      'package.json': '{}',
      'docs/docs.json': JSON.stringify({ name: 'Mono', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] }, logo: '/missing.svg' }, null, 2),
      'docs/index.mdx': '# Home\n\n[Setup](/guides/setup)\n',
      'docs/guides/setup.mdx': '---\ntitle: Setup\n---\n\n[Nowhere](/nowhere)\n',
    });
    expect((await lines(dir)).filter((line) => !line.includes('  info  '))).toEqual([
      'docs/docs.json:14:3  warning  logo  No file `/missing.svg` in the `docs/` folder',
      'docs/guides/setup.mdx:5:1  warning  Broken link `/nowhere`: no page at `/nowhere`',
    ]);
    const out = join(dir, 'out');
    const built = await buildSite({ source: dir, out, cacheDir: join(dir, 'cache') });
    expect(built.data.pages.map((page) => page.route).sort()).toEqual(['/', '/guides/setup']);
    expect(built.data.config.name).toBe('Mono');
  }, 60_000);
});

describe('the plain layout is unchanged (tests/fixtures/layout-plain: pages of its own and a docs/ section)', () => {
  it('builds every page at its path from the folder, docs/ included', async () => {
    const site = await buildFixture('layout-plain', { strict: true });
    expect(site.result.problems).toEqual([]);
    expect(site.result.data.pages.map((page) => page.route).sort()).toEqual(['/', '/docs/reference']);
    expect(site.page('/docs/reference').select('article img')?.attr('src')).toBe('/images/logo.svg');
    expect(site.exists('images/logo.svg')).toBe(true);
  }, 60_000);
});

describe('a site with no home page says so', () => {
  it('one warning naming the file to add (not one per link to `/`), in either layout', async () => {
    const sidebar = [{ group: 'Start', pages: [{ title: 'Home', href: '/' }, { title: 'Guide', href: '/guide' }] }];
    const plain = folder({ 'docs.json': JSON.stringify({ sidebar }), 'guide.mdx': '# Guide\n\n[Home](/) [Top](./index.mdx)\n' });
    expect(await lines(plain)).toEqual(['docs.json:1:1  warning  No home page: add `index.mdx` (the page at `/`)']);
    const docsPage = folder({ 'docs.json': JSON.stringify({ sidebar }), 'docs/guide.mdx': '# Guide\n\n[Home](/)\n' });
    expect(await lines(docsPage)).toEqual(['docs.json:1:1  warning  No home page: add `docs/index.mdx` (the page at `/`)']);
    // Without a configuration file the problem is still reported (on the file that would hold the site's settings).
    expect(await lines(folder({ 'guide.mdx': '# Guide\n' }))).toEqual(['docs.json:1:1  warning  No home page: add `index.mdx` (the page at `/`)']);
  });

  it('a redirect from `/` is a home page', async () => {
    const dir = folder({ 'docs.json': JSON.stringify({ redirects: { '/': '/guide' } }), 'guide.mdx': '# Guide\n\n[Home](/)\n' });
    expect(await lines(dir)).toEqual([]);
  });

  it('fails --strict (nothing written); without --strict the site builds and keeps the warning', async () => {
    const dir = folder({ 'docs.json': '{ "name": "Headless" }', 'docs/guide.mdx': '# Guide\n' });
    const out = join(dir, '..', `${dir.split('/').pop()}-out`);
    dirs.push(out);
    const strict = await buildSite({ source: dir, out, strict: true }).catch((error: unknown) => error);
    expect(strict).toBeInstanceOf(BuildError);
    expect((strict as BuildError).problems.map(formatProblem)).toEqual(['docs.json:1:1  warning  No home page: add `docs/index.mdx` (the page at `/`)']);
    const lenient = await buildSite({ source: dir, out, cacheDir: join(out, '..', `${dir.split('/').pop()}-cache`) });
    expect(lenient.problems.map((p) => p.message)).toEqual(['No home page: add `docs/index.mdx` (the page at `/`)']);
    expect(lenient.data.pages.map((page) => page.route)).toEqual(['/guide']);
  }, 60_000);

  it('a sidebar that points at missing pages: one warning each', async () => {
    const sidebar = [{ group: 'Start', pages: [{ title: 'Home', href: '/' }, { title: 'Gone', href: '/gone' }, { title: 'Also gone', href: '/also-gone' }] }];
    const dir = folder({ 'docs.json': JSON.stringify({ sidebar }, null, 2), 'docs/index.mdx': '# Home\n' });
    expect(await lines(dir)).toEqual([
      'docs.json:12:11  warning  sidebar[0].pages[1].href  No page at `/gone`',
      'docs.json:16:11  warning  sidebar[0].pages[2].href  No page at `/also-gone`',
    ]);
  });
});
