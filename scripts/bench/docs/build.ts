/**
 * One cold build in a child process of its own (build-child.ts, working directory the temp dir), timed from
 * spawning to exit, with the peak RSS of its process tree sampled from /proc.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SAMPLE_INTERVAL_MS = 250;
/** A build that takes longer than this (10 minutes, or 0.15 s per page) is killed and reported as failed. */
const buildTimeoutMs = (pages: number) => Math.max(10 * 60_000, pages * 150);
const CHILD = fileURLToPath(new URL('./build-child.ts', import.meta.url));
/** The child's last line: this marker, then its ChildResult as JSON. */
export const RESULT_MARKER = 'BENCH_DOCS_RESULT ';
/** buildSite's progress phase that draws a social-preview PNG per page. */
export const SOCIAL_PHASE = 'social-images';
/** A line the child prints when the social-images phase begins. */
export const PHASE_MARKER = 'BENCH_DOCS_PHASE ';

export type BuildKind = 'ours' | 'starlight';

export interface ChildResult {
  /** The Node process's own maximum RSS in kB (process.resourceUsage().maxRSS). */
  maxRssKb: number;
  /** Time in the child from its start to the end of the build (module loading included, Node start-up not). */
  buildMs: number;
  /** CPU seconds (user + system) of the Node process and its ended children (Astro's build processes, Pagefind). */
  cpuSeconds: number;
  pages?: number;
  /** Ours: HTML files rendered, and taken from the build cache. */
  rendered?: number;
  cached?: number;
  /** Ours: seconds spent in each phase reported by buildSite's onProgress. */
  phases?: Record<string, number>;
  /** Ours: the Node process's maxRSS in kB when each phase began. */
  rssAtPhaseStartKb?: Record<string, number>;
  problems?: { severity: string; message: string }[];
}

export interface BuildRun {
  kind: BuildKind;
  pages: number;
  ok: boolean;
  wallSeconds: number;
  peakMb: number;
  nodePeakMb: number;
  buildSeconds: number;
  cpuSeconds: number;
  outDir: string;
  htmlFiles: number;
  phases?: Record<string, number>;
  /** Ours: HTML files rendered and taken from the build cache. */
  rendered?: number;
  cached?: number;
  /** Ours without the social-images phase (Starlight draws no images): wall seconds minus that phase, and the
   * process tree's peak RSS until it began. */
  withoutSocialImages?: { seconds: number; peakMb: number };
  note?: string;
}

/** RSS in kB of `rootPid` and all its descendants, from /proc; 0 when the process is gone. */
function treeRssKb(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may contain spaces and parentheses, so parse after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited while we looked
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) {
      if (p === rootPid) return true;
    }
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(match?.[1] ?? 0);
    } catch {
      // exited while we looked
    }
  }
  return total;
}

/** Runs build-child.ts with `<kind> <args>` in `cwd`, sampling the process tree's RSS until it exits. */
export async function runChild(kind: BuildKind, pages: number, args: string[], outDir: string, cwd: string): Promise<BuildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [CHILD, kind, ...args], {
    // In the temp dir: Astro writes some build files (.astro/.prerender) relative to the working directory.
    cwd,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let treePeakKb = 0;
  const sample = () => {
    if (child.pid !== undefined) treePeakKb = Math.max(treePeakKb, treeRssKb(child.pid));
  };
  let stdout = '';
  let stderr = '';
  let peakBeforeSocialKb: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (peakBeforeSocialKb === undefined && stdout.includes(`${PHASE_MARKER}${SOCIAL_PHASE}`)) {
      sample();
      peakBeforeSocialKb = treePeakKb;
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const sampler = setInterval(sample, SAMPLE_INTERVAL_MS);
  const killer = setTimeout(() => child.kill('SIGKILL'), buildTimeoutMs(pages));
  const code = await new Promise<number | null>((resolvePromise) => child.on('close', resolvePromise));
  clearInterval(sampler);
  clearTimeout(killer);
  const wallSeconds = (performance.now() - started) / 1000;
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  const result = line ? (JSON.parse(line.slice(RESULT_MARKER.length)) as ChildResult) : undefined;
  const ok = code === 0 && result !== undefined;
  const nodePeakMb = (result?.maxRssKb ?? 0) / 1024;
  const problems = result?.problems ?? [];
  const output = `${stderr}\n${stdout}`.trim().split('\n').slice(-15).join('\n    ');
  return {
    kind,
    pages,
    ok,
    wallSeconds,
    peakMb: Math.max(treePeakKb / 1024, nodePeakMb),
    nodePeakMb,
    buildSeconds: (result?.buildMs ?? 0) / 1000,
    cpuSeconds: result?.cpuSeconds ?? 0,
    outDir,
    htmlFiles: existsSync(outDir) ? countHtml(outDir) : 0,
    ...(result?.phases ? { phases: result.phases } : {}),
    ...(result?.rendered !== undefined ? { rendered: result.rendered, cached: result.cached ?? 0 } : {}),
    ...(result?.phases?.[SOCIAL_PHASE] !== undefined && result.rssAtPhaseStartKb?.[SOCIAL_PHASE] !== undefined
      ? { withoutSocialImages: { seconds: wallSeconds - result.phases[SOCIAL_PHASE], peakMb: Math.max(peakBeforeSocialKb ?? 0, result.rssAtPhaseStartKb[SOCIAL_PHASE]) / 1024 } }
      : {}),
    ...(!ok
      ? { note: `exit ${code}; last output:\n    ${output}` }
      : problems.length > 0
        ? { note: `${problems.length} problems reported, first: ${problems[0]?.severity} ${problems[0]?.message}` }
        : {}),
  };
}

function countHtml(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) n++;
  }
  return n;
}
