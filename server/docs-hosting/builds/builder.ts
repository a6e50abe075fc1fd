import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WorkerInput, WorkerMessage } from './worker.ts';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

export type BuildOutcome = Extract<WorkerMessage, { type: 'done' | 'failed' }>;

export interface BuildProcessOptions {
  /** The build's JavaScript heap, in MB (`--max-old-space-size`). */
  memoryMb: number;
  /** A folder of the server's own where the build's processes keep their compiled modules (NODE_COMPILE_CACHE). */
  moduleCacheDir?: string;
}

/**
 * A build process (worker.ts), started: it loads the builder, Astro and Shiki's grammars, then waits for its
 * build's input on stdin.
 */
function startBuildProcess(options: BuildProcessOptions): ChildProcess {
  // A repository's build gets nothing of the server's environment (database URL, keys): only what running needs.
  // Its HOME is set to the build's scratch folder once the build is known (worker.ts).
  const env: NodeJS.ProcessEnv = { ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', HOME: tmpdir() };
  for (const name of ['PATH', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ']) if (process.env[name] !== undefined) env[name] = process.env[name];
  // Node's code cache of the modules a build loads (Astro, Vite, the builder: ~0.7 s of each process), the server's own.
  if (options.moduleCacheDir) env.NODE_COMPILE_CACHE = options.moduleCacheDir;
  return spawn(process.execPath, [`--max-old-space-size=${options.memoryMb}`, WORKER], { stdio: ['pipe', 'pipe', 'pipe'], env });
}

/**
 * Runs one build in a child process (worker.ts), `started` ahead of it or started now, and answers its outcome:
 * never throws for what the build itself does (a crash, a timeout and an out-of-memory are failed outcomes with a
 * reason).
 */
export function runBuildWorker(
  input: WorkerInput,
  options: BuildProcessOptions & {
    timeoutMs: number;
    /** Ends the build's process at once; the outcome is a failure whose error is the signal's reason (a string). */
    signal?: AbortSignal;
    onProgress?: (progress: { phase: string; done?: number; total?: number; message?: string }) => void;
    started?: ChildProcess;
  },
): Promise<BuildOutcome> {
  return new Promise((resolve) => {
    const child = options.started ?? startBuildProcess(options);
    child.stdin!.on('error', () => {}); // a process that ended is seen by 'close' below
    child.stdin!.end(`${JSON.stringify(input)}\n`);
    const stop = () => child.kill('SIGKILL');
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
    let outcome: BuildOutcome | undefined;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let message: WorkerMessage;
      try {
        message = wellFormed(JSON.parse(line)) as WorkerMessage;
      } catch {
        return; // a library's stray output
      }
      if (message.type === 'progress') options.onProgress?.(message);
      else outcome = message;
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      if (options.signal?.aborted) return resolve({ type: 'failed', error: typeof options.signal.reason === 'string' ? options.signal.reason : 'The build was stopped' });
      // The limit holds in each process of the build (its Astro builds inherit it: sites/builder/astro-processes.ts),
      // and one of those running out ends the build as failed, with this in the output they share.
      const outOfMemory = /heap out of memory|Allocation failed/i.test(stderr);
      const memoryError = `The build needed more than its ${options.memoryMb} MB of memory and was stopped`;
      if (outcome?.type === 'failed' && outOfMemory) return resolve({ type: 'failed', error: memoryError });
      if (outcome && (outcome.type === 'failed' || code === 0)) return resolve(outcome);
      const why = timedOut
        ? `The build took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`
        : outOfMemory
          ? memoryError
          : `The build process ended unexpectedly (${signal ?? `exit code ${code}`})${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`;
      resolve({ type: 'failed', error: why });
    });
  });
}

/** Why a build whose process the server ended as it stopped failed (it is not recorded: the build runs again). */
export const STOPPED = 'The server stopped this build';

/**
 * Build processes started ahead of their builds: once a build ends, a spare is started, which loads the builder,
 * Astro and Shiki's grammars and waits (~0.5 s of a one-page build: docs/docs-hosting.md). A spare still runs one
 * build and ends, as every build process does: it has seen nothing of any repository before its build. A server's
 * first build starts its own process (a server that never builds holds no spare).
 */
export class BuildProcesses {
  readonly #options: BuildProcessOptions;
  #spare: ChildProcess | undefined;
  /** Aborted by close(): ends the processes of the builds running. */
  readonly #closing = new AbortController();

  constructor(options: BuildProcessOptions) {
    this.#options = options;
  }

  /**
   * Runs one build (runBuildWorker) in the spare when there is one alive, then starts the next spare. Once closed, a
   * build is stopped at once, without a process.
   */
  async run(input: WorkerInput, options: Omit<Parameters<typeof runBuildWorker>[1], keyof BuildProcessOptions | 'started'>): Promise<BuildOutcome> {
    const closing = this.#closing.signal;
    if (closing.aborted) return { type: 'failed', error: closing.reason as string };
    const spare = this.#spare;
    this.#spare = undefined;
    const alive = spare && spare.exitCode === null && spare.signalCode === null ? spare : undefined;
    const signal = options.signal ? AbortSignal.any([options.signal, closing]) : closing;
    try {
      return await runBuildWorker(input, { ...this.#options, ...options, signal, ...(alive ? { started: alive } : {}) });
    } finally {
      if (!closing.aborted && !this.#spare) this.#spare = startBuildProcess(this.#options);
    }
  }

  /** The process id of the spare waiting for a build, if any. */
  get spare(): number | undefined {
    return this.#spare?.pid;
  }

  /**
   * Ends the spare and the processes of the builds running (SIGKILL: a build keeps nothing a gentler stop would save,
   * its work is in a scratch folder of its own), whose builds fail with "The server stopped this build"; no process is
   * started after this. The server's shutdown does this, so that it does not wait for builds (minutes, at worst).
   */
  close(): void {
    this.#closing.abort(STOPPED);
    this.#spare?.kill('SIGKILL');
    this.#spare = undefined;
  }
}

/**
 * The value with every string, keys included, well-formed: an unpaired surrogate becomes U+FFFD. A repository's
 * docs.json or frontmatter may hold one as a `\ud800` escape (JSON and YAML allow it), and PostgreSQL's json
 * refuses it: stored as it came, the build's manifest or problems could never be saved.
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormed(item)]));
}
