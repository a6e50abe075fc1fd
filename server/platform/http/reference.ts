import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { htmlPage } from './html-page.ts';

/** Swagger UI's own files, served from our origin (nothing loads from a CDN). */
const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = htmlPage(
  'API reference',
  '<link rel="stylesheet" href="/reference/swagger-ui.css">\n  <style>body { margin: 0 } .swagger-ui .topbar { display: none }</style>',
  `  <div id="reference"></div>
  <script src="/reference/swagger-ui-bundle.js"></script>
  <script src="/reference/init.js"></script>`,
);

/**
 * The page runs Swagger UI's files and nothing else: its own scripts, styles (React sets style attributes), data:
 * images, calls to this origin only (openapi.json names the server relatively); no frame may hold it.
 */
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PAGE_HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': POLICY, 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' };
const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' };

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: true });`;

/** `/reference`: a readable, interactive page built from /openapi.json. Returns false for other paths. */
export async function serveReference(path: string, res: ServerResponse): Promise<boolean> {
  if (path === '/reference' || path === '/reference/') {
    res.writeHead(200, PAGE_HEADERS).end(PAGE);
    return true;
  }
  if (path === '/reference/init.js') {
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', ...NOSNIFF }).end(INIT);
    return true;
  }
  const asset = path.slice('/reference/'.length);
  const type = path.startsWith('/reference/') ? ASSETS[asset] : undefined;
  if (!type) return false;
  const body = await readFile(join(assetsDir, asset));
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', ...NOSNIFF }).end(body);
  return true;
}
