/**
 * A build into the folder of the last one (sites/builder/output-folder.ts): the files whose content did not change
 * stay as they are, and the folder is then exactly the site a build into an empty folder writes, whatever was done
 * to it meanwhile and however the last build ended.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildOptions } from '../../sites/builder/index.ts';
import { searchText, siteFiles } from '../helpers/docs.ts';

const PAGES: Record<string, string> = {
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
  'guide.mdx': '---\ntitle: Guide\n---\n\n## Install\n\nRun the installer.\n',
  'reference.mdx': '---\ntitle: Reference\n---\n\nEvery option.\n',
  'faq.mdx': '---\ntitle: FAQ\n---\n\nQuestions and answers.\n',
};
const SIDEBAR = [{ title: 'Home', href: '/' }, { title: 'Guide', href: '/guide' }, { title: 'Reference', href: '/reference' }, { title: 'FAQ', href: '/faq' }];
const config = (pages = SIDEBAR) => JSON.stringify({ name: 'Folder Test', sidebar: [{ group: 'Docs', pages }] });

let work: string;
let source: string;
let cacheDir: string;
let out: string;
let fresh = 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'output-folder-'));
  source = join(work, 'docs');
  cacheDir = join(work, 'cache');
  out = join(work, 'site');
  mkdirSync(source);
  writeFileSync(join(source, 'docs.json'), config());
  for (const [file, text] of Object.entries(PAGES)) writeFileSync(join(source, file), text);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const write = (file: string, text: string) => writeFileSync(join(source, file), text);
/** A build into the folder under test (social images drawn, as `docs build` does). */
const build = (options: Partial<BuildOptions> = {}) => buildSite({ source, out, cacheDir, ...options });

/** Each file of a folder: its inode and ctime, which change whenever it is written. */
function writes(folder: string): Map<string, string> {
  const names = readdirSync(folder, { recursive: true, encoding: 'utf8' });
  return new Map(names.flatMap((name) => {
    const info = statSync(join(folder, name), { bigint: true });
    return info.isFile() ? [[name, `${info.ino}:${info.ctimeNs}`] as const] : [];
  }));
}

/** The folder holds what a build of the same source into an empty folder writes, file for file, and finds the same. */
async function expectTheSite(folder: string): Promise<void> {
  const empty = join(work, `fresh-${++fresh}`);
  await buildSite({ source, out: empty, cacheDir });
  expect(siteFiles(folder)).toEqual(siteFiles(empty));
  expect(searchText(folder).split('\n').sort()).toEqual(searchText(empty).split('\n').sort());
}

describe('a build into the folder of the last build', () => {
  it("after a one-page edit writes that page's files again and leaves the others as they were", async () => {
    await build();
    const before = writes(out);
    write('guide.mdx', PAGES['guide.mdx']!.replace('Run the installer.', 'Run the zebra installer.'));
    const edited = await build();
    expect(edited.rendered).toBe(2); // the page and 404.html
    const after = writes(out);
    const rewritten = [...after.keys()].filter((path) => after.get(path) !== before.get(path));
    expect(rewritten).toEqual(expect.arrayContaining(['guide/index.html', 'guide.md']));
    // The other pages, every page's Markdown but the edited one's, the social images (no title changed) and the
    // search parts of unchanged pages (here one part: it has the edit) are the files the first build wrote.
    const kept = ['index.html', 'reference/index.html', 'faq/index.html', 'index.md', 'reference.md', 'faq.md', '_social/index.png', '_social/guide.png', '_social/faq.png'];
    for (const path of kept) expect(after.get(path), path).toBe(before.get(path));
    expect(readFileSync(join(out, 'guide/index.html'), 'utf8')).toContain('zebra');
    await expectTheSite(out);
    expect(searchText(out)).not.toContain('Run the installer');
  }, 120_000);

  it('puts right what was done to the folder since: a file edited (its time put back), removed, made a link, files added', async () => {
    const page = join(out, 'reference/index.html');
    const { mtime } = statSync(page);
    writeFileSync(page, readFileSync(page, 'utf8').replace('Every option.', 'Tampered.....'));
    utimesSync(page, mtime, mtime);
    rmSync(join(out, 'faq.md'));
    rmSync(join(out, 'index.md'));
    symlinkSync(join(source, 'index.mdx'), join(out, 'index.md'));
    writeFileSync(join(out, 'notes.txt'), 'mine');
    mkdirSync(join(out, 'extra/deep'), { recursive: true });
    writeFileSync(join(out, 'extra/deep/page.html'), '<p>stray</p>');
    const again = await build();
    expect(again.rendered).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('Every option.');
    expect(statSync(join(out, 'extra'), { throwIfNoEntry: false })).toBeUndefined();
    await expectTheSite(out);
  }, 120_000);

  it('leaves neither the files nor the folder of a page taken out of the site', async () => {
    rmSync(join(source, 'faq.mdx'));
    write('docs.json', config(SIDEBAR.filter((page) => page.href !== '/faq')));
    await build();
    for (const path of ['faq', 'faq.md', '_social/faq.png']) expect(statSync(join(out, path), { throwIfNoEntry: false }), path).toBeUndefined();
    await expectTheSite(out);
    write('faq.mdx', PAGES['faq.mdx']!);
    write('docs.json', config());
  }, 120_000);

  it('after a build that failed at any step, writes the whole site right', async () => {
    for (const [i, failAt] of ['compile', 'outputs', 'search', 'social-images'].entries()) {
      // A new title: its social image is drawn again too.
      write('reference.mdx', PAGES['reference.mdx']!.replace('Every option.', `Every option, take ${i}.`).replace('title: Reference', `title: Reference ${i}`));
      const failed = build({ onProgress: ({ phase }) => { if (phase === failAt) throw new Error(`stopped at ${failAt}`); } });
      await expect(failed).rejects.toThrow(`stopped at ${failAt}`);
      await build();
      expect(readFileSync(join(out, 'reference/index.html'), 'utf8')).toContain(`take ${i}.`);
      await expectTheSite(out);
    }
  }, 240_000);

  it('empties the folder first without the build cache, or with a record it cannot read', async () => {
    writeFileSync(join(out, 'notes.txt'), 'mine');
    await build({ cache: false });
    expect(statSync(join(out, 'notes.txt'), { throwIfNoEntry: false })).toBeUndefined();
    await expectTheSite(out);
    const records = join(cacheDir, 'pages', 'outputs');
    await build(); // records the folder again
    for (const name of readdirSync(records)) writeFileSync(join(records, name), '{"out":');
    const before = writes(out);
    await build();
    const after = writes(out);
    expect([...after].filter(([path, stamp]) => before.get(path) === stamp)).toEqual([]);
    await expectTheSite(out);
  }, 120_000);
});
