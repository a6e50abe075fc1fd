/**
 * A site rendered in several Astro builds (a batch of its pages each) runs each in a child process of its own,
 * which ends with it: the memory an Astro build takes is never freed in the process that ran it
 * (sites/builder/astro-worker.ts), so a 10,000-page site in one process grew to 3.3 GB. One batch is built in the
 * build's own process, unless it is a rebuild (the build cache has pages): its Astro build's process starts as the
 * build begins, loading Astro while the pages are read. What a user relies on: the processes come and go with their batches, nothing is left
 * running after a build (Pagefind's neither), and a process that dies fails the build with a clear error.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSite, type BuildOptions } from '../../sites/builder/index.ts';

let work: string;
let source: string;
let run = 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'astro-processes-'));
  source = join(work, 'docs');
  mkdirSync(source);
  const pages = ['index', 'one', 'two', 'three', 'four'];
  writeFileSync(join(source, 'docs.json'), JSON.stringify({ name: 'Processes', sidebar: [{ group: 'Docs', pages: pages.map((p) => ({ title: p, href: p === 'index' ? '/' : `/${p}` })) }] }));
  for (const page of pages) writeFileSync(join(source, `${page}.mdx`), `---\ntitle: ${page}\n---\n\nThe ${page} page.\n`);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** This process's children whose command line has `name`: an Astro build's (`astro-worker`), Pagefind's. */
function children(name = 'astro-worker'): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name) ? [Number(pid)] : [];
    } catch {
      return []; // ended while we looked
    }
  });
}
const astroChildren = () => children();

const build = (options: Partial<BuildOptions>) => buildSite({ source, out: join(work, `out-${++run}`), cacheDir: join(work, `cache-${run}`), cache: false, drawSocialImages: false, ...options });

describe('Astro builds in processes of their own', () => {
  it('one process per batch of pages, each gone when its batch is written; none left after the build', async () => {
    const working = new Set<number>();
    const result = await build({
      renderBatch: 2,
      onProgress: ({ phase, done }) => {
        if (phase === 'compile' && done) for (const pid of astroChildren()) working.add(pid);
      },
    });
    expect(result.rendered).toBe(6); // five pages and 404.html, in three batches
    expect(working.size).toBe(3);
    expect(astroChildren()).toEqual([]);
  }, 120_000);

  it('Pagefind indexes each search part in a process that ends once the part is written; none is left after the build', async () => {
    // Five pages in batches of two, and three parts: more parts than render batches of RENDER_BATCH split the pages
    // one by one, two each here (the last has 404.html too), so each part is one of these batches' pages.
    const pagefind = new Set<number>();
    const sampling = setInterval(() => children('pagefind').forEach((pid) => pagefind.add(pid)), 10);
    try {
      const result = await build({ renderBatch: 2, searchParts: 3 });
      expect(result.searchParts).toEqual({ indexed: 3, cached: 0 });
    } finally {
      clearInterval(sampling);
    }
    // One process kept for the whole build (or this test file) would be one pid.
    expect(pagefind.size).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(children('pagefind')).toEqual([])); // ended: its exit may come a moment later
  }, 120_000);

  it('a site of one batch is built in the build\'s own process', async () => {
    let children = 0;
    const result = await build({ onProgress: ({ phase, done }) => void (phase === 'compile' && done && (children += astroChildren().length)) });
    expect(result.rendered).toBe(6);
    expect(children).toBe(0);
  }, 120_000);

  it('a rebuild (the build cache has pages) renders in a process started as it began; none is left, rendering or not', async () => {
    const cacheDir = join(work, 'cache-rebuild');
    const during = (phase: string) => {
      let most = 0;
      return { onProgress: (event: { phase: string }) => void (event.phase === phase && (most = Math.max(most, astroChildren().length))), most: () => most };
    };
    const first = during('compile');
    expect((await build({ cache: true, cacheDir, onProgress: first.onProgress })).rendered).toBe(6);
    expect(first.most()).toBe(0); // an empty cache: the first build renders here
    let waiting = 0;
    const unchanged = await build({ cache: true, cacheDir, onPrepared: () => void (waiting = astroChildren().length) });
    expect(unchanged.rendered).toBe(0);
    expect(waiting).toBe(1); // started as the build began, never given a job
    expect(astroChildren()).toEqual([]);
    writeFileSync(join(source, 'two.mdx'), '---\ntitle: two\n---\n\nThe two page, edited.\n');
    const edited = during('render');
    const result = await build({ cache: true, cacheDir, onProgress: edited.onProgress });
    expect(result.rendered).toBe(2);
    expect(edited.most()).toBe(1);
    expect(readFileSync(join(work, `out-${run}`, 'two', 'index.html'), 'utf8')).toContain('The two page, edited.');
    expect(astroChildren()).toEqual([]);
  }, 120_000);

  it('a process that dies midway fails the build with the reason, and nothing is left running', async () => {
    let killed = false;
    const failed = build({
      renderBatch: 2,
      onProgress: ({ phase, done }) => {
        if (phase !== 'compile' || !done || killed) return;
        killed = true;
        for (const pid of astroChildren()) process.kill(pid, 'SIGKILL');
      },
    });
    await expect(failed).rejects.toThrow("The Astro build's process ended (SIGKILL)");
    expect(killed).toBe(true);
    expect(astroChildren()).toEqual([]);
  }, 120_000);
});
