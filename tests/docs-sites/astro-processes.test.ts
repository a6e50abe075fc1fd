/**
 * A site rendered in several Astro builds (a batch of its pages each) runs each in a child process of its own,
 * which ends with it: the memory an Astro build takes is never freed in the process that ran it
 * (sites/builder/astro-worker.ts), so a 10,000-page site in one process grew to 3.3 GB. One batch is built in the
 * build's own process. What a user relies on: the processes come and go with their batches, nothing is left
 * running after a build, and a process that dies fails the build with a clear error.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** This process's children running an Astro build. */
function astroChildren(): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('astro-worker') ? [Number(pid)] : [];
    } catch {
      return []; // ended while we looked
    }
  });
}

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

  it('a site of one batch is built in the build\'s own process', async () => {
    let children = 0;
    const result = await build({ onProgress: ({ phase, done }) => void (phase === 'compile' && done && (children += astroChildren().length)) });
    expect(result.rendered).toBe(6);
    expect(children).toBe(0);
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
