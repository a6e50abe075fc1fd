/**
 * What the server takes of a build process's word (server/docs-hosting/builds/built-files.ts): the files it left in
 * the repository's build cache are files of that cache, named as the cache names them, never links; every path stays
 * inside; no path twice; and the limits count every file, wherever it is.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFiles } from '../../server/docs-hosting/builds/built-files.ts';

const LIMITS = { maxFiles: 100, maxBytes: 1 << 20, maxFileBytes: 1 << 16 };
const PAGE = `${'a'.repeat(64)}.html`;
const PART = `search/${'b'.repeat(64)}`;

let work: string;
let scratch: string;
let cache: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'built-files-'));
  scratch = join(work, 'scratch');
  cache = join(work, 'cache');
  mkdirSync(join(scratch, 'site', 'guide'), { recursive: true });
  writeFileSync(join(scratch, 'site', 'guide', 'index.html'), '<h1>Guide</h1>');
  writeFileSync(join(scratch, 'site', '_redirects.json'), '{}');
  mkdirSync(join(cache, PART, 'fragment'), { recursive: true });
  writeFileSync(join(cache, PAGE), '<h1>Home</h1>');
  writeFileSync(join(cache, PART, 'fragment', 'en_1.pf_fragment'), 'fragment');
  writeFileSync(join(work, 'secret'), 'not a file of the site');
  symlinkSync(join(work, 'secret'), join(cache, `${'c'.repeat(64)}.html`));
  symlinkSync(work, join(cache, 'search', 'e'.repeat(64)));
  markdown({ 'guide.md': '# Guide\n' });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function markdown(files: Record<string, string>) {
  writeFileSync(join(scratch, 'markdown.ndjson'), Object.entries(files).map((entry) => `${JSON.stringify(entry)}\n`).join(''));
}

const HOME = { path: 'index.html', from: PAGE };
const FRAGMENT = { path: 'pagefind/en/0/fragment/en_1.pf_fragment', from: `${PART}/fragment/en_1.pf_fragment` };

describe('the files of a build', () => {
  it('are its folder\'s, its Markdown and the cache files it named (each with its stamp), the redirects map aside', async () => {
    const files = await builtFiles(scratch, cache, [HOME, FRAGMENT], LIMITS);
    if (typeof files === 'string') throw new Error(files);
    expect(files.map(({ path, size }) => [path, size]).sort()).toEqual([['guide.md', 8], ['guide/index.html', 14], ['index.html', 13], [FRAGMENT.path, 8]].sort());
    const byPath = new Map(files.map((file) => [file.path, file]));
    expect(byPath.get('index.html')).toMatchObject({ file: join(cache, PAGE), stamp: expect.stringMatching(/^\d+:\d+:13:\d+:\d+$/) });
    expect(byPath.get('guide.md')!.file).toEqual(Buffer.from('# Guide\n'));
    expect(byPath.get('guide/index.html')!.stamp).toBeUndefined();
  });

  it.each([
    ['a path out of the site', [{ path: '../index.html', from: PAGE }], `"${PAGE}"`],
    ['an absolute path', [{ path: '/etc/passwd', from: PAGE }], `"${PAGE}"`],
    ['a cache file out of the cache', [{ path: 'index.html', from: '../secret' }], '"../secret"'],
    ['a file of the cache that is not a page or a search part\'s', [{ path: 'builder', from: 'builder' }], '"builder"'],
    ['a search part file by a way out and back', [{ path: 'x.html', from: `${PART}/../../${PAGE}` }], `"${PART}/../../${PAGE}"`],
    ['a link in the cache, to a file outside it', [{ path: 'index.html', from: `${'c'.repeat(64)}.html` }], `"${'c'.repeat(64)}.html"`],
    ['a search part that is a link to a folder elsewhere', [{ path: 'secret', from: `search/${'e'.repeat(64)}/secret` }], `"search/${'e'.repeat(64)}/secret"`],
    ['a name that is not text', [{ path: 'index.html', from: 7 as unknown as string }], '7'],
  ])('%s: the build fails, naming it', async (_, cached, named) => {
    expect(await builtFiles(scratch, cache, cached, LIMITS)).toBe(`The build named a file it did not make: ${named}`);
  });

  it('a cache file that went meanwhile is not the build\'s fault: it throws, and the build is tried again', async () => {
    await expect(builtFiles(scratch, cache, [{ path: 'index.html', from: `${'d'.repeat(64)}.html` }], LIMITS)).rejects.toThrow(/ENOENT/);
  });

  it('Markdown out of the site, or not Markdown, or a line that is not a path and a text, fails the build', async () => {
    for (const path of ['../../evil.md', 'guide.html', 'a//b.md']) {
      markdown({ [path]: 'text' });
      expect(await builtFiles(scratch, cache, [], LIMITS)).toBe(`The build named a file it did not make: ${JSON.stringify(path)}`);
    }
    for (const line of ['{"guide.md": "text"}', '["guide.md"', '["guide.md", 7]']) {
      writeFileSync(join(scratch, 'markdown.ndjson'), `${line}\n`);
      expect(await builtFiles(scratch, cache, [], LIMITS)).toMatch(/^The build named a file it did not make: /);
    }
    markdown({ 'guide.md': '# Guide\n' });
  });

  it('a path made twice (in the folder and in the cache) fails the build', async () => {
    expect(await builtFiles(scratch, cache, [{ path: 'guide/index.html', from: PAGE }], LIMITS)).toBe('The build made "guide/index.html" twice');
  });

  it('the limits count the cache\'s files and the Markdown as files of the site', async () => {
    expect(await builtFiles(scratch, cache, [HOME, FRAGMENT], { ...LIMITS, maxFiles: 4 })).toBe('The built site has 5 files, more than the 4 a build may store');
    expect(await builtFiles(scratch, cache, [HOME], { ...LIMITS, maxFileBytes: 12 })).toMatch(/^guide\/index\.html is 0\.0 MB, more than/);
    expect(await builtFiles(scratch, cache, [HOME, FRAGMENT], { ...LIMITS, maxBytes: 40 })).toBe('The built site is 0.0 MB, more than the 0.0 MB a build may store');
  });
});
