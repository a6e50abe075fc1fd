/** What the main process asks the client process (client.ts -> client-process.ts) and what it answers. */

export interface PreparedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The frame this request causes: which agent socket gets it, and its key (message content or order id). */
  expect?: { agent: number; key: string };
}

export type ClientCommand =
  | { op: 'run'; baseUrl: string; requests: PreparedRequest[]; concurrency: number; warmup: number; seconds?: number }
  | { op: 'connect'; baseUrl: string; seeds: string[]; concurrency: number }
  | { op: 'disconnect' };

export interface RunResult {
  /** Latencies of the measured 2xx answers, ms. */
  http: number[];
  /** Latencies from sending the request to its frame's arrival, ms (requests with `expect`). */
  frames: number[];
  /** Frame arrival minus the end of the HTTP response, ms (negative: the frame came first). */
  frameAfterResponse: number[];
  statuses: Record<string, number>;
  /** Expected frames (of requests answered 2xx) that did not come within FRAME_TIMEOUT_MS, or came to another socket. */
  missedFrames: number;
  /** Event connections that failed or closed during the run (the SDK reconnects them, replaying with `since`). */
  socketErrors: number;
  firstFailure?: string;
  elapsedSeconds: number;
  /** Requests of the measured phase (after the warm-up). */
  sent: number;
  /** True when the requests ran out before the time did. */
  exhausted: boolean;
}

export interface ConnectResult {
  opened: number;
  seconds: number;
  errors: string[];
}

export type ClientReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
