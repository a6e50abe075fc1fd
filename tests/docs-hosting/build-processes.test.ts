/**
 * Build processes started ahead of their builds (server/docs-hosting/builds/builder.ts): after a build, a spare
 * waits with Astro loaded; the next build runs in it, and it ends with its build as any build process does. Closing
 * (the server stops) ends the spare and the builds running.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildProcesses } from '../../server/docs-hosting/builds/builder.ts';
import type { WorkerInput } from '../../server/docs-hosting/builds/worker.ts';
import { processEnded } from '../helpers/server-process.ts';

let work: string;
let processes: BuildProcesses;
let run = 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'build-processes-'));
  mkdirSync(join(work, 'docs'));
  writeFileSync(join(work, 'docs', 'docs.json'), JSON.stringify({ name: 'Spare Test' }));
  writeFileSync(join(work, 'docs', 'index.mdx'), '# Home\n\n```ts\nconst answer: number = 42;\n```\n');
  processes = new BuildProcesses({ memoryMb: 1024 });
});
afterAll(() => {
  processes.close();
  rmSync(work, { recursive: true, force: true });
});

function input(): WorkerInput {
  const scratch = join(work, `build-${++run}`);
  mkdirSync(scratch);
  return {
    source: join(work, 'docs'),
    out: join(scratch, 'site'),
    searchIndexFile: join(scratch, 'search.json'),
    searchStateFile: join(work, 'search-state.json'),
    markdownFile: join(scratch, 'markdown.ndjson'),
    cacheDir: join(scratch, 'cache'),
    pageCacheDir: join(work, 'page-cache'),
    codeHost: { name: 'acme/spare' },
  };
}

describe('build processes started ahead', () => {
  it('after a build a spare waits; the next build runs in it (it then ends) and another spare waits', async () => {
    expect(processes.spare).toBeUndefined(); // none before the first build
    expect(await processes.run(input(), { timeoutMs: 60_000 })).toMatchObject({ type: 'done', pages: 1 });
    const spare = processes.spare!;
    expect(spare).toBeTypeOf('number');
    expect(processEnded(spare)).toBe(false);
    expect(await processes.run(input(), { timeoutMs: 60_000 })).toMatchObject({ type: 'done', pages: 1 });
    await expect.poll(() => processEnded(spare)).toBe(true);
    expect(processes.spare).not.toBe(spare);
  }, 120_000);

  it('a spare that ended before its build is not used: the build starts a process of its own', async () => {
    const spare = processes.spare!;
    process.kill(spare, 'SIGKILL');
    await expect.poll(() => processEnded(spare)).toBe(true);
    expect(await processes.run(input(), { timeoutMs: 60_000 })).toMatchObject({ type: 'done', pages: 1 });
  }, 120_000);

  it('closing ends the spare, and the process of a build running at once (the build is stopped); it starts no other', async () => {
    await expect.poll(() => processes.spare).toBeTypeOf('number');
    const spare = processes.spare!;
    let progressed!: () => void;
    const building = new Promise<void>((resolve) => (progressed = resolve));
    const outcome = processes.run(input(), { timeoutMs: 60_000, onProgress: () => progressed() });
    await building;
    expect([processEnded(spare), processes.spare]).toEqual([false, undefined]); // the build runs in the spare
    processes.close();
    expect(await outcome).toEqual({ type: 'failed', error: 'The server stopped this build' });
    await expect.poll(() => processEnded(spare)).toBe(true);
    expect(await processes.run(input(), { timeoutMs: 60_000 })).toEqual({ type: 'failed', error: 'The server stopped this build' });
    expect(processes.spare).toBeUndefined();
  }, 60_000);
});
