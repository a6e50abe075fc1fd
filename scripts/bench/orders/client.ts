/** The main process's side of the client process: commands over IPC, and its runs as Measurements. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { decimal } from '../common/format.ts';
import { fromLatencies, statusSummary, type Measurement } from '../common/stats.ts';
import type { ClientCommand, ClientReply, ConnectResult, RunResult } from './protocol.ts';

const CLIENT_PROCESS = fileURLToPath(new URL('./client-process.ts', import.meta.url));

/**
 * The child process running the HTTP and WebSocket clients (client-process.ts), so that the server's memory is
 * its own and the load generator does not share its event loop.
 */
export class BenchClient {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 0;

  constructor() {
    this.#child = fork(CLIENT_PROCESS, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (reply: ClientReply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.result);
      else pending?.reject(new Error(`bench client: ${reply.error}`));
    });
    this.#child.on('exit', (code) => {
      for (const { reject } of this.#pending.values()) reject(new Error(`bench client exited (${code})`));
      this.#pending.clear();
    });
  }

  /** Sends `requests` (the first `warmup` unmeasured), `concurrency` in flight, until they run out or `seconds` pass. */
  run(command: Omit<Extract<ClientCommand, { op: 'run' }>, 'op'>): Promise<RunResult> {
    return this.#call({ op: 'run', ...command });
  }

  /** Opens an event subscription (the SDK's subscribeToEvents) for each wallet seed, `concurrency` handshakes at a time. */
  connect(command: Omit<Extract<ClientCommand, { op: 'connect' }>, 'op'>): Promise<ConnectResult> {
    return this.#call({ op: 'connect', ...command });
  }

  disconnect(): Promise<void> {
    return this.#call({ op: 'disconnect' });
  }

  #call<T>(command: ClientCommand): Promise<T> {
    const id = ++this.#nextId;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#child.send({ id, command });
    });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.disconnect();
    const timer = setTimeout(() => this.#child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** A Measurement of a client run's HTTP answers (its 2xx latencies; everything else failed). */
export function fromRun(scenario: string, path: string, run: RunResult): Measurement {
  const failed = run.sent - run.http.length;
  const notes = [
    ...(run.exhausted ? [`used up all ${run.sent} prepared requests in ${decimal(run.elapsedSeconds)} s`] : []),
    ...(failed > 0 ? [`failures: ${statusSummary(run.statuses)}; first: ${run.firstFailure ?? '?'}`] : []),
  ];
  return fromLatencies(scenario, path, { latencies: run.http, elapsedSeconds: run.elapsedSeconds, failed, notes });
}
