import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/lib/free-port.ts';

/**
 * What the contract tests of openapi.json share (tests/platform/openapi-prism-proxy, openapi-client,
 * openapi-faker, openapi-spectral): the document as the running server serves it (GET /openapi.json, the same
 * code as `npm run openapi`, so the tests judge the current routers, not a stale file), its operations, and
 * Stoplight Prism as a child process.
 */

export const root = fileURLToPath(new URL('../..', import.meta.url));

// Loose types: the tests read whatever the document holds.
export type Schema = Record<string, any>;
export interface DocParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
export interface DocOperation {
  operationId: string;
  parameters?: DocParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }>; $ref?: string };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }>; headers?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
}
export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, DocOperation>>;
  components?: Record<string, Record<string, Schema>>;
  [key: string]: unknown;
}

/** The document a server serves at /openapi.json. */
export async function documentOf(serverUrl: string): Promise<OpenApiDocument> {
  const res = await fetch(`${serverUrl}/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /openapi.json: ${res.status} ${await res.text()}`);
  return (await res.json()) as OpenApiDocument;
}

/** A scratch folder in the OS temp dir, removed by `remove()`. */
export function scratchDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes the document to `<dir>/openapi.json` (what Prism and the client generator read) and returns the path. */
export function writeDocument(doc: OpenApiDocument, dir: string): string {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

export interface Operation {
  method: string;
  path: string;
  /** `METHOD /path/{template}`, as the tests name it. */
  name: string;
  op: DocOperation;
  /** Matches a request path (no query) against the template. */
  pattern: RegExp;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        op,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      })),
  );
}

/** The operation a request targets, by method and path (a literal path wins over a template: `/search` over `/{id}`). */
export function operationOf(operations: Operation[], method: string, url: string): Operation | undefined {
  const path = new URL(url, 'http://x').pathname;
  const candidates = operations.filter((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  return candidates.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
}

/** `value` with every local `$ref` (`#/components/...`) replaced by what it points at (siblings of a `$ref` kept). */
export function dereference(doc: OpenApiDocument, value: unknown, seen: string[] = []): any {
  if (Array.isArray(value)) return value.map((item) => dereference(doc, item, seen));
  if (!value || typeof value !== 'object') return value;
  const { $ref, ...rest } = value as Record<string, unknown>;
  if (typeof $ref === 'string') {
    if (!$ref.startsWith('#/')) throw new Error(`only local $refs are expected in openapi.json, got ${$ref}`);
    if (seen.includes($ref)) throw new Error(`recursive $ref ${$ref}`);
    let target: any = doc;
    for (const part of $ref.slice(2).split('/')) target = target?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (target === undefined) throw new Error(`unresolved $ref ${$ref}`);
    return { ...dereference(doc, target, [...seen, $ref]), ...dereference(doc, rest, seen) };
  }
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, dereference(doc, v, seen)]));
}

const prismPackage = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json');
const prismCli = join(dirname(prismPackage), (JSON.parse(readFileSync(prismPackage, 'utf8')) as { bin: Record<string, string> }).bin.prism!);

export interface Prism {
  url: string;
  /** What Prism printed (its log), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `prism proxy <document> <upstream> --errors --port <port>` on this Node (what `npx prism` runs), offline: Prism
 * reads the local file and talks to the upstream on 127.0.0.1 only. `validateRequest: false` forwards requests the
 * document says are invalid (to check the server's answer to them); answers are validated either way.
 */
export async function startPrism(
  document: string,
  upstream: string,
  { port, validateRequest = true }: { port?: number; validateRequest?: boolean } = {},
): Promise<Prism> {
  const listenOn = port ?? (await freePort());
  const args = [prismCli, 'proxy', document, upstream, '--errors', '--port', String(listenOn), '--host', '127.0.0.1', '--multiprocess=false'];
  if (!validateRequest) args.push('--validate-request=false');
  const child: ChildProcess = spawn(process.execPath, args, { cwd: root, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode} before listening:\n${log}`);
    if (/Prism is listening/.test(log) && (await accepts(listenOn))) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`prism did not listen on ${listenOn} within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${listenOn}`,
    output: () => log,
    async stop() {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
