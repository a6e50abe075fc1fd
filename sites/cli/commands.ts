import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { formatProblem, formatSummary, shouldFail, sortProblems, type Problem } from '../config/problems.ts';
import type { LayoutKind } from '../content/layout.ts';

function report(problems: Problem[], strict: boolean) {
  for (const problem of sortProblems(problems)) console.error(formatProblem(problem));
  if (problems.length === 0) return console.log('No problems found.');
  const warningsFail = strict && problems.some((p) => p.severity === 'warning');
  console.error(`\n${formatSummary(problems)}${warningsFail ? ' (--strict: warnings fail too)' : ''}`);
}

/** `layout`: `plain` (docs.json and pages in `dir`) or `docs-page` (docs.json in `dir`, pages in `dir/docs/`). */
export async function runInit(dir: string, { layout = 'plain' }: { layout?: LayoutKind } = {}): Promise<number> {
  // Loaded here: the starter names the layout's folder, and the other commands need none of it.
  const files = (await import('./starter.ts')).starterFiles(layout);
  const taken = Object.keys(files).filter((file) => existsSync(join(dir, file)));
  if (taken.length > 0) {
    console.error(`docs init: ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dir}; nothing was written.`);
    return 1;
  }
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text, { flag: 'wx' });
    console.log(`created ${relative(process.cwd(), join(dir, file)) || file}`);
  }
  console.log('\nNext: docs dev (preview), docs check (validate), docs build --out dist (static site).');
  return 0;
}

export async function runCheck(dir: string, { strict }: { strict: boolean }): Promise<number> {
  // Exactly what a build would report (page preparation included), without rendering.
  const { prepareSite } = await import('../builder/index.ts');
  const { problems } = await prepareSite({ source: dir, strict });
  report(problems, strict);
  return shouldFail(problems, { strict }) ? 1 : 0;
}

/** Progress lines: one per phase, and within a phase at most every 10% (or in place on a terminal). */
function progressPrinter() {
  const tty = process.stdout.isTTY;
  let phase = '';
  let lastShown = -1;
  return (event: { phase: string; done?: number; total?: number; message?: string }) => {
    const counted = event.total ? ` ${event.done ?? 0}/${event.total}` : '';
    const line = `${event.phase}${counted}${event.message ? `: ${event.message}` : ''}`;
    if (event.phase !== phase) {
      if (tty && phase) process.stdout.write('\n');
      phase = event.phase;
      lastShown = -1;
    }
    if (tty) return void process.stdout.write(`\r\x1b[2K${line}`);
    const tenth = event.total ? Math.floor(((event.done ?? 0) * 10) / event.total) : 0;
    if (tenth === lastShown) return;
    lastShown = tenth;
    console.log(line);
  };
}

export async function runBuild(dir: string, options: { out: string; strict: boolean; cache: boolean; base?: string; site?: string }): Promise<number> {
  const progress = progressPrinter();
  // Astro loads only for the commands that render.
  const { buildSite } = await import('../builder/index.ts');
  try {
    const result = await buildSite({ source: dir, ...options, failOnErrors: true, context: { published: false, defaultBranch: false, customDomain: false }, onProgress: progress });
    if (process.stdout.isTTY) process.stdout.write('\n');
    report(result.problems, options.strict);
    const cached = result.cached ? ` (${result.cached} of ${result.rendered + result.cached} HTML files from the build cache)` : '';
    console.log(`Built ${result.pages} pages into ${options.out} in ${(result.durationMs / 1000).toFixed(1)} s${cached}`);
    return 0;
  } catch (error) {
    if (process.stdout.isTTY) process.stdout.write('\n');
    const problems = (error as { problems?: Problem[] }).problems;
    if (!problems) throw error;
    report(problems, options.strict);
    console.error(`Build failed: ${(error as Error).message.replace(/\.?$/, '.')} Nothing was written.`);
    return 1;
  }
}

export async function runDev(dir: string, options: { port?: number; host?: string }): Promise<number> {
  const { devSite } = await import('../builder/dev.ts');
  const server = await devSite({ source: dir, ...options });
  console.log(`Previewing ${dir} at ${server.url} (reloads on edits; Ctrl+C stops)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
