/**
 * The pages as the last build read and prepared them (sites/builder/prepared-pages.ts): a page prepared from what the
 * build cache kept is the page prepared anew, whatever changed meanwhile (its text, the site's variables, the media
 * files it names), and a kept file that cannot be read only costs the time.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSite } from '../../sites/builder/index.ts';
import { PreparedPages } from '../../sites/builder/prepared-pages.ts';

let work: string;
let source: string;
let memoFile: string;

const PAGES: Record<string, string> = {
  'index.mdx': '---\ntitle: Home\ndescription: The start\n---\n\nWelcome to {{product}}.\n\n![Logo](./images/logo.png)\n',
  'guide.mdx': '---\ntitle: Guide\nicon: rocket\n---\n\n## Install\n\nRun `{{product}} install`. See [the FAQ](/faq#answers).\n\n<Note>Keep it short.</Note>\n',
  'faq.mdx': '---\ntitle: FAQ\nnot_a_key: 1\n---\n\n## Answers\n\n<script>alert(1)</script>\n\n![Diagram](./images/diagram.png)\n',
  'broken.mdx': '# Broken\n\n<div>\n',
};

const write = (file: string, text: string) => {
  mkdirSync(join(source, file, '..'), { recursive: true });
  writeFileSync(join(source, file), text);
};
const config = (product: string) => write('docs.json', JSON.stringify({ name: 'Memo', variables: { product } }));

/** What a build takes from preparing the site: problems, Markdown, the MDX handed to the compiler, the site's data. */
async function prepared(memo?: PreparedPages) {
  const site = await prepareSite({ source, preparedPages: memo });
  return { problems: site.problems, markdown: [...site.markdown], code: [...site.state.prepared], data: site.state.data };
}

/** Prepared through the kept file (read, used, written back), and how many pages were read or prepared anew. */
async function throughMemo() {
  const memo = await PreparedPages.open(memoFile);
  const result = await prepared(memo);
  await memo.save();
  return { result, misses: memo.misses };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'prepared-pages-'));
  source = join(work, 'docs');
  memoFile = join(work, 'prepared-pages.bin');
  config('Gizmo');
  for (const [file, text] of Object.entries(PAGES)) write(file, text);
  write('images/logo.png', 'png');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('pages prepared from what the last build kept', () => {
  it('are the pages prepared anew; only what changed is read and prepared again', async () => {
    const first = await throughMemo();
    expect(first.misses).toBe(8); // 4 frontmatters, 4 pages
    expect(first.result).toEqual(await prepared());
    expect(first.result.problems.map((p) => p.message).join('\n')).toMatch(/diagram\.png` does not exist[\s\S]*not valid MDX|not valid MDX[\s\S]*diagram\.png` does not exist/);

    const again = await throughMemo();
    expect(again.misses).toBe(0);
    expect(again.result).toEqual(first.result);

    write('guide.mdx', PAGES['guide.mdx']!.replace('Keep it short.', 'Keep it shorter.'));
    const edited = await throughMemo();
    expect(edited.misses).toBe(2);
    expect(edited.result).toEqual(await prepared());
    expect(edited.result.markdown.find(([route]) => route === '/guide')?.[1]).toContain('Keep it shorter.');
  });

  it('a variable changed in docs.json prepares every page that uses variables again', async () => {
    await throughMemo();
    config('Widget');
    const changed = await throughMemo();
    expect(changed.misses).toBe(4); // every page body again: the variables are in each one's key
    expect(changed.result).toEqual(await prepared());
    expect(changed.result.markdown.find(([route]) => route === '/')?.[1]).toContain('Welcome to Widget.');
  });

  it('a media file that appears or goes is seen: the page naming it is prepared again', async () => {
    await throughMemo();
    write('images/diagram.png', 'png');
    const added = await throughMemo();
    expect(added.misses).toBe(1);
    expect(added.result).toEqual(await prepared());
    expect(added.result.problems.some((p) => p.message.includes('diagram.png'))).toBe(false);

    unlinkSync(join(source, 'images/logo.png'));
    const removed = await throughMemo();
    expect(removed.misses).toBe(1);
    expect(removed.result).toEqual(await prepared());
    expect(removed.result.problems.some((p) => p.message.includes('`./images/logo.png` does not exist'))).toBe(true);
  });

  it('a kept file that is not one (cut short, another version, not there) is not used: every page is prepared', async () => {
    await throughMemo();
    for (const broken of [Buffer.from('not v8 data'), Buffer.alloc(0)]) {
      writeFileSync(memoFile, broken);
      const made = await throughMemo();
      expect(made.misses).toBe(8);
      expect(made.result).toEqual(await prepared());
    }
    rmSync(memoFile);
    expect((await throughMemo()).misses).toBe(8);
  });
});
