/**
 * The orders bench's client process (forked by client.ts): fetch for the accepts and the messages, and the
 * 1,000 agents' event sockets (the SDK's subscribeToEvents). It times each request and the frame it causes on
 * the agent's socket, and answers ClientCommands until the parent disconnects.
 */
import { subscribeToEvents, type EventFrame, type EventSubscription } from '../../../client-sdk/events.ts';
import { errorMessage, runLoops } from '../common/loops.ts';
import type { ClientCommand, ClientReply, ConnectResult, PreparedRequest, RunResult } from './protocol.ts';
import { walletFromSeed } from './wallet.ts';

const FRAME_TIMEOUT_MS = 10_000;

function runClientProcess(): void {
  const subscriptions: EventSubscription[] = [];
  const waiters = new Map<string, { agent: number; arrived(at: number | undefined): void }>();
  let misdelivered = 0;
  let socketErrors = 0;

  const onFrame = (agent: number, frame: EventFrame) => {
    const at = performance.now();
    const key = frame.event === 'message:received' ? frame.data.message.content : frame.event === 'order:paid' ? frame.data.orderId : undefined;
    const waiter = key === undefined ? undefined : waiters.get(key);
    if (!waiter || !key) return;
    waiters.delete(key);
    if (waiter.agent !== agent) misdelivered++;
    waiter.arrived(waiter.agent === agent ? at : undefined);
  };

  /** Resolves with the arrival time of the frame; undefined after FRAME_TIMEOUT_MS, or once `cancel` is called. */
  const frameArrival = (expect: { agent: number; key: string }) => {
    let cancel = () => {};
    const arrival = new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => cancel(), FRAME_TIMEOUT_MS);
      cancel = () => {
        clearTimeout(timer);
        waiters.delete(expect.key);
        resolve(undefined);
      };
      waiters.set(expect.key, { agent: expect.agent, arrived: (at) => (clearTimeout(timer), resolve(at)) });
    });
    return { arrival, cancel };
  };

  /** One request and, when it causes one, its frame; recorded in `result` unless it is a warm-up request. */
  async function send(baseUrl: string, request: PreparedRequest, result: RunResult, record: boolean): Promise<void> {
    if (record) result.sent++;
    const frame = request.expect ? frameArrival(request.expect) : undefined;
    const started = performance.now();
    let answered = started;
    let status = 'error';
    let ok = false;
    try {
      const res = await fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await res.text();
      answered = performance.now();
      status = String(res.status);
      ok = res.ok;
      if (res.ok) {
        if (record) result.http.push(answered - started);
      } else {
        result.firstFailure ??= `${res.status} ${text.slice(0, 300)}`;
      }
    } catch (error) {
      result.firstFailure ??= errorMessage(error);
    }
    if (record) result.statuses[status] = (result.statuses[status] ?? 0) + 1;
    if (!frame) return;
    if (!ok) frame.cancel(); // failed: no event; counted as a failure, not as a missed frame
    const arrived = await frame.arrival;
    if (!record || !ok) return;
    if (arrived === undefined) result.missedFrames++;
    else {
      result.frames.push(arrived - started);
      result.frameAfterResponse.push(arrived - answered);
    }
  }

  async function run(command: Extract<ClientCommand, { op: 'run' }>): Promise<RunResult> {
    const { baseUrl, requests, concurrency } = command;
    const result: RunResult = { http: [], frames: [], frameAfterResponse: [], statuses: {}, missedFrames: 0, socketErrors: 0, elapsedSeconds: 0, sent: 0, exhausted: false };
    socketErrors = 0;
    let next = 0;
    const phase = (seconds: number, until: number, record: boolean) =>
      runLoops(concurrency, seconds, () => (next < until ? next++ : undefined), (index) => send(baseUrl, requests[index]!, result, record));
    await phase(Number.POSITIVE_INFINITY, Math.min(command.warmup, requests.length), false);
    const seconds = command.seconds ?? Number.POSITIVE_INFINITY;
    const measured = await phase(seconds, requests.length, true);
    result.elapsedSeconds = measured.elapsedSeconds;
    result.exhausted = next >= requests.length && measured.elapsedSeconds < seconds;
    result.missedFrames += misdelivered;
    misdelivered = 0;
    result.socketErrors = socketErrors;
    return result;
  }

  async function connect(command: Extract<ClientCommand, { op: 'connect' }>): Promise<ConnectResult> {
    const started = performance.now();
    const errors: string[] = [];
    let opened = 0;
    const open = (agent: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          errors.push(`agent ${agent}: not open after 30 s`);
          resolve();
        }, 30_000);
        let first = true;
        subscriptions[agent] = subscribeToEvents({
          baseUrl: command.baseUrl,
          wallet: walletFromSeed(command.seeds[agent]!).signer,
          onEvent: (frame) => onFrame(agent, frame),
          onOpen: () => {
            if (!first) return;
            first = false;
            opened++;
            clearTimeout(timer);
            resolve();
          },
          onError: (error) => {
            if (!first) socketErrors++;
            else if (errors.length < 10) errors.push(`agent ${agent}: ${error.message}`);
          },
        });
      });
    let next = 0;
    await runLoops(command.concurrency, Number.POSITIVE_INFINITY, () => (next < command.seeds.length ? next++ : undefined), open);
    return { opened, seconds: (performance.now() - started) / 1_000, errors };
  }

  async function disconnect(): Promise<void> {
    for (const subscription of subscriptions.splice(0)) subscription?.close();
  }

  process.on('message', (message: { id: number; command: ClientCommand }) => {
    const { id, command } = message;
    const work = command.op === 'run' ? run(command) : command.op === 'connect' ? connect(command) : disconnect();
    work.then(
      (result) => process.send?.({ id, ok: true, result } satisfies ClientReply),
      (error: unknown) => process.send?.({ id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ClientReply),
    );
  });
  process.on('disconnect', () => {
    void disconnect();
    process.exit(0);
  });
}

if (import.meta.main) runClientProcess();
