import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.ts';

export const MAX_BODY_BYTES = 100_000;
/** Arrays and objects nested deeper than this are refused before parsing: no request body of ours needs more. */
export const MAX_BODY_DEPTH = 64;

const problems = new WeakMap<IncomingMessage, AppError>();
const rawBodies = new WeakMap<IncomingMessage, string>();
const bodyBytes = new WeakMap<IncomingMessage, Buffer>();

/** A body problem found while reading the request, raised later inside the procedure's context. */
export const bodyProblem = (req: IncomingMessage) => problems.get(req);

/** The body's text exactly as received (webhooks sign it), when it was read. */
export const rawBody = (req: IncomingMessage) => rawBodies.get(req);

/** The body's bytes exactly as received (a wallet signature's X-Body-SHA256 covers them), when it was read. */
export const receivedBody = (req: IncomingMessage) => bodyBytes.get(req);

/** `application/json`, any casing, with no charset or UTF-8 (the only one JSON allows, RFC 8259). */
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the JSON body of a request with one ahead of the REST adapter (which then takes `req.body` as
 * given), so that every problem is one documented client error: a content type other than JSON,
 * more than 100 kB, bytes that are not UTF-8, nesting deeper than 64 levels, malformed JSON, or JSON that is not
 * an object.
 */
export async function readJsonBody(req: IncomingMessage & { body?: unknown }): Promise<void> {
  req.body = undefined;
  // No body (a DELETE, a bodiless POST): no content type to check, and no input, as `{}`; a call that needs a body
  // then fails validation, naming it.
  if (!hasBody(req)) return;
  if (!JSON_MEDIA_TYPE.test(req.headers['content-type'] ?? '')) {
    problems.set(req, new AppError('INVALID_REQUEST', 'Content-Type must be application/json'));
    return;
  }
  const bytes = await readBytes(req);
  if (!bytes) return;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    problems.set(req, new AppError('INVALID_REQUEST', 'Request body is not valid UTF-8'));
    return;
  }
  rawBodies.set(req, text);
  if (text.trim() === '') return;
  // Validation and error reporting walk the value recursively: a deep one would exhaust the stack (a 500).
  if (nestingExceeds(text, MAX_BODY_DEPTH)) {
    problems.set(req, new AppError('INVALID_REQUEST', `Request body is nested more than ${MAX_BODY_DEPTH} levels deep`));
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    problems.set(req, new AppError('INVALID_REQUEST', `Request body is not valid JSON: ${(error as Error).message}`));
    return;
  }
  // Every REST body is an object; the adapter would otherwise spread arrays and scalars into one.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.set(req, new AppError('INVALID_REQUEST', 'Request body must be a JSON object'));
    return;
  }
  req.body = body;
}

/**
 * Reads the body ahead of native tRPC, which would read it itself, so that a wallet signature's X-Body-SHA256 is
 * checked against the bytes as received. tRPC parses the text it is handed as `req.body`, decoded as it decodes
 * (UTF-8, a byte-order mark dropped); over 100 kB, a PAYLOAD_TOO_LARGE problem for the context to raise.
 */
export async function readBodyAhead(req: IncomingMessage & { body?: unknown }): Promise<void> {
  if (!hasBody(req)) {
    // Nothing for a content type to describe: tRPC reads no input (then validated) instead of refusing with 415.
    req.headers['content-type'] = 'application/json';
    return;
  }
  const bytes = await readBytes(req);
  req.body = bytes ? lenientUtf8.decode(bytes) : '';
}

const lenientUtf8 = new TextDecoder('utf-8');

/**
 * GET and HEAD bodies are never read; other requests have one when they announce a length above 0 or a chunked body
 * (only a body needs `Content-Type: application/json`).
 */
const hasBody = (req: IncomingMessage) =>
  req.method !== 'GET' && req.method !== 'HEAD' && (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined);

/** The body's bytes (kept for `receivedBody`), or undefined with a PAYLOAD_TOO_LARGE problem when it passes the cap. */
async function readBytes(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks = await collect(req);
  if (!chunks) {
    problems.set(req, new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes`));
    return undefined;
  }
  const bytes = Buffer.concat(chunks);
  bodyBytes.set(req, bytes);
  return bytes;
}

/** The body's chunks, or undefined once it passes the cap (the rest is left unread; the connection closes after the answer). */
function collect(req: IncomingMessage): Promise<Buffer[] | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(chunks);
    req.on('data', onData).on('end', onEnd).once('error', reject);
  });
}

/** Whether JSON text opens more than `max` arrays or objects inside each other (brackets in strings do not count). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
