/**
 * A tiny static-file server for browser tests: serves a built folder over real HTTP on 127.0.0.1, under an
 * optional base path (`/acme/widgets`), the way a host serves a built documentation site.
 *
 *   const server = await serveStatic(site.out, { base: '/acme/widgets' });
 *   server.url('/en/quickstart')   // http://127.0.0.1:<port>/acme/widgets/en/quickstart
 *   await server.close();
 *
 * A folder (`/en/quickstart`, `/en/quickstart/`) answers its `index.html`; anything else that is not a file
 * under the root, or outside the base path, answers 404. GET and HEAD only. `requests` lists what was asked.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  // Pagefind: its WebAssembly (`wasm.<lang>.pagefind`) and gzipped index chunks, fetched and decoded by pagefind.js.
  '.pagefind': 'application/wasm',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_filter': 'application/octet-stream',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The base path the folder is served under (`''` or `/acme/widgets`). */
  base: string;
  /** Absolute URL of a path inside the site (`/en/quickstart` -> origin + base + path). */
  url(path?: string): string;
  /** Every request path received, in order. */
  requests: string[];
  close(): Promise<void>;
}

export function contentType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The file a URL path names inside `root` (after removing `base`), or undefined. */
async function resolveFile(root: string, base: string, pathname: string): Promise<string | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  if (base) {
    if (path !== base && !path.startsWith(`${base}/`)) return undefined;
    path = path.slice(base.length);
  }
  const file = resolve(root, `.${path.startsWith('/') ? path : `/${path}`}`);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  if (await isFile(file)) return file;
  const index = join(file, 'index.html');
  return (await isFile(index)) ? index : undefined;
}

export async function serveStatic(folder: string, options: { base?: string } = {}): Promise<StaticServer> {
  const root = resolve(folder);
  const base = (options.base ?? '').replace(/\/+$/, '');
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url.pathname);
    const notFound = () => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    resolveFile(root, base, url.pathname).then(
      async (file) => {
        if (!file) return notFound();
        const { size } = await stat(file);
        res.writeHead(200, { 'content-type': contentType(file), 'content-length': size, 'cache-control': 'no-cache' });
        if (req.method === 'HEAD') return void res.end();
        createReadStream(file).on('error', () => res.destroy()).pipe(res);
      },
      () => notFound(),
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    base,
    url: (path = '/') => `${origin}${base}${path.startsWith('/') ? path : `/${path}`}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
