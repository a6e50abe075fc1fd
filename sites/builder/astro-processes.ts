import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AstroJob } from './astro-job.ts';
import type { AstroWorkerMessage } from './astro-worker.ts';

// Beside this module: the TypeScript source here, the bundled JavaScript in the CLI's package (cli/bundle.ts).
const WORKER = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './astro-worker.ts' : './astro-worker.js', import.meta.url));

interface Worker {
  child: ChildProcess;
  /** Set when the process failed or ended before it was given a job. */
  ended?: Error;
}

/**
 * A small young generation for the Astro build: semi-spaces of 4 MB, where V8 grows them to 64 MB by default. Its
 * JavaScript heap holds ~90-190 MB live but reached ~490 MB between full collections. 10,000 pages: the process's
 * peak 1,265 -> 1,131 MB, the build's 2,115 -> 2,015 MB, no slower (docs/testing.md). A heap cap
 * (`--max-old-space-size`) did more at 1,000 pages but would stop a build with larger pages; this limits nothing.
 */
const YOUNG_GENERATION = '--max-semi-space-size=4';

/**
 * The native allocators' settings for the Astro build: mimalloc (Vite's bundler, rolldown, allocates with it)
 * gives freed memory back at once instead of after 10 ms, and glibc's malloc keeps 2 arenas instead of one per
 * thread. Outside the JavaScript heap (~270 MB), the process held ~600 MB of native memory at its peak.
 */
const NATIVE_MEMORY = { MIMALLOC_PURGE_DELAY: '0', MALLOC_ARENA_MAX: '2' };

const endedEarly = (code: number | null, signal: NodeJS.Signals | null) => new Error(`The Astro build's process ended (${signal ?? `exit code ${code}`})`);

/** `highlighter`: it makes Shiki's highlighter while it waits too (a process started long before its job). */
function start(options: { highlighter?: boolean } = {}): Worker {
  // Maps and Sets in messages; its output to our stderr (a host reads this process's stdout).
  const child = fork(WORKER, options.highlighter ? ['--highlighter'] : [], {
    execArgv: [...process.execArgv, YOUNG_GENERATION],
    env: { ...process.env, ...NATIVE_MEMORY },
    serialization: 'advanced',
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  const worker: Worker = { child };
  child.on('error', (error) => (worker.ended ??= error));
  child.on('exit', (code, signal) => (worker.ended ??= endedEarly(code, signal)));
  return worker;
}

/**
 * A build's Astro builds, each in a child process of its own (astro-worker.ts: why). The next one is started as
 * the last one ends, so Astro loads while that batch's pages are finished; `close()` ends it.
 */
export class AstroProcesses {
  #spare: Worker | undefined;

  /**
   * `startNow`: the first build's process starts now, and loads Astro and Shiki's highlighter while the caller
   * prepares its job.
   */
  constructor(options: { startNow?: boolean } = {}) {
    if (options.startNow) this.#spare = start({ highlighter: true });
  }

  /**
   * One Astro build. `ahead`: another build follows, whose process starts once this one's has ended (not before:
   * two Astro builds at once would hold twice the memory).
   */
  async build(job: AstroJob, options: { compiled: () => void; rendered: () => void; ahead: boolean }): Promise<void> {
    const worker = this.#spare ?? start();
    this.#spare = undefined;
    const { child } = worker;
    try {
      await new Promise<void>((resolve, reject) => {
        if (worker.ended) return reject(worker.ended);
        child.on('message', (message: AstroWorkerMessage) => {
          if (message.type === 'compiled') options.compiled();
          else if (message.type === 'rendered') options.rendered();
          else if (message.type === 'done') resolve();
          else if (message.type === 'failed') reject(Object.assign(new Error(message.message), { name: message.name, stack: message.stack }));
        });
        child.once('error', reject);
        child.once('exit', (code, signal) => reject(endedEarly(code, signal)));
        child.send(job);
      });
    } finally {
      await stop(child);
      if (options.ahead) this.#spare = start();
    }
  }

  async close(): Promise<void> {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare) await stop(spare.child);
  }
}

/** Ends a worker process and waits until it has (its memory is back before the next one starts). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
