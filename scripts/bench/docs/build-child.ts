/**
 * In the child process of one docs build (`node build-child.ts <ours|starlight> <args…>`): the build, then the
 * result line with this process's maximum RSS. Astro is loaded only here: the parent never imports it.
 */
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { PHASE_MARKER, RESULT_MARKER, SOCIAL_PHASE, type ChildResult } from './build.ts';
import { OUR_RENDERER } from './paths.ts';

async function childMain(kind: string, args: string[]): Promise<void> {
  const started = performance.now();
  let result: Omit<ChildResult, 'maxRssKb' | 'buildMs' | 'cpuSeconds'> = {};
  if (kind === 'ours') {
    const [source, out, cacheDir] = args;
    if (!source || !out || !cacheDir) throw new Error('build-child.ts ours <source> <out> <cache dir>');
    // As the `docs` CLI does first (sites/cli/docs.ts): Node's code cache of the modules it loads.
    const folders = (await import(new URL('builder/cache-folders.ts', pathToFileURL(OUR_RENDERER)).href)) as typeof import('../../../sites/builder/cache-folders.ts');
    await folders.cacheCompiledModules();
    const { buildSite, keepYoungGenerationSmall } = (await import(pathToFileURL(OUR_RENDERER).href)) as typeof import('../../../sites/index.ts');
    keepYoungGenerationSmall(); // as `docs build` does
    // Seconds per phase of buildSite (render, search, outputs, social-images, …), from its progress events.
    const phases: Record<string, number> = { 'load modules': (performance.now() - started) / 1000 };
    const rssAtPhaseStartKb: Record<string, number> = {};
    let phase = 'start';
    let phaseStarted = performance.now();
    const onProgress = (event: { phase: string }) => {
      if (event.phase === phase) return;
      phases[phase] = (phases[phase] ?? 0) + (performance.now() - phaseStarted) / 1000;
      phase = event.phase;
      // The parent samples the whole process tree (Astro builds in processes of their own): it notes its peak here.
      if (phase === SOCIAL_PHASE) process.stdout.write(`${PHASE_MARKER}${phase}\n`);
      phaseStarted = performance.now();
      rssAtPhaseStartKb[phase] ??= process.resourceUsage().maxRSS;
    };
    // As `docs build` does (sites/cli/commands.ts): a local build, not the published default branch.
    const built = await buildSite({ source, out, cacheDir, onProgress, context: { published: false, defaultBranch: false, customDomain: false } });
    onProgress({ phase: 'end' });
    delete phases.start;
    result = { pages: built.pages, rendered: built.rendered, cached: built.cached, phases, rssAtPhaseStartKb, problems: built.problems.map(({ severity, message }) => ({ severity, message })) };
  } else if (kind === 'starlight') {
    const [root, astroEntry] = args;
    if (!root || !astroEntry) throw new Error('build-child.ts starlight <root> <astro entry>');
    // Astro from the project's node_modules, the copy its astro.config.mjs and Starlight load too.
    enableCompileCache(); // as the `astro` command does (astro/bin/astro.mjs)
    const { build } = (await import(pathToFileURL(astroEntry).href)) as typeof import('astro');
    await build({ root, logLevel: 'warn' });
  } else {
    throw new Error(`unknown build kind ${kind}`);
  }
  const buildMs = performance.now() - started;
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6 + childrenCpuSeconds();
  console.log(`${RESULT_MARKER}${JSON.stringify({ ...result, buildMs, cpuSeconds, maxRssKb: usage.maxRSS })}`);
}

/** CPU seconds of this process's ended children (Astro's build processes, Pagefind's binary): /proc's cutime + cstime. */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // fields 16 and 17 of proc(5), in clock ticks of 1/100 s
}

const [kind = '', ...args] = process.argv.slice(2);
await childMain(kind, args);
