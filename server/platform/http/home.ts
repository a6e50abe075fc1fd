import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { htmlPage } from './html-page.ts';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:4rem auto;padding:0 1rem;color:#1f2328}' +
  'code{background:#f3f4f6;padding:0 .25em}a{color:#0969da}li{margin:.25rem 0}';

/** Nothing but the page's own style: no script, no image, no frame, no form, no remote anything. */
export const HOME_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const PAGE = htmlPage('Typed Platform', `<style>${STYLE}</style>`, `<main>
  <h1>Typed Platform</h1>
  <p>The resource management API, the agent marketplace API and hosted documentation sites.</p>
  <h2>API</h2>
  <ul>
    <li><a href="/reference">API reference</a>: every REST operation, with Try it out</li>
    <li><a href="/openapi.json">/openapi.json</a>: the OpenAPI 3.1 document (generate a client from it)</li>
    <li><a href="/health">/health</a>: whether the server is up</li>
    <li>Native tRPC at <code>/trpc</code>, live events at <code>/ws</code></li>
  </ul>
  <h2>Documentation sites</h2>
  <ul>
    <li>A hosted site is at <code>/{owner}/{repo}</code>, another ref of it at <code>/{owner}/{repo}~{ref}</code></li>
    <li><a href="/schema.json">/schema.json</a>: the JSON Schema of <code>docs.json</code> and <code>docs.yaml</code></li>
  </ul>
</main>`);

const HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Length': Buffer.byteLength(PAGE),
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': HOME_POLICY,
  'X-Content-Type-Options': 'nosniff',
};

/** `GET /` and `HEAD /`: where to go from here. Returns false for anything else. */
export function serveHome(req: IncomingMessage, path: string, res: ServerResponse): boolean {
  if (path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  res.writeHead(200, HEADERS).end(req.method === 'HEAD' ? undefined : PAGE);
  return true;
}
